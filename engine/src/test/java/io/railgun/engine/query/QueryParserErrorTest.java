package io.railgun.engine.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QueryParserErrorTest {
    private static final String OK_TAIL = " GROUP BY k [RANGE 1 SECOND]";

    static QueryException error(String text) {
        QueryException e = catchThrowableOfType(QueryException.class, () -> QueryParser.parse(text));
        assertThat(e).as("parse of <%s> should fail", text).isNotNull();
        assertThat(e.getMessage()).contains("Hint: ");
        if (e.position() >= 0 && text != null) {
            assertThat(e.getMessage()).contains(" line ");
        }
        assertThat(e.hint()).isNotBlank();
        return e;
    }

    /** Asserts code, that the position is at {@code marker}'s first occurrence, and the detail. */
    static QueryException error(String text, String code, String marker, String detail) {
        QueryException e = error(text);
        assertThat(e.code()).isEqualTo(code);
        int expected = at(text, marker);
        assertThat(expected).as("marker in text").isGreaterThanOrEqualTo(0);
        assertThat(e.position()).as(e.getMessage()).isEqualTo(expected);
        assertThat(e.getMessage()).contains(detail);
        return e;
    }

    /** {@code <EOF>}: the end; {@code last:X}: the last X; else the first occurrence of the marker. */
    static int at(String text, String marker) {
        if (marker.equals("<EOF>")) {
            return text.length();
        }
        return marker.startsWith("last:") ? text.lastIndexOf(marker.substring(5)) : text.indexOf(marker);
    }

    @Test
    void emptyStatements() {
        for (String text : new String[] {"", "   ", "\n\t", ";", " ; ", "-- nothing", "/* nothing */"}) {
            QueryException e = error(text);
            assertThat(e.code()).isEqualTo("syntax_error");
            assertThat(e.getMessage()).startsWith("empty statement");
            assertThat(e.position()).isZero();
        }
        QueryException e = catchThrowableOfType(QueryException.class, () -> QueryParser.parse(null));
        assertThat(e.code()).isEqualTo("syntax_error");
    }

    @Test
    void theBriefsExample() {
        QueryException e = error("SELECT COUNT(*) FROM s GROUP BY", "syntax_error", "<EOF>",
                "expected a field name after GROUP BY but found end of statement");
        assertThat(e.getMessage()).contains("at line 1, column 32");
        e = error("SELECT COUNT(*) FROM s GROUP BY k", "syntax_error", "<EOF>",
                "expected a window such as [RANGE 5 MINUTES] but found end of statement");
        assertThat(e.hint()).contains("a statement ends with a window such as [RANGE 5 MINUTES]");
    }

    @Test
    void lineAndColumnAreReported() {
        QueryException e = error("SELECT COUNT(*)\nFROM s\nWHERE amount >\nGROUP BY k [RANGE 1 SECOND]");
        assertThat(e.getMessage()).contains("line 4, column 1").contains("expected an expression after '>' but found 'GROUP'");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        // text | marker of the error position | detail
        "SELEC COUNT(*) FROM s GROUP BY k [RANGE 1 SECOND] | SELEC | expected SELECT at the start of the statement but found 'SELEC'",
        "SELECT FROM s GROUP BY k [RANGE 1 SECOND] | FROM | expected an aggregate such as COUNT(*) or SUM(amount) but found 'FROM'",
        "SELECT card FROM s GROUP BY k [RANGE 1 SECOND] | card | expected an aggregate",
        "SELECT COUNT(*) card FROM s GROUP BY k [RANGE 1 SECOND] | card | expected ',' or FROM after the aggregate but found 'card'",
        "SELECT COUNT(*), FROM s GROUP BY k [RANGE 1 SECOND] | FROM | expected an aggregate",
        "SELECT COUNT(* FROM s GROUP BY k [RANGE 1 SECOND] | FROM | expected ')' to close COUNT( but found 'FROM'",
        "SELECT SUM(*) FROM s GROUP BY k [RANGE 1 SECOND] | * | SUM(*) is not supported",
        "SELECT SUM(DISTINCT x) FROM s GROUP BY k [RANGE 1 SECOND] | DISTINCT | DISTINCT is not supported in SUM",
        "SELECT SUM() FROM s GROUP BY k [RANGE 1 SECOND] | ) | expected an expression after '(' but found ')'",
        "SELECT COUNT(*) AS FROM s GROUP BY k [RANGE 1 SECOND] | FROM | expected a metric name after AS but found the reserved word 'FROM'",
        "SELECT COUNT(*) AS 5 FROM s GROUP BY k [RANGE 1 SECOND] | 5 | expected a metric name after AS but found number 5",
        "SELECT COUNT(*) FORM s GROUP BY k [RANGE 1 SECOND] | FORM | expected ',' or FROM after the aggregate but found 'FORM'",
        "SELECT COUNT(*) FROM GROUP BY k [RANGE 1 SECOND] | GROUP | expected a stream name after FROM but found the reserved word 'GROUP'",
        "SELECT COUNT(*) FROM s [RANGE 1 SECOND] | [ | expected WHERE or GROUP BY after the stream name but found '['",
        "SELECT COUNT(*) FROM s WHERE GROUP BY k [RANGE 1 SECOND] | GROUP | expected an expression after 'WHERE' but found 'GROUP'",
        "SELECT COUNT(*) FROM s WHERE a > 1 [RANGE 1 SECOND] | [ | expected GROUP BY after the WHERE condition but found '['",
        "SELECT COUNT(*) FROM s GROUP k [RANGE 1 SECOND] | k [ | expected BY after GROUP but found 'k'",
        "SELECT COUNT(*) FROM s GROUP BY [RANGE 1 SECOND] | [ | expected a field name after GROUP BY but found '['",
        "SELECT COUNT(*) FROM s GROUP BY k, [RANGE 1 SECOND] | [ | expected a field name after ',' but found '['",
        "SELECT COUNT(*) FROM s GROUP BY k, K [RANGE 1 SECOND] | K | field 'K' appears twice in GROUP BY",
        "SELECT COUNT(*) FROM s GROUP BY k RANGE 1 SECOND | RANGE | expected a window such as [RANGE 5 MINUTES] but found 'RANGE'",
        "SELECT COUNT(*) FROM s GROUP BY k [] | ] | expected RANGE or TUMBLING after '[' but found ']'",
        "SELECT COUNT(*) FROM s GROUP BY k [SLIDING 5 MINUTES] | SLIDING | expected RANGE or TUMBLING after '[' but found 'SLIDING'",
        "SELECT COUNT(*) FROM s GROUP BY k [RANGE 5] | ] | expected a time unit after 5 but found ']'",
        "SELECT COUNT(*) FROM s GROUP BY k [RANGE MINUTES] | MINUTES | expected a number for the window size but found 'MINUTES'",
        "SELECT COUNT(*) FROM s GROUP BY k [RANGE 5 MINUTES | <EOF> | expected DELAY or ']' after the window size but found end of statement",
        "SELECT COUNT(*) FROM s GROUP BY k [RANGE 5 MINUTES 3] | 3] | expected DELAY or ']' after the window size but found number 3",
        "SELECT COUNT(*) FROM s GROUP BY k [RANGE 5 MINUTES DELAY 0 SECONDS x] | x] | expected ']' to close the window but found 'x'",
        "SELECT COUNT(*) FROM s GROUP BY k [RANGE 5 MINUTES DELAY] | ] | expected a number for the delay but found ']'",
        "SELECT COUNT(*) FROM s GROUP BY k [RANGE 0 MINUTES] | 0 | the window size must be greater than 0",
        "SELECT COUNT(*) FROM s GROUP BY k [TUMBLING 0 HOURS] | 0 | the window size must be greater than 0",
        "SELECT COUNT(*) FROM s GROUP BY k [RANGE -5 MINUTES] | - | expected a number for the window size but found '-'",
        "SELECT COUNT(*) FROM s GROUP BY k [RANGE 1.5 MINUTES] | 1.5 | a window size must be a whole number but found number 1.5",
        "SELECT COUNT(*) FROM s GROUP BY k [RANGE 99999999999999999999 DAYS] | 9999 | the window size 99999999999999999999 is too large",
        "SELECT COUNT(*) FROM s GROUP BY k [RANGE 9223372036854775807 SECONDS] | 9223 | is too large",
        "SELECT COUNT(*) FROM s GROUP BY k [RANGE 1 DAY DELAY 9223372036854775807 DAYS] | 9223 | the delay 9223372036854775807 is too large",
        "SELECT COUNT(*) FROM s GROUP BY k [TUMBLING 1 HOUR DELAY 5 MINUTES] | DELAY | DELAY is not supported on a TUMBLING window",
        "SELECT COUNT(*) FROM s GROUP BY k [RANGE UNBOUNDED DELAY 5 MINUTES] | DELAY | DELAY is not supported on an UNBOUNDED window",
        "SELECT COUNT(*) FROM s GROUP BY k [RANGE UNBOUNDED | <EOF> | expected ']' to close the window but found end of statement",
        "SELECT COUNT(*) FROM s GROUP BY k [RANGE 1 SECOND] x | x | expected end of statement after the window but found 'x'",
        "SELECT COUNT(*) FROM s GROUP BY k [RANGE 1 SECOND]; 7 | 7 | expected end of statement after the window but found number 7",
        "SELECT COUNT(*) FROM s GROUP BY k [RANGE 1 SECOND];; | last:; | expected end of statement after the window but found ';'",
        "SELECT COUNT(*) FROM s GROUP BY k [RANGE 1 SECOND] SELECT | last:SELECT | expected end of statement",
    })
    void syntaxErrors(String text, String marker, String detail) {
        error(text, "syntax_error", marker, detail);
    }

    @Test
    void unknownUnitListsTheUnits() {
        QueryException e = error("SELECT COUNT(*) FROM s GROUP BY k [RANGE 5 MINS]", "syntax_error", "MINS",
                "unknown time unit 'MINS'");
        assertThat(e.hint()).contains("MILLISECOND(S)", "SECOND(S)", "MINUTE(S)", "HOUR(S)", "DAY(S)", "WEEK(S)");
        error("SELECT COUNT(*) FROM s GROUP BY k [RANGE 5 MONTHS]", "syntax_error", "MONTHS", "unknown time unit 'MONTHS'");
    }

    @Test
    void unknownAggregateFunction() {
        QueryException e = error("SELECT MEDIAN(x) FROM s" + OK_TAIL, "unknown_function", "MEDIAN",
                "unknown aggregate function 'MEDIAN'");
        assertThat(e.hint()).contains("COUNT", "SUM", "AVG", "MIN", "MAX", "STDDEV_POP", "STDDEV_SAMP", "STDDEV",
                "VAR_POP", "VAR_SAMP", "LAST");
        error("SELECT COUNT(*), foo(x) AS y FROM s" + OK_TAIL, "unknown_function", "foo", "unknown aggregate function 'foo'");
    }

    @Test
    void functionsInsideExpressions() {
        error("SELECT SUM(lower(x)) FROM s" + OK_TAIL, "unknown_function", "lower", "unknown function 'lower'");
        error("SELECT COUNT(*) FROM s WHERE SUM(x) > 1" + OK_TAIL, "syntax_error", "SUM",
                "the aggregate SUM cannot be used inside an expression");
    }

    @Test
    void lexicalErrors() {
        error("SELECT COUNT(*) FROM s WHERE c = 'abc" + OK_TAIL, "syntax_error", "'abc", "unterminated string");
        error("SELECT COUNT(*) FROM s WHERE c = 'it''s" + OK_TAIL, "syntax_error", "'it", "unterminated string");
        error("SELECT COUNT(*) FROM \"abc" + OK_TAIL, "syntax_error", "\"abc", "unterminated quoted name");
        error("SELECT COUNT(*) FROM \"\"" + OK_TAIL, "syntax_error", "\"\"", "empty quoted name");
        error("SELECT COUNT(*) FROM s WHERE a = 12abc" + OK_TAIL, "syntax_error", "12abc", "malformed number '12abc'");
        error("SELECT COUNT(*) FROM s WHERE a = 1.2.3" + OK_TAIL, "syntax_error", "1.2.3", "malformed number '1.2.3'");
        error("SELECT COUNT(*) FROM s WHERE a = 1e" + OK_TAIL, "syntax_error", "1e", "malformed number '1e'");
        error("SELECT COUNT(*) FROM s WHERE a = 1e+" + OK_TAIL, "syntax_error", "1e+", "malformed number '1e+'");
        error("SELECT COUNT(*) FROM s WHERE a = 1e999" + OK_TAIL, "syntax_error", "1e999", "number 1e999 is out of range");
        error("SELECT COUNT(*) FROM s WHERE a = 9223372036854775808" + OK_TAIL, "syntax_error", "9223",
                "integer 9223372036854775808 is out of range");
        error("SELECT COUNT(*) FROM s WHERE a = -9223372036854775809" + OK_TAIL, "syntax_error", "9223",
                "integer -9223372036854775809 is out of range");
        error("SELECT COUNT(*) FROM s WHERE a # 1" + OK_TAIL, "syntax_error", "#", "unexpected character '#'");
        error("SELECT COUNT(*) FROM s WHERE a ! 1" + OK_TAIL, "syntax_error", "!", "unexpected character '!'");
        error("SELECT COUNT(*) FROM s WHERE é = 1" + OK_TAIL, "syntax_error", "é", "unexpected character 'é'");
        error("SELECT COUNT(*) FROM s WHERE a = 1\u0001" + OK_TAIL, "syntax_error", "\u0001", "unexpected character U+0001");
        error("SELECT COUNT(*) FROM s WHERE a\u00a0= 1" + OK_TAIL, "syntax_error", "\u00a0", "unexpected character U+00A0");
        error("SELECT COUNT(*) /* oops FROM s" + OK_TAIL, "syntax_error", "/*", "unterminated comment");
        error("SELECT COUNT(*) FROM s GROUP BY k [RANGE 5MINUTES]", "syntax_error", "5MINUTES", "malformed number '5MINUTES'");
    }

    @Test
    void expressionErrors() {
        error("SELECT COUNT(*) FROM s WHERE a = " + OK_TAIL, "syntax_error", "GROUP", "expected an expression after '=' but found 'GROUP'");
        error("SELECT COUNT(*) FROM s WHERE (a = 1" + OK_TAIL, "syntax_error", "GROUP", "expected ')' to close the '(' but found 'GROUP'");
        error("SELECT COUNT(*) FROM s WHERE a = 1)" + OK_TAIL, "syntax_error", "last:)", "expected GROUP BY after the WHERE condition but found ')'");
        error("SELECT COUNT(*) FROM s WHERE a < b < c" + OK_TAIL, "syntax_error", "< c", "comparisons cannot be chained");
        error("SELECT COUNT(*) FROM s WHERE a IS 5" + OK_TAIL, "syntax_error", "5", "expected NULL or NOT NULL after IS but found number 5");
        error("SELECT COUNT(*) FROM s WHERE a IS NOT 5" + OK_TAIL, "syntax_error", "5", "expected NULL after IS NOT but found number 5");
        error("SELECT COUNT(*) FROM s WHERE a NOT 5" + OK_TAIL, "syntax_error", "5", "expected IN, BETWEEN or LIKE after NOT but found number 5");
        error("SELECT COUNT(*) FROM s WHERE a IN 1, 2" + OK_TAIL, "syntax_error", "1,", "expected '(' after IN but found number 1");
        error("SELECT COUNT(*) FROM s WHERE a IN ()" + OK_TAIL, "syntax_error", "last:)", "expected an expression after '(' but found ')'");
        error("SELECT COUNT(*) FROM s WHERE a IN (1 2)" + OK_TAIL, "syntax_error", "2)", "expected ',' or ')' in the IN list but found number 2");
        error("SELECT COUNT(*) FROM s WHERE a BETWEEN 1 OR 2" + OK_TAIL, "syntax_error", "OR", "expected AND in BETWEEN ... AND ... but found 'OR'");
        error("SELECT COUNT(*) FROM s WHERE a LIKE b" + OK_TAIL, "syntax_error", "b G", "expected a string pattern after LIKE but found 'b'");
        error("SELECT COUNT(*) FROM s WHERE a AND" + OK_TAIL, "syntax_error", "GROUP", "expected an expression after 'AND' but found 'GROUP'");
        error("SELECT COUNT(*) FROM s WHERE NOT" + OK_TAIL, "syntax_error", "GROUP", "expected an expression after 'NOT' but found 'GROUP'");
        error("SELECT COUNT(*) FROM s WHERE a = +1" + OK_TAIL, "syntax_error", "+", "expected an expression after '=' but found '+'");
        error("SELECT COUNT(*) FROM s WHERE a = SELECT" + OK_TAIL, "syntax_error", "SELECT G", "found 'SELECT'");
    }

    @Test
    void nestingIsBounded() {
        String deep = "(".repeat(200) + "a" + ")".repeat(200);
        QueryException nested = error("SELECT COUNT(*) FROM s WHERE " + deep + OK_TAIL);
        assertThat(nested.getMessage()).contains("nested more than 100 levels");
        assertThat(nested.position()).isEqualTo("SELECT COUNT(*) FROM s WHERE ".length() + 100);
        error("SELECT COUNT(*) FROM s WHERE " + "NOT ".repeat(500) + "a" + OK_TAIL);
        error("SELECT SUM(" + "-".repeat(5000).replace("--", "- -") + "a) FROM s" + OK_TAIL);
        String chain = "a" + " + a".repeat(100_000) + " > 0";
        QueryException e = error("SELECT COUNT(*) FROM s WHERE " + chain + OK_TAIL);
        assertThat(e.getMessage()).contains("more than 500 levels");
    }
}
