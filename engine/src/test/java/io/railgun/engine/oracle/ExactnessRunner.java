package io.railgun.engine.oracle;

import io.railgun.engine.reply.StreamReply;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs one {@link StreamCase} through an engine and the {@link OracleStream} side by side and
 * compares every reply (duplicate and dropped flags, event id, the metric set and each value by
 * {@link Tolerance}) and every point read. Stops at the first event with a mismatch: later replies
 * would mostly repeat it.
 */
public final class ExactnessRunner {
    private final EngineUnderTest.Harness harness;
    private final Coverage coverage;

    /** @param coverage where to count compared values, or null */
    public ExactnessRunner(EngineUnderTest.Harness harness, Coverage coverage) {
        this.harness = harness;
        this.coverage = coverage;
    }

    /** The outcome: mismatches (empty when exact) and a readable account of the first one. */
    public record Result(List<Mismatch> mismatches, String firstMismatchContext) {
        public boolean exact() {
            return mismatches.isEmpty();
        }

        public Mismatch first() {
            return mismatches.isEmpty() ? null : mismatches.get(0);
        }
    }

    public Result run(StreamCase c) {
        return run(c, false);
    }

    public Result run(StreamCase c, boolean freshRowBuffers) {
        OracleStream oracle = new OracleStream(c.definition(), c.minDedupHorizonMs(), harness.router(c));
        List<Mismatch> mismatches = new ArrayList<>();
        EngineUnderTest engine;
        try {
            engine = harness.open(c, freshRowBuffers);
        } catch (Throwable t) {
            mismatches.add(new Mismatch(-1, null, "exception open", stackTrace(t)));
            return new Result(mismatches, "");
        }
        try (engine) {
            for (MetricQuery s : c.statements()) {
                String sql = s.sql(c.definition().name());
                List<String> expected = oracle.addStatement(s, true);
                List<String> actual;
                try {
                    actual = engine.addStatement(sql);
                } catch (Throwable t) {
                    mismatches.add(new Mismatch(-1, null, "statement rejected", sql + "\n    -> " + t));
                    return new Result(mismatches, "statement: " + sql + "\n" + stackTrace(t));
                }
                if (!expected.equals(actual)) {
                    mismatches.add(new Mismatch(-1, null, "metric names", sql + "\n    expected " + expected + " but was " + actual));
                    return new Result(mismatches, "");
                }
            }
            int removal = 0;
            for (int i = 0; i < c.events().size(); i++) {
                while (removal < c.removals().size() && c.removals().get(removal).beforeEvent() == i) {
                    String name = c.removals().get(removal++).metric();
                    boolean expected = oracle.removeMetric(name);
                    boolean actual;
                    try {
                        actual = engine.removeMetric(name);
                    } catch (Throwable t) {
                        mismatches.add(new Mismatch(i, name, "exception removeMetric", stackTrace(t)));
                        return new Result(mismatches, "");
                    }
                    if (expected != actual) {
                        mismatches.add(new Mismatch(i, name, "removeMetric", "expected " + expected + " but was " + actual));
                        return new Result(mismatches, "");
                    }
                }
                Map<String, Object> event = c.events().get(i);
                OracleReply expected = oracle.process(event);
                StreamReply actual;
                try {
                    actual = engine.process(event);
                } catch (Throwable t) {
                    mismatches.add(new Mismatch(i, null, "exception process " + t.getClass().getSimpleName(), stackTrace(t)));
                    return new Result(mismatches, context(c, oracle, event, expected, null, null));
                }
                compareReply(i, expected, actual, mismatches, oracle);
                if (coverage != null) {
                    coverage.reply(expected);
                }
                if (!mismatches.isEmpty()) {
                    String metric = mismatches.get(0).metric();
                    return new Result(mismatches, context(c, oracle, event, expected, actual, metric));
                }
            }
            int n = c.events().size();
            for (StreamCase.Read read : c.reads()) {
                Optional<ExpectedValue> expected = oracle.read(read.metric(), read.keyRow());
                if (expected.isEmpty()) {
                    continue; // that task has no stream time yet: the value is not defined
                }
                Object actual;
                try {
                    actual = engine.read(read.metric(), read.keyRow());
                } catch (Throwable t) {
                    mismatches.add(new Mismatch(n, read.metric(), "exception read", "key row " + show(read.keyRow()) + "\n" + stackTrace(t)));
                    return new Result(mismatches, "");
                }
                String why = Tolerance.check(expected.get(), actual);
                if (coverage != null) {
                    coverage.value(expected.get(), oracle.queryOf(read.metric()).window().label(), actual, true);
                }
                if (why != null) {
                    ExpectedValue e = expected.get();
                    mismatches.add(new Mismatch(n, read.metric(), "read " + e.kind() + "/" + oracle.queryOf(read.metric()).window().label(),
                            why + " for key row " + show(read.keyRow())));
                    return new Result(mismatches, String.join("\n", oracle.explain(read.metric(), read.keyRow(), c.timeOrigin())));
                }
            }
        } catch (Throwable t) {
            mismatches.add(new Mismatch(-1, null, "exception harness " + t.getClass().getSimpleName(), stackTrace(t)));
            return new Result(mismatches, "");
        } finally {
            if (coverage != null && mismatches.isEmpty()) {
                coverage.caseDone(c.events().size());
            }
        }
        return new Result(mismatches, "");
    }

    private void compareReply(int i, OracleReply expected, StreamReply actual, List<Mismatch> out, OracleStream oracle) {
        if (actual == null) {
            out.add(new Mismatch(i, null, "null reply", "process returned null"));
            return;
        }
        String id = String.valueOf(expected.eventId());
        if (!id.equals(actual.eventId())) {
            out.add(new Mismatch(i, null, "eventId", "expected " + id + " but was " + actual.eventId()));
        }
        if (expected.duplicate() != actual.duplicate()) {
            out.add(new Mismatch(i, null, "flag duplicate", "expected duplicate=" + expected.duplicate() + " but was " + actual.duplicate()
                    + "; tasks " + expected.tasks()));
        }
        if (expected.droppedLate() != actual.droppedLate()) {
            out.add(new Mismatch(i, null, "flag droppedLate", "expected droppedLate=" + expected.droppedLate() + " but was "
                    + actual.droppedLate() + "; tasks " + expected.tasks()));
        }
        Map<String, Object> metrics = actual.metrics();
        if (metrics == null) {
            out.add(new Mismatch(i, null, "metric set", "metrics map is null"));
            return;
        }
        List<String> expectedNames = List.copyOf(expected.metrics().keySet());
        List<String> actualNames = List.copyOf(metrics.keySet());
        if (!expectedNames.equals(actualNames)) {
            boolean sameSet = expectedNames.size() == actualNames.size() && actualNames.containsAll(expectedNames);
            out.add(new Mismatch(i, null, sameSet ? "metric order" : "metric set", "expected " + expectedNames + " but was " + actualNames));
        }
        for (Map.Entry<String, ExpectedValue> e : expected.metrics().entrySet()) {
            if (!metrics.containsKey(e.getKey())) {
                continue;
            }
            Object value = metrics.get(e.getKey());
            String why = Tolerance.check(e.getValue(), value);
            if (coverage != null) {
                coverage.value(e.getValue(), oracle.queryOf(e.getKey()).window().label(), value, false);
            }
            if (why != null) {
                out.add(new Mismatch(i, e.getKey(), "value " + e.getValue().kind() + "/" + oracle.queryOf(e.getKey()).window().label(), why));
            }
        }
    }

    private String context(StreamCase c, OracleStream oracle, Map<String, Object> event, OracleReply expected, StreamReply actual, String metric) {
        StringBuilder sb = new StringBuilder();
        sb.append("event ").append(show(event)).append('\n');
        sb.append("oracle tasks: ");
        for (TaskOutcome t : expected.tasks()) {
            sb.append(t.partitioner()).append('#').append(t.partition()).append(' ').append(t.status())
                    .append(" at +").append(t.timestamp() - c.timeOrigin()).append(" T=+").append(t.streamTime() - c.timeOrigin())
                    .append(" horizon=").append(t.horizonMs()).append("ms; ");
        }
        sb.append('\n');
        sb.append("expected: duplicate=").append(expected.duplicate()).append(" droppedLate=").append(expected.droppedLate()).append(' ');
        StringBuilder values = new StringBuilder();
        expected.metrics().forEach((k, v) -> values.append(k).append('=').append(SqlValues.show(v.value())).append(", "));
        sb.append('{').append(values).append("}\n");
        if (actual != null) {
            sb.append("actual:   duplicate=").append(actual.duplicate()).append(" droppedLate=").append(actual.droppedLate()).append(' ');
            StringBuilder got = new StringBuilder();
            actual.metrics().forEach((k, v) -> got.append(k).append('=').append(SqlValues.show(v)).append(", "));
            sb.append('{').append(got).append("}\n");
        }
        if (metric != null) {
            sb.append("oracle window of ").append(metric).append(" (").append(oracle.aggregateOf(metric).kind()).append("):\n");
            sb.append(String.join("\n", oracle.explain(metric, event, c.timeOrigin()))).append('\n');
        }
        return sb.toString();
    }

    static String show(Map<String, Object> row) {
        StringBuilder sb = new StringBuilder("{");
        row.forEach((k, v) -> sb.append(k).append('=').append(SqlValues.show(v)).append(", "));
        return sb.append('}').toString();
    }

    static String stackTrace(Throwable t) {
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        String s = w.toString();
        return s.length() > 4000 ? s.substring(0, 4000) + "\n..." : s;
    }
}
