package io.railgun.engine.query;

import java.util.List;

/**
 * A parsed statement: {@code SELECT aggs FROM stream [WHERE p] GROUP BY fields window}.
 *
 * @param aggregates the SELECT list, in order
 * @param stream     the FROM stream name
 * @param where      the filter, or null when absent
 * @param groupBy    the GROUP BY field names, in order (at least one)
 * @param window     the window clause
 * @param text       the original statement text
 */
public record Statement(
        List<AggregateCall> aggregates, String stream, Expr where, List<String> groupBy, WindowSpec window, String text) {

    public Statement {
        aggregates = List.copyOf(aggregates);
        groupBy = List.copyOf(groupBy);
    }
}
