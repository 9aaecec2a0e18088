package io.railgun.engine.query;

import java.util.Locale;
import java.util.Set;

/**
 * The reserved words of the query language: they cannot be used unquoted as a stream, field or metric
 * name ({@code "from"} can). Aggregate names, window words and units are not reserved.
 */
final class Keywords {
    private static final Set<String> RESERVED = Set.of(
            "SELECT", "FROM", "WHERE", "GROUP", "BY", "AS", "AND", "OR", "NOT", "IN", "IS", "NULL", "TRUE", "FALSE",
            "BETWEEN", "LIKE", "DISTINCT");

    private Keywords() {}

    static boolean isReserved(String word) {
        return RESERVED.contains(word.toUpperCase(Locale.ROOT));
    }
}
