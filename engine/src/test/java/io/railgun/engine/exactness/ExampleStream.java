package io.railgun.engine.exactness;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.local.LocalStream;
import io.railgun.engine.reply.StreamReply;
import io.railgun.engine.oracle.OracleReply;
import io.railgun.engine.oracle.OracleSql;
import io.railgun.engine.oracle.OracleStream;
import io.railgun.engine.oracle.Rows;
import io.railgun.engine.oracle.SqlValues;
import io.railgun.engine.query.QueryException;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.task.TaskOptions;
import java.time.Instant;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A hand-driven payments stream for the named examples: every event goes to LocalStream and to the
 * oracle; {@link Step#expect} checks an explicit value against both (the oracle first, so a wrong
 * oracle is reported as such).
 */
final class ExampleStream implements AutoCloseable {
    /** Time origin of the examples; event times are given as ms after it. */
    static final long T0 = 1_700_000_000_000L;

    final StreamDefinition definition;
    private final LocalStream engine;
    private final OracleStream oracle;
    private int nextId;

    ExampleStream(long latenessMs, LateEventPolicy policy, long minDedupHorizonMs, List<String> partitioners, int partitions) {
        LinkedHashMap<String, FieldType> fields = new LinkedHashMap<>();
        fields.put("id", FieldType.STRING);
        fields.put("ts", FieldType.TIMESTAMP);
        fields.put("card", FieldType.STRING);
        fields.put("merchant", FieldType.STRING);
        fields.put("amount", FieldType.DOUBLE);
        fields.put("qty", FieldType.LONG);
        fields.put("country", FieldType.STRING);
        fields.put("balance", FieldType.DOUBLE);
        definition = new StreamDefinition("payments", Schema.of(fields), "id", "ts", partitioners, partitions, latenessMs, policy);
        engine = new LocalStream(definition, new TaskOptions(InstantSource.fixed(Instant.ofEpochMilli(T0)), minDedupHorizonMs));
        oracle = new OracleStream(definition, minDedupHorizonMs, (event, p, n) ->
                LocalStream.partitionOf(Rows.fresh(definition.schema(), event), definition.schema().field(p), n));
    }

    /** One partition, partitioned by card, lateness as given, a one-hour minimum dedup horizon. */
    static ExampleStream byCard(long latenessMs, LateEventPolicy policy) {
        return new ExampleStream(latenessMs, policy, TaskOptions.DEFAULT_MIN_DEDUP_HORIZON_MS, List.of("card"), 1);
    }

    List<String> add(String sql) throws QueryException {
        List<String> names = engine.addStatement(sql);
        oracle.addStatement(OracleSql.parse(sql, names), true);
        return names;
    }

    /** Removes a metric from both; returns the engine's answer after checking it against the oracle's. */
    boolean remove(String metric) {
        boolean expected = oracle.removeMetric(metric);
        boolean actual = engine.removeMetric(metric);
        assertThat(actual).as("removeMetric(%s)", metric).isEqualTo(expected);
        return actual;
    }

    /** Sends a new event at {@code T0 + atMs}; {@code fieldValues} alternates field name and value. */
    Step send(long atMs, Object... fieldValues) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("id", "e" + nextId++);
        e.put("ts", T0 + atMs);
        for (int i = 0; i < fieldValues.length; i += 2) {
            e.put((String) fieldValues[i], fieldValues[i + 1]);
        }
        return send(e);
    }

    /** Sends exactly the same event again. */
    Step resend(Step earlier) {
        return send(earlier.event());
    }

    private Step send(Map<String, Object> e) {
        OracleReply expected = oracle.process(e);
        StreamReply actual = engine.process(Rows.fresh(definition.schema(), e));
        return new Step(e, actual, expected);
    }

    Object read(String metric, Object... keyValues) {
        Map<String, Object> key = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            key.put((String) keyValues[i], keyValues[i + 1]);
        }
        Object expected = oracle.read(metric, key).orElseThrow().value();
        Object actual = engine.read(metric, Rows.fresh(definition.schema(), key));
        assertThat(same(expected, actual)).as("read %s %s: engine %s, oracle %s", metric, key, SqlValues.show(actual), SqlValues.show(expected))
                .isTrue();
        return actual;
    }

    @Override
    public void close() {
        engine.close();
    }

    record Step(Map<String, Object> event, StreamReply actual, OracleReply expected) {
        /** Asserts the metric's value in this reply, in the oracle and in the engine. */
        Step expect(String metric, Object value) {
            Object o = expected.metrics().get(metric).value();
            assertThat(same(value, o)).as("ORACLE: %s after %s is %s, expected %s", metric, event, SqlValues.show(o), SqlValues.show(value))
                    .isTrue();
            Object a = actual.metrics().get(metric);
            assertThat(same(value, a)).as("engine: %s after %s is %s, expected %s", metric, event, SqlValues.show(a), SqlValues.show(value))
                    .isTrue();
            return this;
        }

        Step expectFlags(boolean duplicate, boolean droppedLate) {
            assertThat(expected.duplicate()).as("ORACLE duplicate flag").isEqualTo(duplicate);
            assertThat(expected.droppedLate()).as("ORACLE dropped flag").isEqualTo(droppedLate);
            assertThat(actual.duplicate()).as("engine duplicate flag after %s", event).isEqualTo(duplicate);
            assertThat(actual.droppedLate()).as("engine droppedLate flag after %s", event).isEqualTo(droppedLate);
            return this;
        }

        Step counted() {
            return expectFlags(false, false);
        }
    }

    static boolean same(Object expected, Object actual) {
        if (expected instanceof Double e && actual instanceof Double a) {
            // hand-computed values: 1e-12 relative; an expected 0 must be 0 (below 1e-300)
            return Math.abs(e - a) <= 1e-12 * Math.abs(e) || (Math.abs(e) < 1e-300 && Math.abs(a) < 1e-300);
        }
        return Objects.equals(expected, actual) && (expected == null || expected.getClass() == actual.getClass());
    }
}
