package io.railgun.engine.query;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.query.Expr.BinaryOp;
import io.railgun.engine.query.Expr.UnaryOp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class QueryParserTest {

    private static Statement parse(String text) throws QueryException {
        return QueryParser.parse(text);
    }

    /** The WHERE expression of a minimal statement around {@code predicate}. */
    static Expr where(String predicate) throws QueryException {
        return parse("SELECT COUNT(*) FROM s WHERE " + predicate + " GROUP BY card [RANGE 1 MINUTE]").where();
    }

    @Test
    void parsesAFullStatement() throws QueryException {
        String text = "SELECT SUM(amount) AS total, COUNT(*) FROM payments WHERE amount > 100 GROUP BY card, merchant [RANGE 5 MINUTES];";
        Statement s = parse(text);
        assertThat(s.stream()).isEqualTo("payments");
        assertThat(s.groupBy()).containsExactly("card", "merchant");
        assertThat(s.window()).isEqualTo(WindowSpec.sliding(300_000, 0));
        assertThat(s.text()).isEqualTo(text);
        int amount = text.indexOf("amount >");
        assertThat(s.aggregates()).containsExactly(
                new AggregateCall(AggregateFunction.SUM, new Expr.FieldRef("amount", 11), "total", 7),
                new AggregateCall(AggregateFunction.COUNT, null, null, text.indexOf("COUNT")));
        assertThat(s.where()).isEqualTo(new Expr.Binary(BinaryOp.GT,
                new Expr.FieldRef("amount", amount), new Expr.Literal(100L, text.indexOf("100")), amount));
    }

    @ParameterizedTest
    @CsvSource({
        "COUNT(*), COUNT",
        "count(x), COUNT",
        "COUNT(DISTINCT x), COUNT_DISTINCT",
        "Count(distinct x), COUNT_DISTINCT",
        "SUM(x), SUM",
        "AVG(x), AVG",
        "MIN(x), MIN",
        "MAX(x), MAX",
        "STDDEV_POP(x), STDDEV_POP",
        "STDDEV_SAMP(x), STDDEV_SAMP",
        "STDDEV(x), STDDEV_SAMP",
        "stddev(x), STDDEV_SAMP",
        "VAR_POP(x), VAR_POP",
        "VAR_SAMP(x), VAR_SAMP",
        "LAST(x), LAST",
    })
    void parsesEveryAggregate(String agg, AggregateFunction expected) throws QueryException {
        AggregateCall call = parse("SELECT " + agg + " FROM s GROUP BY k [RANGE 1 SECOND]").aggregates().get(0);
        assertThat(call.function()).isEqualTo(expected);
        assertThat(call.position()).isEqualTo(7);
        if (agg.contains("*")) {
            assertThat(call.argument()).isNull();
        } else {
            assertThat(call.argument()).isInstanceOf(Expr.FieldRef.class);
            assertThat(((Expr.FieldRef) call.argument()).name()).isEqualTo("x");
        }
    }

    @Test
    void aggregateArgumentsMayBeExpressions() throws QueryException {
        AggregateCall call = parse("SELECT SUM(amount * 2 + fee) FROM s GROUP BY k [RANGE 1 SECOND]").aggregates().get(0);
        assertThat(call.argument()).isEqualTo(new Expr.Binary(BinaryOp.ADD,
                new Expr.Binary(BinaryOp.MULTIPLY, new Expr.FieldRef("amount", 11), new Expr.Literal(2L, 20), 11),
                new Expr.FieldRef("fee", 24), 11));
        AggregateCall distinct = parse("SELECT COUNT(DISTINCT a) FROM s GROUP BY k [RANGE 1 SECOND]").aggregates().get(0);
        assertThat(distinct.argument()).isEqualTo(new Expr.FieldRef("a", 22));
    }

    @Test
    void aliasesMayBePlainOrQuoted() throws QueryException {
        Statement s = parse("SELECT SUM(x) AS total, AVG(x) as \"Avg Amount\", MAX(x) AS \"from\", MIN(x) AS count, "
                + "LAST(x) AS \"say \"\"hi\"\"\" FROM s GROUP BY k [RANGE 1 SECOND]");
        assertThat(s.aggregates()).extracting(AggregateCall::alias)
                .containsExactly("total", "Avg Amount", "from", "count", "say \"hi\"");
    }

    @Test
    void namesMayBeQuotedEverywhere() throws QueryException {
        String text = "SELECT SUM(\"select\") FROM \"my stream\" WHERE \"group\" = 1 GROUP BY \"where\", k [RANGE 1 SECOND]";
        Statement s = parse(text);
        assertThat(s.stream()).isEqualTo("my stream");
        assertThat(s.groupBy()).containsExactly("where", "k");
        assertThat(s.aggregates().get(0).argument()).isEqualTo(new Expr.FieldRef("select", 11));
        assertThat(((Expr.Binary) s.where()).left()).isEqualTo(new Expr.FieldRef("group", text.indexOf("\"group\"")));
    }

    @Test
    void keywordsAreCaseInsensitive() throws QueryException {
        Statement upper = parse("SELECT COUNT(*) FROM s WHERE a IS NOT NULL AND b NOT IN (1) GROUP BY k [RANGE 5 MINUTES DELAY 1 MINUTE]");
        Statement lower = parse("select count(*) from s where a is not null and b not in (1) group by k [range 5 minutes delay 1 minute]");
        Statement mixed = parse("SeLeCt CoUnT(*) FrOm s WhErE a Is NoT nUlL aNd b NoT iN (1) GrOuP bY k [RaNgE 5 MiNuTeS dElAy 1 MiNuTe]");
        assertThat(lower).isEqualTo(new Statement(upper.aggregates(), "s", upper.where(), upper.groupBy(), upper.window(), lower.text()));
        assertThat(mixed.where()).isEqualTo(upper.where());
        assertThat(mixed.window()).isEqualTo(upper.window());
    }

    @Test
    void identifiersKeepTheirSpelling() throws QueryException {
        Statement s = parse("SELECT SUM(Amount) FROM Payments GROUP BY Card_Id [RANGE 1 SECOND]");
        assertThat(s.stream()).isEqualTo("Payments");
        assertThat(s.groupBy()).containsExactly("Card_Id");
        assertThat(s.aggregates().get(0).argument()).isEqualTo(new Expr.FieldRef("Amount", 11));
    }

    @Test
    void nonReservedWordsAreNames() throws QueryException {
        Statement s = parse("SELECT SUM(range) AS sum FROM count GROUP BY minutes, delay, tumbling [RANGE 1 SECOND]");
        assertThat(s.stream()).isEqualTo("count");
        assertThat(s.groupBy()).containsExactly("minutes", "delay", "tumbling");
    }

    @Test
    void multiFieldGroupBy() throws QueryException {
        assertThat(parse("SELECT COUNT(*) FROM s GROUP BY a, b, c [RANGE 1 SECOND]").groupBy()).containsExactly("a", "b", "c");
    }

    @ParameterizedTest
    @CsvSource({
        "RANGE 5 MINUTES, SLIDING, 300000, 0",
        "RANGE 1 MINUTE, SLIDING, 60000, 0",
        "RANGE 250 MILLISECONDS, SLIDING, 250, 0",
        "RANGE 1 MILLISECOND, SLIDING, 1, 0",
        "RANGE 90 SECONDS, SLIDING, 90000, 0",
        "RANGE 1 SECOND, SLIDING, 1000, 0",
        "RANGE 2 HOURS, SLIDING, 7200000, 0",
        "RANGE 1 HOUR, SLIDING, 3600000, 0",
        "RANGE 180 DAYS, SLIDING, 15552000000, 0",
        "RANGE 1 DAY, SLIDING, 86400000, 0",
        "RANGE 1 WEEK, SLIDING, 604800000, 0",
        "RANGE 3 WEEKS, SLIDING, 1814400000, 0",
        "RANGE 30 DAYS DELAY 1 MINUTE, SLIDING, 2592000000, 60000",
        "RANGE 5 MINUTES DELAY 0 SECONDS, SLIDING, 300000, 0",
        "range 1 hour delay 90 seconds, SLIDING, 3600000, 90000",
        "TUMBLING 1 HOUR, TUMBLING, 3600000, 0",
        "tumbling 15 minutes, TUMBLING, 900000, 0",
        "RANGE UNBOUNDED, UNBOUNDED, 0, 0",
        "range unbounded, UNBOUNDED, 0, 0",
    })
    void parsesEveryWindowForm(String window, WindowSpec.Kind kind, long sizeMs, long delayMs) throws QueryException {
        WindowSpec w = parse("SELECT COUNT(*) FROM s GROUP BY k [" + window + "]").window();
        assertThat(w).isEqualTo(new WindowSpec(kind, sizeMs, delayMs));
    }

    @Test
    void windowAllowsSpacesAndTrailingSemicolon() throws QueryException {
        assertThat(parse("SELECT COUNT(*) FROM s GROUP BY k[ RANGE  5\n MINUTES ] ; ").window()).isEqualTo(WindowSpec.sliding(300_000, 0));
    }

    @Test
    void largestWindowThatFits() throws QueryException {
        assertThat(parse("SELECT COUNT(*) FROM s GROUP BY k [RANGE 9223372036854775807 MILLISECONDS]").window().sizeMs())
                .isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void commentsAndNewlinesAreIgnored() throws QueryException {
        Statement s = parse("-- daily spend\nSELECT SUM(amount) /* in cents */ AS spend\nFROM payments\nGROUP BY card\n[RANGE 1 DAY]");
        assertThat(s.aggregates().get(0).alias()).isEqualTo("spend");
        assertThat(s.window().sizeMs()).isEqualTo(86_400_000L);
    }

    @Test
    void whereIsOptional() throws QueryException {
        assertThat(parse("SELECT COUNT(*) FROM s GROUP BY k [RANGE 1 SECOND]").where()).isNull();
    }

    // ---- expressions -----------------------------------------------------------------------------

    @Test
    void literals() throws QueryException {
        assertThat(literal("42")).isEqualTo(42L);
        assertThat(literal("3.5")).isEqualTo(3.5);
        assertThat(literal("5.")).isEqualTo(5.0);
        assertThat(literal(".25")).isEqualTo(0.25);
        assertThat(literal("1e3")).isEqualTo(1000.0);
        assertThat(literal("2.5E-2")).isEqualTo(0.025);
        assertThat(literal("1E+2")).isEqualTo(100.0);
        assertThat(literal("'it''s'")).isEqualTo("it's");
        assertThat(literal("''")).isEqualTo("");
        assertThat(literal("'日本 é'")).isEqualTo("日本 é");
        assertThat(literal("TRUE")).isEqualTo(true);
        assertThat(literal("false")).isEqualTo(false);
        assertThat(literal("NULL")).isNull();
        assertThat(literal("9223372036854775807")).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void negativeNumbersFoldIntoLiterals() throws QueryException {
        assertThat(compareRight("x = -5")).isEqualTo(new Expr.Literal(-5L, 4));
        assertThat(compareRight("x = -2.5")).isEqualTo(new Expr.Literal(-2.5, 4));
        assertThat(compareRight("x = -9223372036854775808")).isEqualTo(new Expr.Literal(Long.MIN_VALUE, 4));
        assertThat(compareRight("x = - - 5")).isEqualTo(new Expr.Literal(5L, 4));
        assertThat(compareRight("x = -y")).isEqualTo(new Expr.Unary(UnaryOp.NEGATE, new Expr.FieldRef("y", 5), 4));
    }

    private static Object literal(String text) throws QueryException {
        Expr right = compareRight("x = " + text);
        assertThat(right).isInstanceOf(Expr.Literal.class);
        assertThat(right.position()).isEqualTo(4);
        return ((Expr.Literal) right).value();
    }

    private static Expr compareRight(String predicate) throws QueryException {
        // Positions below are relative to the predicate: shift them back.
        Expr e = where(predicate);
        return shift(((Expr.Binary) e).right(), -WHERE_OFFSET);
    }

    static final int WHERE_OFFSET = "SELECT COUNT(*) FROM s WHERE ".length();

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "a = 1 | EQ", "a <> 1 | NE", "a != 1 | NE", "a < 1 | LT", "a <= 1 | LE", "a > 1 | GT", "a >= 1 | GE",
    })
    void comparisonOperators(String predicate, BinaryOp op) throws QueryException {
        assertThat(((Expr.Binary) where(predicate)).op()).isEqualTo(op);
    }

    @Test
    void precedenceFollowsSql() throws QueryException {
        assertThat(show(where("a OR b AND c"))).isEqualTo("(a OR (b AND c))");
        assertThat(show(where("a AND b OR c"))).isEqualTo("((a AND b) OR c)");
        assertThat(show(where("NOT a AND b"))).isEqualTo("((NOT a) AND b)");
        assertThat(show(where("NOT a = 1"))).isEqualTo("(NOT (a = 1))");
        assertThat(show(where("NOT NOT a"))).isEqualTo("(NOT (NOT a))");
        assertThat(show(where("a + b * c = d - e / f"))).isEqualTo("((a + (b * c)) = (d - (e / f)))");
        assertThat(show(where("a - b - c > 0"))).isEqualTo("(((a - b) - c) > 0)");
        assertThat(show(where("a / b / c > 0"))).isEqualTo("(((a / b) / c) > 0)");
        assertThat(show(where("(a + b) * c > 0"))).isEqualTo("(((a + b) * c) > 0)");
        assertThat(show(where("-a * b > 0"))).isEqualTo("(((-a) * b) > 0)");
        assertThat(show(where("a = 1 OR b = 2 AND NOT c = 3"))).isEqualTo("((a = 1) OR ((b = 2) AND (NOT (c = 3))))");
        assertThat(show(where("(a OR b) AND c"))).isEqualTo("((a OR b) AND c)");
        assertThat(show(where("a BETWEEN 1 AND 2 AND b"))).isEqualTo("((a BETWEEN 1 AND 2) AND b)");
        assertThat(show(where("a + 1 BETWEEN b - 1 AND c * 2"))).isEqualTo("((a + 1) BETWEEN (b - 1) AND (c * 2))");
        assertThat(show(where("a IN (1, 2) OR b IS NULL"))).isEqualTo("((a IN (1, 2)) OR (b IS NULL))");
        assertThat(show(where("a LIKE 'x%' AND b NOT LIKE '_'"))).isEqualTo("((a LIKE 'x%') AND (b NOT LIKE '_'))");
        assertThat(show(where("online"))).isEqualTo("online");
        assertThat(show(where("(((online)))"))).isEqualTo("online");
    }

    @Test
    void predicates() throws QueryException {
        assertThat(where("a IS NULL")).isEqualTo(new Expr.IsNull(new Expr.FieldRef("a", WHERE_OFFSET), false, WHERE_OFFSET));
        assertThat(where("a IS NOT NULL")).isEqualTo(new Expr.IsNull(new Expr.FieldRef("a", WHERE_OFFSET), true, WHERE_OFFSET));
        assertThat(show(where("a IN ('x', NULL, -1, 2.5)"))).isEqualTo("(a IN ('x', NULL, -1, 2.5))");
        assertThat(((Expr.InList) where("a NOT IN (1)")).negated()).isTrue();
        assertThat(((Expr.InList) where("a IN (1)")).negated()).isFalse();
        assertThat(((Expr.Between) where("a NOT BETWEEN 1 AND 2")).negated()).isTrue();
        assertThat(((Expr.Between) where("a BETWEEN 1 AND 2")).negated()).isFalse();
        Expr.Like like = (Expr.Like) where("a NOT LIKE 'a''%'");
        assertThat(like.negated()).isTrue();
        assertThat(like.pattern()).isEqualTo(new Expr.Literal("a'%", WHERE_OFFSET + 11));
    }

    @Test
    void positionsPointAtTheStartOfEachNode() throws QueryException {
        String text = "SELECT COUNT(*), MAX(x) FROM s WHERE NOT (a + 1) * b > 2 AND c IN (1) GROUP BY k [RANGE 1 SECOND]";
        Statement s = parse(text);
        assertThat(s.aggregates().get(1).position()).isEqualTo(text.indexOf("MAX"));
        Expr.Binary and = (Expr.Binary) s.where();
        assertThat(and.position()).isEqualTo(text.indexOf("NOT"));
        Expr.Unary not = (Expr.Unary) and.left();
        assertThat(not.position()).isEqualTo(text.indexOf("NOT"));
        Expr.Binary gt = (Expr.Binary) not.operand();
        assertThat(gt.position()).isEqualTo(text.indexOf("(a"));
        Expr.Binary mul = (Expr.Binary) gt.left();
        assertThat(mul.position()).isEqualTo(text.indexOf("(a"));
        assertThat(((Expr.Binary) mul.left()).position()).isEqualTo(text.indexOf("a +"));
        assertThat(mul.right().position()).isEqualTo(text.indexOf("b >"));
        assertThat(gt.right().position()).isEqualTo(text.indexOf("2 AND"));
        Expr.InList in = (Expr.InList) and.right();
        assertThat(in.position()).isEqualTo(text.indexOf("c IN"));
        assertThat(in.values().get(0).position()).isEqualTo(text.lastIndexOf("1)"));
    }

    @Test
    void longOperatorChainsParse() throws QueryException {
        String chain = String.join(" OR ", java.util.Collections.nCopies(300, "a = 1"));
        assertThat(where(chain)).isInstanceOf(Expr.Binary.class);
        String list = String.join(", ", java.util.Collections.nCopies(5000, "7"));
        assertThat(((Expr.InList) where("a IN (" + list + ")")).values()).hasSize(5000);
    }

    /** A fully parenthesised rendering for precedence checks. */
    static String show(Expr e) {
        return switch (e) {
            case Expr.FieldRef f -> f.name();
            case Expr.Literal l -> l.value() == null ? "NULL" : l.value() instanceof String s ? "'" + s + "'" : String.valueOf(l.value());
            case Expr.Unary u -> "(" + (u.op() == UnaryOp.NOT ? "NOT " : "-") + show(u.operand()) + ")";
            case Expr.Binary b -> "(" + show(b.left()) + " " + b.op().symbol() + " " + show(b.right()) + ")";
            case Expr.InList i -> "(" + show(i.operand()) + (i.negated() ? " NOT IN (" : " IN (")
                    + String.join(", ", i.values().stream().map(QueryParserTest::show).toList()) + "))";
            case Expr.Between b -> "(" + show(b.operand()) + (b.negated() ? " NOT BETWEEN " : " BETWEEN ")
                    + show(b.low()) + " AND " + show(b.high()) + ")";
            case Expr.IsNull n -> "(" + show(n.operand()) + (n.negated() ? " IS NOT NULL)" : " IS NULL)");
            case Expr.Like l -> "(" + show(l.operand()) + (l.negated() ? " NOT LIKE " : " LIKE ") + show(l.pattern()) + ")";
        };
    }

    /** {@code e} with every position moved by {@code delta}. */
    static Expr shift(Expr e, int delta) {
        return switch (e) {
            case Expr.FieldRef f -> new Expr.FieldRef(f.name(), f.position() + delta);
            case Expr.Literal l -> new Expr.Literal(l.value(), l.position() + delta);
            case Expr.Unary u -> new Expr.Unary(u.op(), shift(u.operand(), delta), u.position() + delta);
            case Expr.Binary b -> new Expr.Binary(b.op(), shift(b.left(), delta), shift(b.right(), delta), b.position() + delta);
            case Expr.InList i -> new Expr.InList(shift(i.operand(), delta),
                    i.values().stream().map(v -> shift(v, delta)).toList(), i.negated(), i.position() + delta);
            case Expr.Between b -> new Expr.Between(shift(b.operand(), delta), shift(b.low(), delta), shift(b.high(), delta),
                    b.negated(), b.position() + delta);
            case Expr.IsNull n -> new Expr.IsNull(shift(n.operand(), delta), n.negated(), n.position() + delta);
            case Expr.Like l -> new Expr.Like(shift(l.operand(), delta), shift(l.pattern(), delta), l.negated(), l.position() + delta);
        };
    }
}
