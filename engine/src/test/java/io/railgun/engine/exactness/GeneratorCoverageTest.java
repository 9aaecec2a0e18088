package io.railgun.engine.exactness;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.oracle.AggregateSpec;
import io.railgun.engine.oracle.Coverage;
import io.railgun.engine.oracle.Durations;
import io.railgun.engine.oracle.ExpectedValue;
import io.railgun.engine.oracle.MetricQuery;
import io.railgun.engine.oracle.OracleReply;
import io.railgun.engine.oracle.OracleStream;
import io.railgun.engine.oracle.PaymentCaseGenerator;
import io.railgun.engine.oracle.SqlExpr;
import io.railgun.engine.oracle.StreamCase;
import io.railgun.engine.oracle.TaskStatus;
import io.railgun.engine.oracle.WindowDef;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The generators, run through the oracle alone (no engine), over fixed seeds: every aggregate and
 * window kind gets non-null values from several inputs next to expired events, every operator
 * appears in filters, windows span 1 ms to hundreds of days, and duplicates, drops and rewrites
 * happen. Guards the exactness properties against a generator that quietly tests nothing.
 */
class GeneratorCoverageTest {
    private static final int CASES = 150;

    @Test
    void generatedCasesExerciseEveryAggregateWindowAndOperator() {
        Coverage coverage = new Coverage();
        Set<String> seen = new TreeSet<>();
        for (long seed = 1; seed <= CASES; seed++) {
            StreamCase c = PaymentCaseGenerator.generate(seed, PaymentCaseGenerator.Settings.defaults());
            seen.add("policy " + c.definition().lateEvents());
            seen.add("partitions " + c.definition().partitions());
            seen.add("partitioners " + c.definition().partitioners().size());
            OracleStream oracle = new OracleStream(c.definition(), c.minDedupHorizonMs(),
                    (event, p, n) -> Math.floorMod(String.valueOf(event.get(p)).hashCode(), n));
            for (MetricQuery q : c.statements()) {
                oracle.addStatement(q, true);
                WindowDef w = q.window();
                seen.add("window " + w.label());
                if (w.kind() != WindowDef.Kind.UNBOUNDED && w.sizeMs() <= 10) {
                    seen.add("tiny window");
                }
                if (w.sizeMs() >= 100 * Durations.DAY) {
                    seen.add("window >= 100 days");
                }
                if (q.where() != null) {
                    operators(q.where(), seen);
                }
                for (AggregateSpec a : q.aggregates()) {
                    seen.add("aggregate " + a.kind());
                    if (a.argument() != null) {
                        operators(a.argument(), seen);
                    }
                }
            }
            for (Map<String, Object> e : c.events()) {
                OracleReply r = oracle.process(e);
                coverage.reply(r);
                if (r.duplicate()) {
                    seen.add("duplicate");
                }
                if (r.droppedLate()) {
                    seen.add("dropped");
                }
                if (r.tasks().stream().anyMatch(t -> t.status() == TaskStatus.REWRITTEN)) {
                    seen.add("rewritten");
                }
                for (Map.Entry<String, ExpectedValue> v : r.metrics().entrySet()) {
                    coverage.value(v.getValue(), oracle.queryOf(v.getKey()).window().label(), v.getValue().value(), false);
                }
            }
            coverage.caseDone(c.events().size());
        }
        System.out.println("[generator coverage, oracle only] " + seen + "\n" + coverage.report());
        assertThat(coverage.gaps()).isEmpty();
        assertThat(seen).contains("policy DROP", "policy REWRITE", "partitions 1", "partitions 3", "partitioners 1", "partitioners 2",
                "window SLIDING", "window DELAYED", "window TUMBLING", "window UNBOUNDED", "tiny window", "window >= 100 days",
                "duplicate", "dropped", "rewritten",
                "+", "-", "*", "/", "=", "<>", "<", "<=", ">", ">=", "AND", "OR", "NOT", "negate", "IN", "NOT IN", "IN with NULL",
                "BETWEEN", "NOT BETWEEN", "IS NULL", "IS NOT NULL", "LIKE", "NOT LIKE", "NULL literal");
        for (var kind : io.railgun.engine.oracle.AggregateKind.values()) {
            assertThat(seen).contains("aggregate " + kind);
        }
    }

    private static void operators(SqlExpr e, Set<String> seen) {
        switch (e) {
            case SqlExpr.Field f -> { }
            case SqlExpr.Literal l -> {
                if (l.value() == null) {
                    seen.add("NULL literal");
                }
            }
            case SqlExpr.Negate n -> {
                seen.add("negate");
                operators(n.operand(), seen);
            }
            case SqlExpr.Not n -> {
                seen.add("NOT");
                operators(n.operand(), seen);
            }
            case SqlExpr.Arithmetic a -> {
                seen.add(switch (a.op()) {
                    case ADD -> "+";
                    case SUBTRACT -> "-";
                    case MULTIPLY -> "*";
                    case DIVIDE -> "/";
                });
                operators(a.left(), seen);
                operators(a.right(), seen);
            }
            case SqlExpr.Comparison c -> {
                seen.add(switch (c.op()) {
                    case EQ -> "=";
                    case NE -> "<>";
                    case LT -> "<";
                    case LE -> "<=";
                    case GT -> ">";
                    case GE -> ">=";
                });
                operators(c.left(), seen);
                operators(c.right(), seen);
            }
            case SqlExpr.Logical l -> {
                seen.add(l.and() ? "AND" : "OR");
                operators(l.left(), seen);
                operators(l.right(), seen);
            }
            case SqlExpr.In in -> {
                seen.add(in.negated() ? "NOT IN" : "IN");
                if (in.values().stream().anyMatch(v -> v instanceof SqlExpr.Literal l && l.value() == null)) {
                    seen.add("IN with NULL");
                }
                operators(in.operand(), seen);
            }
            case SqlExpr.Between b -> {
                seen.add(b.negated() ? "NOT BETWEEN" : "BETWEEN");
                operators(b.operand(), seen);
            }
            case SqlExpr.IsNull n -> {
                seen.add(n.negated() ? "IS NOT NULL" : "IS NULL");
                operators(n.operand(), seen);
            }
            case SqlExpr.Like l -> {
                seen.add(l.negated() ? "NOT LIKE" : "LIKE");
                operators(l.operand(), seen);
            }
        }
    }
}
