package io.railgun.engine.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.plan.MetricDefinition;
import io.railgun.engine.plan.StatementBinder;
import io.railgun.engine.query.QueryException;
import io.railgun.engine.query.QueryParser;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Task-level behaviour the oracle does not observe: memory bounds, cursor sharing, metric removal, bad input. */
class TaskProcessorTest {
    private static final Schema SCHEMA;

    static {
        Map<String, FieldType> f = new LinkedHashMap<>();
        f.put("id", FieldType.LONG);
        f.put("ts", FieldType.TIMESTAMP);
        f.put("card", FieldType.STRING);
        f.put("amount", FieldType.DOUBLE);
        SCHEMA = Schema.of(f);
    }

    private final EventRowWriter w = new EventRowWriter();
    private final Set<String> names = new HashSet<>();

    private static StreamDefinition stream(String tsField) {
        return new StreamDefinition("payments", SCHEMA, "id", tsField, List.of("card"), 1, 0, LateEventPolicy.DROP);
    }

    private void add(TaskProcessor task, StreamDefinition s, String sql) throws QueryException {
        List<MetricDefinition> defs = StatementBinder.bind(s, QueryParser.parse(sql), names);
        defs.forEach(d -> names.add(d.name()));
        task.addMetrics(defs);
    }

    private Reply send(TaskProcessor task, long id, long ts, String card, double amount) {
        w.begin(SCHEMA).setLong(0, id).setLong(1, ts).setString(2, card).setDouble(3, amount);
        w.finish();
        return task.process(w.row());
    }

    @Test
    void reservoirHoldsOnlyTheEventsTheLongestWindowStillNeeds() throws QueryException {
        StreamDefinition s = stream("ts");
        TaskProcessor task = new TaskProcessor(s, TaskOptions.defaults().withMinDedupHorizonMs(0));
        add(task, s, "SELECT SUM(amount) AS s FROM payments GROUP BY card [RANGE 1 SECOND]");
        for (int i = 0; i < 100_000; i++) {
            send(task, i, i, "c" + (i % 100), 1.0); // one event per ms
        }
        assertThat(task.stats().reservoirSize()).isBetween(1_000L, 1_002L);
        assertThat(task.dedupHorizonMs()).isEqualTo(1_000);
    }

    @Test
    void retentionKeepsHistoryBeyondWhatTheWindowsNeed() throws QueryException {
        StreamDefinition s = new StreamDefinition("payments", SCHEMA, "id", "ts", List.of("card"), 1, 0,
                LateEventPolicy.DROP, 10_000);
        TaskProcessor task = new TaskProcessor(s, TaskOptions.defaults().withMinDedupHorizonMs(0));
        add(task, s, "SELECT COUNT(*) AS n FROM payments GROUP BY card [RANGE UNBOUNDED]");
        for (int i = 0; i < 50_000; i++) {
            send(task, i, i, "c" + (i % 10), 1.0);
        }
        // an unbounded window needs no events; the 10-second retention keeps 10,000 of them
        assertThat(task.stats().reservoirSize()).isBetween(10_000L, 10_002L);
    }

    @Test
    void unboundedWindowsKeepNoEvents() throws QueryException {
        StreamDefinition s = stream("ts");
        TaskProcessor task = new TaskProcessor(s, TaskOptions.defaults().withMinDedupHorizonMs(0));
        add(task, s, "SELECT COUNT(*) AS n FROM payments GROUP BY card [RANGE UNBOUNDED]");
        for (int i = 0; i < 10_000; i++) {
            send(task, i, i, "c" + (i % 10), 1.0);
        }
        assertThat(task.stats().reservoirSize()).isLessThanOrEqualTo(1L);
        assertThat(send(task, 10_000, 10_000, "c0", 1.0).value(0)).isEqualTo(1_001L);
    }

    @Test
    void alignedWindowsShareCursorsAndRemovingMetricsReleasesThem() throws QueryException {
        StreamDefinition s = stream("ts");
        TaskProcessor task = new TaskProcessor(s, TaskOptions.defaults());
        add(task, s, "SELECT COUNT(*) AS a FROM payments GROUP BY card [RANGE 1 MINUTE]");
        add(task, s, "SELECT SUM(amount) AS b FROM payments GROUP BY card [RANGE 5 MINUTES]");
        add(task, s, "SELECT MAX(amount) AS c FROM payments GROUP BY card [RANGE 4 MINUTES DELAY 1 MINUTE]");
        add(task, s, "SELECT COUNT(*) AS d FROM payments GROUP BY card [RANGE UNBOUNDED]");
        // heads: delay 0 (a, b, d) and delay 1m (c); tails: 1m (a), 5m (b and c: 4m + 1m)
        assertThat(task.stats().cursorCount()).isEqualTo(4);
        send(task, 1, 1_000, "x", 2.0);
        assertThat(task.removeMetric("b")).isTrue();
        assertThat(task.stats().cursorCount()).isEqualTo(4); // c still uses the 5-minute tail
        assertThat(task.removeMetric("c")).isTrue();
        assertThat(task.stats().cursorCount()).isEqualTo(2);
        assertThat(task.removeMetric("a")).isTrue();
        assertThat(task.removeMetric("d")).isTrue();
        assertThat(task.removeMetric("d")).isFalse();
        assertThat(task.stats().cursorCount()).isZero();
        assertThat(send(task, 2, 2_000, "x", 1.0).size()).isZero();
    }

    private void addBackfilled(TaskProcessor task, StreamDefinition s, String sql) throws QueryException {
        List<MetricDefinition> defs = StatementBinder.bind(s, QueryParser.parse(sql), names);
        defs.forEach(d -> names.add(d.name()));
        task.addMetrics(defs, true);
    }

    private static Object value(TaskProcessor task, Reply r, String metric) {
        return r.value(List.of(task.metricNames()).indexOf(metric));
    }

    @Test
    void statementsBackfilledOneAfterTheOtherBeforeTheFirstEventCountEachEventOnce() throws QueryException {
        // a node adds a new stream's metrics with backfill, and an idle task completes each before the next comes
        StreamDefinition s = stream("ts");
        TaskProcessor task = new TaskProcessor(s, TaskOptions.defaults().withMinDedupHorizonMs(0));
        addBackfilled(task, s, "SELECT COUNT(*) AS a FROM payments GROUP BY card [RANGE 10 SECONDS]");
        task.idle();
        addBackfilled(task, s, "SELECT COUNT(*) AS b FROM payments GROUP BY card [RANGE 10 SECONDS]");
        task.idle();
        Reply r = send(task, 1, 1_000, "x", 1.0);
        assertThat(value(task, r, "a")).isEqualTo(1L);
        assertThat(value(task, r, "b")).isEqualTo(1L);
        r = send(task, 2, 12_000, "x", 1.0);
        assertThat(value(task, r, "a")).isEqualTo(1L);
        assertThat(value(task, r, "b")).isEqualTo(1L);
    }

    @Test
    void aStatementBackfilledWhileAnotherIsHalfwayWalksTheWholeHistory() throws QueryException {
        StreamDefinition s = new StreamDefinition("payments", SCHEMA, "id", "ts", List.of("card"), 1, 0, LateEventPolicy.DROP,
                3_600_000);
        TaskProcessor task = new TaskProcessor(s, TaskOptions.defaults().withMinDedupHorizonMs(0));
        for (int i = 1; i <= 64; i++) {
            send(task, i, i * 1_000L, "x", 1.0);
        }
        addBackfilled(task, s, "SELECT COUNT(*) AS a FROM payments GROUP BY card [RANGE 70 SECONDS]");
        while (task.backfillProgress("a") < 0.3) {
            task.stepBackfill();
        }
        assertThat(task.backfillProgress("a")).as("part of the history walked").isLessThan(1.0);
        addBackfilled(task, s, "SELECT SUM(amount) AS b FROM payments GROUP BY card [RANGE 70 SECONDS]");
        while (task.stepBackfill()) {
            // steps until done
        }
        Reply r = send(task, 65, 65_000, "x", 1.0);
        assertThat(value(task, r, "a")).isEqualTo(65L);
        assertThat(value(task, r, "b")).isEqualTo(65.0);
    }

    @Test
    void aMetricAddedToARunningTaskStartsEmptyAndStaysBalanced() throws QueryException {
        StreamDefinition s = stream("ts");
        TaskProcessor task = new TaskProcessor(s, TaskOptions.defaults());
        add(task, s, "SELECT COUNT(*) AS old FROM payments GROUP BY card [RANGE 10 SECONDS]");
        send(task, 1, 1_000, "x", 1.0);
        send(task, 2, 2_000, "x", 1.0);
        add(task, s, "SELECT COUNT(*) AS young FROM payments GROUP BY card [RANGE 10 SECONDS]");
        Reply r = send(task, 3, 3_000, "x", 1.0);
        assertThat(r.value(0)).isEqualTo(3L);
        assertThat(r.value(1)).isEqualTo(1L);
        r = send(task, 4, 12_500, "x", 1.0); // events at 1 s and 2 s have left; the young window never had them
        assertThat(r.value(0)).isEqualTo(2L);
        assertThat(r.value(1)).isEqualTo(2L);
        r = send(task, 5, 30_000, "x", 1.0);
        assertThat(r.value(0)).isEqualTo(1L);
        assertThat(r.value(1)).isEqualTo(1L);
    }

    @Test
    void ingestionTimeComesFromTheInjectedClock() throws QueryException {
        StreamDefinition s = stream(null);
        AtomicLong now = new AtomicLong(1_000_000);
        InstantSource clock = () -> Instant.ofEpochMilli(now.get());
        TaskProcessor task = new TaskProcessor(s, TaskOptions.defaults().withClock(clock));
        add(task, s, "SELECT COUNT(*) AS n FROM payments GROUP BY card [RANGE 1 SECOND]");
        assertThat(send(task, 1, 0, "x", 1).value(0)).isEqualTo(1L);
        now.addAndGet(500);
        assertThat(send(task, 2, 0, "x", 1).value(0)).isEqualTo(2L);
        now.addAndGet(600);
        Reply r = send(task, 3, 0, "x", 1);
        assertThat(r.value(0)).isEqualTo(2L);
        assertThat(r.streamTime()).isEqualTo(1_001_100L);
    }

    @Test
    void nullIdOrTimestampIsRefusedWithoutChangingAnything() throws QueryException {
        StreamDefinition s = stream("ts");
        TaskProcessor task = new TaskProcessor(s, TaskOptions.defaults());
        add(task, s, "SELECT COUNT(*) AS n FROM payments GROUP BY card [RANGE 1 SECOND]");
        w.begin(SCHEMA).setLong(1, 5).setString(2, "x");
        w.finish();
        assertThatThrownBy(() -> task.process(w.row())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("id");
        w.begin(SCHEMA).setLong(0, 1).setString(2, "x");
        w.finish();
        assertThatThrownBy(() -> task.process(w.row())).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ts");
        assertThat(task.hasStreamTime()).isFalse();
        assertThat(send(task, 1, 10, "x", 1).value(0)).isEqualTo(1L);
    }

    @Test
    void aDroppedLateEventIsNotRememberedAsCounted() throws QueryException {
        StreamDefinition s = stream("ts");
        TaskProcessor task = new TaskProcessor(s, TaskOptions.defaults());
        add(task, s, "SELECT COUNT(*) AS n FROM payments GROUP BY card [RANGE 1 HOUR]");
        send(task, 1, 10_000, "x", 1);
        assertThat(send(task, 2, 5_000, "x", 1).status()).isEqualTo(ReplyStatus.DROPPED_LATE);
        // the same id again is late again, not a duplicate: it was never counted
        assertThat(send(task, 2, 5_000, "x", 1).status()).isEqualTo(ReplyStatus.DROPPED_LATE);
        assertThat(send(task, 2, 10_000, "x", 1).status()).isEqualTo(ReplyStatus.COUNTED);
        assertThat(send(task, 2, 10_000, "x", 1).status()).isEqualTo(ReplyStatus.DUPLICATE);
    }
}
