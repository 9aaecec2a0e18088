package io.railgun.engine.expr;

import static io.railgun.engine.expr.Rows.eval;
import static io.railgun.engine.expr.Rows.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.query.QueryException;
import io.railgun.engine.query.QueryParser;
import io.railgun.engine.query.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ExpressionCompilerTest {
    private static final EventRow ROW = row("l", 7L, "d", 2.5, "s", "abc", "b", true, "t", 1_700_000_000_000L,
            "l2", -3L, "d2", -0.5, "s2", "日本", "b2", false);
    private static final EventRow NULLS = row();

    private static Object at(String expression) throws QueryException {
        return eval(expression, ROW);
    }

    @Test
    void fieldsAndTheirTypes() throws QueryException {
        assertThat(at("l")).isEqualTo(7L);
        assertThat(at("L")).isEqualTo(7L);
        assertThat(at("d")).isEqualTo(2.5);
        assertThat(at("s")).isEqualTo("abc");
        assertThat(at("s2")).isEqualTo("日本");
        assertThat(at("b")).isEqualTo(true);
        assertThat(at("b2")).isEqualTo(false);
        assertThat(at("t")).isEqualTo(1_700_000_000_000L);
        assertThat(Rows.compile("t").type()).isEqualTo(ValueType.LONG);
        for (String f : new String[] {"l", "d", "s", "b", "t"}) {
            assertThat(eval(f, NULLS)).isNull();
        }
    }

    @Test
    void rowsWrittenWithAnOlderSchemaReadNullForNewFields() throws QueryException {
        var old = io.railgun.engine.schema.Schema.of(java.util.Map.of("l", io.railgun.engine.schema.FieldType.LONG));
        var w = new io.railgun.engine.event.EventRowWriter().begin(old).setLong(0, 5);
        w.finish();
        assertThat(Rows.value(Rows.compile("l"), w.row())).isEqualTo(5L);
        assertThat(Rows.value(Rows.compile("d2"), w.row())).isNull();
    }

    @Test
    void literals() throws QueryException {
        assertThat(at("42")).isEqualTo(42L);
        assertThat(at("-42")).isEqualTo(-42L);
        assertThat(at("1.25")).isEqualTo(1.25);
        assertThat(at("'x''y'")).isEqualTo("x'y");
        assertThat(at("TRUE")).isEqualTo(true);
        assertThat(at("FALSE")).isEqualTo(false);
        assertThat(at("NULL")).isNull();
        assertThat(Rows.compile("NULL").type()).isEqualTo(ValueType.NULL);
        assertThat(at("'日本'")).isEqualTo("日本");
    }

    @Test
    void longArithmetic() throws QueryException {
        assertThat(at("l + 3")).isEqualTo(10L);
        assertThat(at("l - 10")).isEqualTo(-3L);
        assertThat(at("l * l2")).isEqualTo(-21L);
        assertThat(at("l / 2")).isEqualTo(3L);
        assertThat(at("-7 / 2")).isEqualTo(-3L);
        assertThat(at("l / l2")).isEqualTo(-2L);
        assertThat(at("l / 0")).isNull();
        assertThat(at("9223372036854775807 + 1")).isEqualTo(Long.MIN_VALUE);
        assertThat(at("-9223372036854775808 / -1")).isEqualTo(Long.MIN_VALUE);
        assertThat(at("-l")).isEqualTo(-7L);
        assertThat(at("- -l")).isEqualTo(7L);
        assertThat(at("l + 2 * 3")).isEqualTo(13L);
        assertThat(at("(l + 2) * 3")).isEqualTo(27L);
        assertThat(Rows.compile("l + t").type()).isEqualTo(ValueType.LONG);
    }

    @Test
    void doubleArithmeticAndMixing() throws QueryException {
        assertThat(at("d + 1")).isEqualTo(3.5);
        assertThat(at("l + d")).isEqualTo(9.5);
        assertThat(at("l * 0.5")).isEqualTo(3.5);
        assertThat(at("l / 2.0")).isEqualTo(3.5);
        assertThat(at("d - d2")).isEqualTo(3.0);
        assertThat(at("d / 0")).isNull();
        assertThat(at("d / 0.0")).isNull();
        assertThat(at("d / -0.0")).isNull();
        assertThat(at("l / 0.0")).isNull();
        assertThat(at("-d")).isEqualTo(-2.5);
        assertThat(at("1e308 * 10")).isNull();
        assertThat(Rows.compile("l * 1.0").type()).isEqualTo(ValueType.DOUBLE);
    }

    @Test
    void arithmeticWithNull() throws QueryException {
        assertThat(at("l + NULL")).isNull();
        assertThat(at("NULL * d")).isNull();
        assertThat(Rows.compile("l + NULL").type()).isEqualTo(ValueType.LONG);
        assertThat(Rows.compile("NULL - d").type()).isEqualTo(ValueType.DOUBLE);
        assertThat(at("-NULL")).isNull();
        assertThat(eval("l + 1", NULLS)).isNull();
        assertThat(eval("1 + d", NULLS)).isNull();
        assertThat(eval("-l", NULLS)).isNull();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "l = 7 | true", "l = 7.0 | true", "7.0 = l | true", "l <> 7 | false", "l != 8 | true", "l < 8 | true",
        "l <= 7 | true", "l > 7 | false", "l >= 7.5 | false", "l < 7.5 | true", "d = 2.5 | true", "d > l | false",
        "-0.0 = 0.0 | true", "0 = -0.0 | true", "-0.0 < 0 | false",
        "s = 'abc' | true", "s <> 'abd' | true", "s < 'abd' | true", "s < 'ab' | false", "s > 'ab' | true",
        "'' < s | true", "s2 > s | true", "'é' > 'z' | true", "'日本' = s2 | true", "'\uFFFF' < '\uD83D\uDE00' | true",
        "b = TRUE | true", "b > b2 | true", "FALSE < TRUE | true", "b2 = FALSE | true",
        "9007199254740993 = 9007199254740992.0 | false", "9007199254740993 > 9007199254740992.0 | true",
        "9007199254740992 = 9007199254740992.0 | true", "9223372036854775807 < 9223372036854775807.0 | true",
        "-9223372036854775808 = -9223372036854775808.0 | true", "-9223372036854775808 > -1e19 | true",
        "1e19 > 9223372036854775807 | true", "-1 < -0.5 | true", "-1 > -1.5 | true", "3 < 3.0000000001 | true",
    })
    void comparisons(String expression, boolean expected) throws QueryException {
        assertThat(at(expression)).as(expression).isEqualTo(expected);
    }

    @Test
    void comparisonsWithNull() throws QueryException {
        for (String e : new String[] {"l = NULL", "NULL <> 1", "NULL = NULL", "s < NULL", "l = 1", "s = 'a'", "b = TRUE", "d > l"}) {
            assertThat(eval(e, NULLS)).as(e).isNull();
        }
        assertThat(at("l = NULL")).isNull();
    }

    @Test
    void threeValuedLogicTables() throws QueryException {
        String[] values = {"TRUE", "FALSE", "NULL"};
        Boolean[] boxed = {true, false, null};
        for (int i = 0; i < 3; i++) {
            assertThat(at("NOT " + values[i])).isEqualTo(boxed[i] == null ? null : !boxed[i]);
            for (int j = 0; j < 3; j++) {
                Boolean and = boxed[i] == Boolean.FALSE || boxed[j] == Boolean.FALSE ? Boolean.FALSE
                        : boxed[i] == null || boxed[j] == null ? null : Boolean.TRUE;
                Boolean or = boxed[i] == Boolean.TRUE || boxed[j] == Boolean.TRUE ? Boolean.TRUE
                        : boxed[i] == null || boxed[j] == null ? null : Boolean.FALSE;
                assertThat(at(values[i] + " AND " + values[j])).as(values[i] + " AND " + values[j]).isEqualTo(and);
                assertThat(at(values[i] + " OR " + values[j])).as(values[i] + " OR " + values[j]).isEqualTo(or);
            }
        }
        // Same with fields, to go through the non-constant evaluators.
        assertThat(eval("b AND l > 0", NULLS)).isNull();
        assertThat(eval("b2 AND l > 0", row("b2", false))).isEqualTo(false);
        assertThat(eval("l > 0 OR b", row("b", true))).isEqualTo(true);
        assertThat(eval("NOT b", NULLS)).isNull();
        assertThat(at("b AND NOT b2")).isEqualTo(true);
    }

    @Test
    void isNull() throws QueryException {
        assertThat(at("l IS NULL")).isEqualTo(false);
        assertThat(at("l IS NOT NULL")).isEqualTo(true);
        assertThat(eval("l IS NULL", NULLS)).isEqualTo(true);
        assertThat(eval("s IS NOT NULL", NULLS)).isEqualTo(false);
        assertThat(at("NULL IS NULL")).isEqualTo(true);
        assertThat(at("l / 0 IS NULL")).isEqualTo(true);
        assertThat(at("(l = NULL) IS NULL")).isEqualTo(true);
    }

    @Test
    void inLists() throws QueryException {
        assertThat(at("l IN (1, 7, 9)")).isEqualTo(true);
        assertThat(at("l IN (1, 9)")).isEqualTo(false);
        assertThat(at("l IN (1, NULL)")).isNull();
        assertThat(at("l IN (7, NULL)")).isEqualTo(true);
        assertThat(at("l NOT IN (1, 9)")).isEqualTo(true);
        assertThat(at("l NOT IN (7)")).isEqualTo(false);
        assertThat(at("l NOT IN (1, NULL)")).isNull();
        assertThat(at("l NOT IN (7, NULL)")).isEqualTo(false);
        assertThat(eval("l IN (1, 7)", NULLS)).isNull();
        assertThat(eval("l NOT IN (1, 7)", NULLS)).isNull();
        assertThat(at("NULL IN (1, 2)")).isNull();
        assertThat(at("l IN (7.0)")).isEqualTo(true);
        assertThat(at("l IN (7.5, 6.9999)")).isEqualTo(false);
        assertThat(at("l2 IN (-3)")).isEqualTo(true);
        assertThat(at("l IN (1e30, -1e30, 7)")).isEqualTo(true);
        assertThat(at("d IN (1, 2.5)")).isEqualTo(true);
        assertThat(at("d2 IN (-0.5)")).isEqualTo(true);
        assertThat(at("d IN (2, 3)")).isEqualTo(false);
        assertThat(eval("d IN (0)", row("d", -0.0))).isEqualTo(true);
        assertThat(eval("d IN (-0.0)", row("d", 0.0))).isEqualTo(true);
        assertThat(eval("d IN (9007199254740993)", row("d", 9007199254740992.0))).isEqualTo(false);
        assertThat(eval("d IN (9223372036854775807)", row("d", 9.223372036854775807E18))).isEqualTo(false);
        assertThat(eval("l IN (9223372036854775807.0)", row("l", Long.MAX_VALUE))).isEqualTo(false);
        assertThat(at("s IN ('x', 'abc')")).isEqualTo(true);
        assertThat(at("s IN ('ab', 'abcd', '')")).isEqualTo(false);
        assertThat(at("s2 IN ('日本', 'é')")).isEqualTo(true);
        assertThat(at("s NOT IN ('x', NULL)")).isNull();
        assertThat(at("b IN (TRUE)")).isEqualTo(true);
        assertThat(at("b IN (FALSE)")).isEqualTo(false);
        assertThat(at("b2 IN (FALSE, NULL)")).isEqualTo(true);
        assertThat(at("b IN (FALSE, NULL)")).isNull();
        assertThat(at("l IN (NULL)")).isNull();
        assertThat(at("l + 1 IN (8)")).isEqualTo(true);
    }

    @Test
    void between() throws QueryException {
        assertThat(at("l BETWEEN 1 AND 10")).isEqualTo(true);
        assertThat(at("l BETWEEN 7 AND 7")).isEqualTo(true);
        assertThat(at("l BETWEEN 7.5 AND 10")).isEqualTo(false);
        assertThat(at("l BETWEEN 10 AND 1")).isEqualTo(false);
        assertThat(at("l NOT BETWEEN 1 AND 10")).isEqualTo(false);
        assertThat(at("l NOT BETWEEN 8 AND 10")).isEqualTo(true);
        assertThat(at("d BETWEEN l2 AND l")).isEqualTo(true);
        assertThat(at("s BETWEEN 'a' AND 'b'")).isEqualTo(true);
        assertThat(at("b BETWEEN FALSE AND TRUE")).isEqualTo(true);
        assertThat(eval("l BETWEEN 1 AND 2", NULLS)).isNull();
        assertThat(at("l BETWEEN NULL AND 10")).isNull();
        assertThat(at("l BETWEEN NULL AND 5")).isEqualTo(false);
        assertThat(at("l BETWEEN 8 AND NULL")).isEqualTo(false);
        assertThat(at("l BETWEEN 1 AND NULL")).isNull();
        assertThat(at("l NOT BETWEEN NULL AND 5")).isEqualTo(true);
        assertThat(at("l NOT BETWEEN 1 AND NULL")).isNull();
        assertThat(at("NULL BETWEEN 1 AND 2")).isNull();
        assertThat(eval("l BETWEEN l2 AND 10", row("l", 1L))).isNull();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "abc | abc | true", "abc | ab | false", "abc | abcd | false", "abc | % | true", " | % | true", " | _ | false",
        " | '' | true", "abc | a% | true", "abc | %c | true", "abc | %b% | true", "abc | %d% | false", "abc | _b_ | true",
        "abc | ___ | true", "abc | __ | false", "abc | ____ | false", "abc | _%_ | true", "a | _%_ | false", "ab | _%_ | true",
        "xaybz | %a%b_ | true", "xaybzz | %a%b_ | false", "ab | %a%b_ | false", "aab | %a%b_ | false", "abab | %a%b_ | false", "ababc | %a%b_ | true", "abxbc | %a%b_ | true",
        "ABC | abc | false", "a%c | a%c | true", "mississippi | %iss%ppi | true", "mississippi | %iss%ipp | false",
        "mississippi | m%ss%ss%i | true", "aaa | %aa | true", "aaa | aa%aa | false", "aaaa | aa%aa | true",
        "é | _ | true", "é | __ | false", "é | é | true", "café | caf_ | true", "café | caf__ | false",
        "café | %é | true", "日本 | __ | true", "日本 | _ | false", "日本 | ___ | false", "日本 | 日% | true",
        "日本 | %本 | true", "日本語 | _本_ | true", "日本語 | %本 | false", "\uD83D\uDE00x | _x | true", "\uD83D\uDE00 | __ | false",
        "aé日\uD83D\uDE00 | ____ | true", "aé日\uD83D\uDE00 | %_ | true", "aé日\uD83D\uDE00 | _%_%_%_ | true",
        "aé日\uD83D\uDE00 | _%_%_%_%_ | false",
    })
    void like(String value, String pattern, boolean expected) throws QueryException {
        String v = value == null ? "" : value;
        String p = pattern.equals("''") ? "" : pattern;
        EventRow r = row("s", v);
        String quoted = "'" + p.replace("'", "''") + "'";
        assertThat(eval("s LIKE " + quoted, r)).as("'%s' LIKE '%s'", v, p).isEqualTo(expected);
        assertThat(eval("s NOT LIKE " + quoted, r)).as("'%s' NOT LIKE '%s'", v, p).isEqualTo(!expected);
    }

    @Test
    void likeWithNull() throws QueryException {
        assertThat(eval("s LIKE 'a%'", NULLS)).isNull();
        assertThat(eval("s NOT LIKE 'a%'", NULLS)).isNull();
        assertThat(at("NULL LIKE 'a%'")).isNull();
        assertThat(at("s LIKE NULL")).isNull();
        assertThat(at("s NOT LIKE NULL")).isNull();
    }

    @Test
    void predicates() throws QueryException {
        String text = "SELECT COUNT(*) FROM s WHERE b GROUP BY l [RANGE 1 SECOND]";
        Statement s = QueryParser.parse(text);
        Evaluator p = ExpressionCompiler.compilePredicate(s.where(), Rows.SCHEMA, text);
        assertThat(p.test(ROW)).isTrue();
        assertThat(p.test(row("b", false))).isFalse();
        assertThat(p.test(NULLS)).isFalse();
        text = "SELECT COUNT(*) FROM s WHERE NULL GROUP BY l [RANGE 1 SECOND]";
        p = ExpressionCompiler.compilePredicate(QueryParser.parse(text).where(), Rows.SCHEMA, text);
        assertThat(p.type()).isEqualTo(ValueType.BOOLEAN);
        assertThat(p.test(ROW)).isFalse();
        text = "SELECT COUNT(*) FROM s WHERE l > 5 AND s LIKE 'a%' AND d IN (2.5) GROUP BY l [RANGE 1 SECOND]";
        p = ExpressionCompiler.compilePredicate(QueryParser.parse(text).where(), Rows.SCHEMA, text);
        assertThat(p.test(ROW)).isTrue();
        assertThat(p.test(NULLS)).isFalse();
    }

    @Test
    void predicateMustBeBoolean() throws QueryException {
        String text = "SELECT COUNT(*) FROM s WHERE amount GROUP BY l [RANGE 1 SECOND]".replace("amount", "l + 1");
        QueryException e = catchThrowableOfType(QueryException.class,
                () -> ExpressionCompiler.compilePredicate(QueryParser.parse(text).where(), Rows.SCHEMA, text));
        assertThat(e.code()).isEqualTo("type_mismatch");
        assertThat(e.position()).isEqualTo(text.indexOf("l + 1"));
        assertThat(e.hint()).isEqualTo("a WHERE clause needs a true/false condition, e.g. amount > 100");
    }

    private static QueryException compileError(String expression, String code, String marker) {
        String text = Rows.statement(expression);
        QueryException e = catchThrowableOfType(QueryException.class, () -> Rows.compile(expression));
        assertThat(e).as(expression).isNotNull();
        assertThat(e.code()).as(e.getMessage()).isEqualTo(code);
        assertThat(e.position()).as(e.getMessage()).isEqualTo(text.indexOf(marker, "SELECT SUM(".length()));
        assertThat(e.getMessage()).contains(" line ").contains("Hint: ");
        return e;
    }

    @Test
    void unknownFields() {
        QueryException e = compileError("l + amout", "unknown_field", "amout");
        assertThat(e.getMessage()).contains("unknown field 'amout'");
        assertThat(e.hint()).contains("l, d, s, b, t, l2, d2, s2, b2");
        e = compileError("dd > 1", "unknown_field", "dd");
        assertThat(e.hint()).contains("did you mean d");
        e = compileError("zzzzzz", "unknown_field", "zzzzzz");
        assertThat(e.hint()).doesNotContain("did you mean");
    }

    @Test
    void typeMismatches() {
        compileError("s + 1", "type_mismatch", "s + 1");
        compileError("1 + s", "type_mismatch", "s");
        compileError("b * 2", "type_mismatch", "b * 2");
        compileError("-s", "type_mismatch", "s");
        compileError("-b", "type_mismatch", "b");
        compileError("l = 'x'", "type_mismatch", "'x'");
        compileError("s < 1", "type_mismatch", "1");
        compileError("b = 1", "type_mismatch", "1");
        compileError("l AND b", "type_mismatch", "l AND");
        compileError("b OR s", "type_mismatch", "s");
        compileError("NOT l", "type_mismatch", "l");
        compileError("l IN ('a')", "type_mismatch", "'a'");
        compileError("s IN (1)", "type_mismatch", "1");
        compileError("b IN (1)", "type_mismatch", "1");
        compileError("l IN (TRUE)", "type_mismatch", "TRUE");
        compileError("l IN (1, l2)", "type_mismatch", "l2");
        compileError("l IN (1 + 1)", "type_mismatch", "1 + 1");
        compileError("l BETWEEN 'a' AND 2", "type_mismatch", "'a'");
        compileError("s BETWEEN 'a' AND 2", "type_mismatch", "2");
        compileError("l LIKE 'a%'", "type_mismatch", "l LIKE");
        compileError("b NOT LIKE 'a%'", "type_mismatch", "b NOT");
        QueryException e = compileError("s + 1", "type_mismatch", "s + 1");
        assertThat(e.getMessage()).contains("cannot apply '+' to field s (string)");
        e = compileError("l = 'x'", "type_mismatch", "'x'");
        assertThat(e.getMessage()).contains("cannot compare field l (long) with 'x' (string)");
    }

    @Test
    void evaluationDoesNotAllocate() throws QueryException {
        Evaluator e = Rows.compile("(l + 1) * 2 > d AND s LIKE '%b%' AND s2 IN ('日本', 'x') AND d BETWEEN -1 AND 10 "
                + "AND NOT b2 AND t IS NOT NULL AND d2 / 0 IS NULL AND l IN (1, 7) AND d IN (2.5) AND b IN (TRUE)");
        assertThat(e.test(ROW)).isTrue();
        var threads = (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        long tid = Thread.currentThread().threadId();
        for (int i = 0; i < 20_000; i++) {
            e.test(ROW); // warm up so the JIT is not what we measure
        }
        long before = threads.getThreadAllocatedBytes(tid);
        boolean all = true;
        for (int i = 0; i < 100_000; i++) {
            all &= e.test(ROW);
        }
        long allocated = threads.getThreadAllocatedBytes(tid) - before;
        assertThat(all).isTrue();
        assertThat(allocated).as("bytes allocated by 100k evaluations").isLessThan(10_000);
    }
}
