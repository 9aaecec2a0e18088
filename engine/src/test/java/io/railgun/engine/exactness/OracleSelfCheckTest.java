package io.railgun.engine.exactness;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.oracle.AggregateKind;
import io.railgun.engine.oracle.ExactAggregates;
import io.railgun.engine.oracle.MetricQuery;
import io.railgun.engine.oracle.OracleReply;
import io.railgun.engine.oracle.OracleStream;
import io.railgun.engine.oracle.PaymentCaseGenerator;
import io.railgun.engine.oracle.SqlExpr;
import io.railgun.engine.oracle.SqlInterpreter;
import io.railgun.engine.oracle.SqlValues;
import io.railgun.engine.oracle.StreamCase;
import io.railgun.engine.oracle.WindowDef;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Checks on the oracle itself: its fast window lookup against a full scan, and its SQL building blocks. */
class OracleSelfCheckTest {

    @Test
    void indexedWindowsGiveTheSameRepliesAsAFullScan() {
        OracleStream.Router router = (event, p, n) -> Math.floorMod(String.valueOf(event.get(p)).hashCode(), n);
        for (long seed = 1; seed <= 40; seed++) {
            StreamCase c = PaymentCaseGenerator.generate(seed, PaymentCaseGenerator.Settings.defaults().withEvents(50, 150));
            OracleStream fast = new OracleStream(c.definition(), c.minDedupHorizonMs(), router);
            OracleStream slow = new OracleStream(c.definition(), c.minDedupHorizonMs(), router).naive(true);
            for (MetricQuery q : c.statements()) {
                fast.addStatement(q, true);
                slow.addStatement(q, true);
            }
            for (Map<String, Object> e : c.events()) {
                OracleReply a = fast.process(e);
                OracleReply b = slow.process(e);
                assertThat(a.tasks()).isEqualTo(b.tasks());
                a.metrics().forEach((name, v) -> assertThat(v.value()).as("seed %d %s", c.seed(), name)
                        .isEqualTo(b.metrics().get(name).value()));
            }
        }
    }

    @Test
    void windowIntervalMatchesTheSpecFormula() {
        Random r = new Random(7);
        List<WindowDef> windows = List.of(WindowDef.sliding(1), WindowDef.sliding(300_000), WindowDef.sliding(10, 5),
                WindowDef.sliding(86_400_000, 3_600_000), WindowDef.tumbling(1), WindowDef.tumbling(3_600_000), WindowDef.tumbling(7),
                WindowDef.unbounded());
        for (int i = 0; i < 200_000; i++) {
            WindowDef w = windows.get(r.nextInt(windows.size()));
            long streamTime = r.nextInt(2_000_000_000) - 1_000_000_000L;
            long t = streamTime - (r.nextBoolean() ? r.nextInt(20) : r.nextInt(100_000_000)) + (r.nextInt(10) == 0 ? 3 : 0);
            boolean interval = t > w.lowerExclusive(streamTime) && t <= w.upperInclusive(streamTime);
            assertThat(interval).as("%s t=%d T=%d", w, t, streamTime).isEqualTo(w.contains(t, streamTime));
        }
    }

    @Test
    void threeValuedLogicInAndLike() {
        Map<String, Object> row = new HashMap<>();
        row.put("a", 5L);
        row.put("s", "m\uD83D\uDE00");
        SqlExpr a = SqlExpr.field("a");
        SqlExpr nul = SqlExpr.field("missing");
        assertThat(eval(new SqlExpr.In(a, List.of(SqlExpr.literal(1L), SqlExpr.literal(null)), false), row)).isNull();
        assertThat(eval(new SqlExpr.In(a, List.of(SqlExpr.literal(5.0), SqlExpr.literal(null)), false), row)).isEqualTo(true);
        assertThat(eval(new SqlExpr.In(a, List.of(SqlExpr.literal(1L), SqlExpr.literal(null)), true), row)).isNull();
        assertThat(eval(new SqlExpr.Logical(true, SqlExpr.literal(false), new SqlExpr.Comparison(SqlExpr.ComparisonOp.EQ, nul, a)), row))
                .isEqualTo(false);
        assertThat(eval(new SqlExpr.Logical(false, SqlExpr.literal(true), new SqlExpr.Comparison(SqlExpr.ComparisonOp.EQ, nul, a)), row))
                .isEqualTo(true);
        assertThat(eval(new SqlExpr.Not(new SqlExpr.Comparison(SqlExpr.ComparisonOp.EQ, nul, a)), row)).isNull();
        assertThat(eval(new SqlExpr.Like(SqlExpr.field("s"), "m_", false), row)).isEqualTo(true);
        assertThat(eval(new SqlExpr.Like(SqlExpr.field("s"), "m__", false), row)).isEqualTo(false);
        assertThat(eval(new SqlExpr.Like(SqlExpr.field("s"), "%", false), row)).isEqualTo(true);
        assertThat(eval(new SqlExpr.Arithmetic(SqlExpr.ArithmeticOp.DIVIDE, SqlExpr.literal(-7L), SqlExpr.literal(2L)), row)).isEqualTo(-3L);
        assertThat(eval(new SqlExpr.Arithmetic(SqlExpr.ArithmeticOp.DIVIDE, SqlExpr.literal(1.0), SqlExpr.literal(-0.0)), row)).isNull();
        assertThat(eval(new SqlExpr.Between(a, SqlExpr.literal(5L), SqlExpr.literal(5.0), false), row)).isEqualTo(true);
        assertThat(SqlValues.compareCodePoints("\uFF5A", "\uD83D\uDE00")).isNegative(); // Java's compareTo says positive
    }

    @Test
    void exactAggregatesOnKnownValues() {
        List<Object> xs = Arrays.asList(2.0, null, 4.0, 4.0);
        assertThat(ExactAggregates.compute(AggregateKind.VAR_POP, xs, 0).value()).isEqualTo(8.0 / 9);
        assertThat(ExactAggregates.compute(AggregateKind.VAR_SAMP, xs, 0).value()).isEqualTo(4.0 / 3);
        assertThat(ExactAggregates.compute(AggregateKind.COUNT, xs, 0).value()).isEqualTo(3L);
        assertThat(ExactAggregates.compute(AggregateKind.COUNT_STAR, xs, 0).value()).isEqualTo(4L);
        assertThat(ExactAggregates.compute(AggregateKind.STDDEV_SAMP, Arrays.asList(null, 3.0), 0).value()).isNull();
        assertThat(ExactAggregates.compute(AggregateKind.STDDEV_POP, Arrays.asList(null, 3.0), 0).value()).isEqualTo(0.0);
        assertThat(ExactAggregates.compute(AggregateKind.SUM, Arrays.asList(0.1, 0.2, -0.3), 0).value()).isEqualTo(2.7755575615628914E-17);
        assertThat(ExactAggregates.compute(AggregateKind.SUM, Arrays.asList(Long.MAX_VALUE, 1L), 0).value()).isEqualTo(Long.MIN_VALUE);
        assertThat(ExactAggregates.compute(AggregateKind.AVG, Arrays.asList(Long.MAX_VALUE, Long.MAX_VALUE), 0).value())
                .isEqualTo((double) Long.MAX_VALUE);
        assertThat(ExactAggregates.compute(AggregateKind.COUNT_DISTINCT, Arrays.asList(0.0, -0.0, null, 1.0), 0).value()).isEqualTo(2L);
        assertThat(ExactAggregates.compute(AggregateKind.MAX, Arrays.asList("\uFF5A", "\uD83D\uDE00"), 0).value()).isEqualTo("\uD83D\uDE00");
        assertThat(ExactAggregates.compute(AggregateKind.LAST, Arrays.asList(1.0, 2.0, null), 0).value()).isEqualTo(2.0);
        assertThat(ExactAggregates.compute(AggregateKind.MIN, Arrays.asList(true, false, null), 0).value()).isEqualTo(false);
    }

    private static Object eval(SqlExpr e, Map<String, Object> row) {
        return SqlInterpreter.eval(e, row::get);
    }
}
