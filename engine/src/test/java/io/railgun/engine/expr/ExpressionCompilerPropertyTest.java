package io.railgun.engine.expr;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.query.Expr;
import io.railgun.engine.query.QueryException;
import io.railgun.engine.query.QueryParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.constraints.IntRange;

/** Compiled evaluation agrees with {@link ReferenceInterpreter} on random expressions and rows with nulls. */
class ExpressionCompilerPropertyTest {

    @Property(tries = 1500)
    void compiledEvaluationMatchesTheReference(@ForAll long seed, @ForAll @IntRange(min = 0, max = 5) int depth) throws QueryException {
        RandomExpressions gen = new RandomExpressions(seed);
        Expr expr = depth % 2 == 0 ? gen.bool(depth) : gen.of(RandomExpressions.Kind.values()[(int) Math.floorMod(seed, 4)], depth);
        String text = RandomExpressions.render(expr);
        Evaluator direct = ExpressionCompiler.compile(expr, Rows.SCHEMA, text);
        String statement = "SELECT SUM(" + text + ") FROM s GROUP BY l [RANGE 1 SECOND]";
        Expr parsed = QueryParser.parse(statement).aggregates().get(0).argument();
        Evaluator viaParser = ExpressionCompiler.compile(parsed, Rows.SCHEMA, statement);
        assertThat(viaParser.type()).as(text).isEqualTo(direct.type());
        List<Map<String, Object>> rows = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            rows.add(gen.row());
        }
        for (Map<String, Object> values : rows) {
            EventRow row = Rows.row(values);
            Object expected = ReferenceInterpreter.eval(expr, values);
            Object actual = Rows.value(direct, row);
            assertThat(actual).as("%s on %s", text, values).isEqualTo(expected);
            assertThat(Rows.value(viaParser, row)).as("parsed %s on %s", text, values).isEqualTo(expected);
            if (expected != null) {
                assertThat(typeOf(expected)).as("type of %s", text).isEqualTo(direct.type());
            }
            Statistics.collect(expected == null ? "NULL" : typeOf(expected));
        }
    }

    @Property(tries = 3000)
    void likeMatchesTheReference(@ForAll long seed) throws QueryException {
        java.util.Random random = new java.util.Random(seed);
        String alphabet = "aab%_é日\uD83D\uDE00";
        int[] cps = alphabet.codePoints().toArray();
        String pattern = randomString(random, cps, 6);
        LikePattern compiled = LikePattern.compile(pattern);
        int[] textCps = "aabé日\uD83D\uDE00".codePoints().toArray();
        for (int i = 0; i < 20; i++) {
            String value = randomString(random, textCps, 8);
            byte[] bytes = ("xx" + value + "yy").getBytes(java.nio.charset.StandardCharsets.UTF_8);
            boolean expected = ReferenceInterpreter.like(value, pattern);
            assertThat(compiled.matches(bytes, 2, bytes.length - 2)).as("'%s' LIKE '%s'", value, pattern).isEqualTo(expected);
        }
    }

    private static String randomString(java.util.Random random, int[] cps, int maxLength) {
        StringBuilder sb = new StringBuilder();
        int n = random.nextInt(maxLength + 1);
        for (int i = 0; i < n; i++) {
            sb.appendCodePoint(cps[random.nextInt(cps.length)]);
        }
        return sb.toString();
    }

    private static ValueType typeOf(Object v) {
        return switch (v) {
            case Long l -> ValueType.LONG;
            case Double d -> ValueType.DOUBLE;
            case Boolean b -> ValueType.BOOLEAN;
            default -> ValueType.STRING;
        };
    }
}
