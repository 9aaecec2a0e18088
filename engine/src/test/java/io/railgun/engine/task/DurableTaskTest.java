package io.railgun.engine.task;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.plan.MetricDefinition;
import io.railgun.engine.plan.StatementBinder;
import io.railgun.engine.query.QueryException;
import io.railgun.engine.query.QueryParser;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.state.durable.DurableStateOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A durable task against an in-memory one on the same events: memory bounded by the hot tier
 * whatever the number of keys, identical replies, and a clean restart that replays nothing. Some
 * amounts are far outside the fixed-point range (1e-300, 1e280), so keys evicted, checkpointed and
 * restored hold moments kept outside their record.
 */
class DurableTaskTest {
    private static final Schema SCHEMA;

    static {
        Map<String, FieldType> f = new LinkedHashMap<>();
        f.put("id", FieldType.LONG);
        f.put("ts", FieldType.TIMESTAMP);
        f.put("card", FieldType.STRING);
        f.put("country", FieldType.STRING);
        f.put("amount", FieldType.DOUBLE);
        SCHEMA = Schema.of(f);
    }

    private static final StreamDefinition STREAM = new StreamDefinition("payments", SCHEMA, "id", "ts", List.of("card"), 1,
            1_000, LateEventPolicy.REWRITE);
    private static final List<String> STATEMENTS = List.of(
            "SELECT SUM(amount) AS s, COUNT(*) AS n, MAX(amount) AS mx FROM payments GROUP BY card [RANGE 10 MINUTES]",
            "SELECT COUNT(DISTINCT country) AS dc, LAST(country) AS lc, MIN(country) AS mc, STDDEV_POP(amount) AS sd"
                    + " FROM payments GROUP BY card [RANGE 1 HOUR]",
            "SELECT AVG(amount) AS a FROM payments WHERE amount > 50 GROUP BY card, country [RANGE UNBOUNDED]");

    private final Path dir = tempDir();
    private final EventRowWriter w = new EventRowWriter();

    @AfterEach
    void cleanUp() throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void hotTierBoundsMemoryAndRepliesEqualTheInMemoryTask() throws Exception {
        TaskStorage storage = storage(200);
        SplittableRandom random = new SplittableRandom(11);
        long ts = 1_700_000_000_000L;
        int events = 40_000;
        try (TaskProcessor durable = TaskProcessor.open(STREAM, TaskOptions.defaults(), storage);
             TaskProcessor memory = new TaskProcessor(STREAM, TaskOptions.defaults())) {
            addAll(durable);
            addAll(memory);
            for (int i = 0; i < events; i++) {
                ts += random.nextInt(400);
                long t = random.nextInt(10) == 0 ? ts - random.nextInt(2_000) : ts;
                long id = random.nextInt(40) == 0 && i > 0 ? i - 1 - random.nextInt(Math.min(i, 50)) : i;
                send(id, t, "c" + random.nextInt(5_000), random.nextInt(8) == 0 ? null : "K" + random.nextInt(6),
                        amount(random.nextInt(10_000)));
                List<Object> a = values(durable.process(w.row()));
                List<Object> b = values(memory.process(w.row()));
                assertThat(a).as("event %d", i).isEqualTo(b);
                assertThat(durable.stats().hotKeys()).as("keys in memory").isLessThanOrEqualTo(3 * 200);
            }
            assertThat(durable.stats().evictions()).as("keys evicted").isGreaterThan(10_000);
            assertThat(durable.stats().coldLoads()).as("keys loaded back").isGreaterThan(1_000);
            assertThat(durable.durableState().checkpoints()).as("checkpoints").isGreaterThan(0);
            System.out.printf("[durable task] %,d events, 5,000 cards, hot tier 200 keys per field list: %,d evictions, "
                            + "%,d loads, %,d RocksDB reads, %,d checkpoints%n", events, durable.stats().evictions(), durable.stats().coldLoads(),
                    durable.durableState().coldReads(), durable.durableState().checkpoints());
        }
    }

    /**
     * A snapshot is saved a few keys per event (here 1, scanning 16 slots), so as not to delay
     * events; an idle task has nothing to delay and finishes it in a few calls.
     */
    @Test
    void anIdleTaskFinishesTheSnapshotBeingTaken() throws Exception {
        TaskStorage storage = TaskStorage.in(dir).withState(DurableStateOptions.defaults().withHotKeys(100_000)
                .withSnapshotKeysPerEvent(1)).withCheckpointIntervalMs(1_000);
        try (TaskProcessor task = TaskProcessor.open(STREAM, TaskOptions.defaults(), storage)) {
            addAll(task);
            long ts = 1_700_000_000_000L;
            int i = 0;
            for (; i < 20_000; i++) {
                send(i, ts + i, "c" + i, "K1", 1.0);
                task.process(w.row());
            }
            Thread.sleep(1_100); // the next clock check (every 256 events) finds a checkpoint due
            for (int k = 0; k < 256; k++, i++) {
                send(i, ts + i, "c" + (i % 20_000), "K1", 1.0);
                task.process(w.row());
            }
            assertThat(task.durableState().checkpointBegun()).as("a checkpoint's snapshot being taken").isTrue();
            int calls = 0;
            while (task.durableState().checkpointBegun() && calls < 8) {
                task.idle();
                calls++;
            }
            assertThat(task.durableState().checkpointBegun()).as("snapshot finished after %d idle calls", calls).isFalse();
        }
    }

    /**
     * Events prefetched in groups ({@link TaskProcessor#prefetch}: 1 to 40 at a time, past the 32
     * noted loads kept; the row reused at once; sometimes a group prefetched that is not processed
     * next) get the same replies as events processed one by one, in memory and durable (a small hot
     * tier: keys evicted and loaded back between a prefetch and its lookup; duplicates, late events).
     */
    @Test
    void prefetchedGroupsGetTheSameRepliesAsEventsOneByOne() throws Exception {
        SplittableRandom random = new SplittableRandom(23);
        long ts = 1_700_000_000_000L;
        int events = 30_000;
        try (TaskProcessor durable = TaskProcessor.open(STREAM, TaskOptions.defaults(), storage(200));
             TaskProcessor memory = new TaskProcessor(STREAM, TaskOptions.defaults());
             TaskProcessor plain = new TaskProcessor(STREAM, TaskOptions.defaults())) {
            addAll(durable);
            addAll(memory);
            addAll(plain);
            int i = 0;
            while (i < events) {
                int group = 1 + random.nextInt(40);
                List<Object[]> batch = new ArrayList<>();
                for (int k = 0; k < group; k++) {
                    ts += random.nextInt(400);
                    long t = random.nextInt(10) == 0 ? ts - random.nextInt(2_000) : ts;
                    long id = random.nextInt(20) == 0 && i > 0 ? i - 1 - random.nextInt(Math.min(i, 50)) : i + k;
                    String card = random.nextBoolean() ? "c" + random.nextInt(5_000) : "a-card-longer-than-16-bytes-" + random.nextInt(500);
                    batch.add(new Object[] {id, t, card, random.nextInt(8) == 0 ? null : "K" + random.nextInt(6),
                            amount(random.nextInt(10_000))});
                }
                for (Object[] e : batch) {
                    send((long) e[0], (long) e[1], (String) e[2], (String) e[3], (double) e[4]);
                    durable.prefetch(w.row());
                    memory.prefetch(w.row());
                }
                if (random.nextInt(10) == 0) {
                    continue; // prefetched, then not processed: the next group's prefetches come on top
                }
                for (Object[] e : batch) {
                    send((long) e[0], (long) e[1], (String) e[2], (String) e[3], (double) e[4]);
                    List<Object> expected = values(plain.process(w.row()));
                    assertThat(values(memory.process(w.row()))).as("memory, event %d", i).isEqualTo(expected);
                    assertThat(values(durable.process(w.row()))).as("durable, event %d", i).isEqualTo(expected);
                    i++;
                }
            }
            assertThat(durable.stats().evictions()).as("keys evicted").isGreaterThan(1_000);
            assertThat(durable.stats().coldLoads()).as("keys loaded back").isGreaterThan(100);
        }
    }

    /**
     * Tails longer than the slot hints' first ring (16 Ki events: 30 minutes, a 5-minute window
     * delayed 20, one hour filtered, here 33-65 k events behind) make the hints grow, in memory and
     * in the durable task, whose small hot tier evicts and loads keys all along; the replies stay
     * equal at every event (late events rewritten, skewed cards). The {@code *Oracle*} tests never
     * reach a grown ring (a few hundred events a case).
     */
    @Test
    void longTailsGrowTheSlotHintsAndRepliesStayEqual() throws Exception {
        List<String> statements = List.of(
                "SELECT SUM(amount) AS s, COUNT(*) AS n FROM payments GROUP BY card [RANGE 30 MINUTES]",
                "SELECT MAX(amount) AS mx FROM payments GROUP BY card [RANGE 5 MINUTES DELAY 20 MINUTES]",
                "SELECT COUNT(*) AS n2 FROM payments WHERE amount > 900 GROUP BY card [RANGE 1 HOUR]");
        TaskStorage storage = TaskStorage.in(dir).withState(DurableStateOptions.defaults().withHotKeys(17_000)
                .withWriteBufferBytes(256 * 1024).withSnapshotKeysPerEvent(7)).withCheckpointIntervalMs(200);
        SplittableRandom random = new SplittableRandom(5);
        long ts = 1_700_000_000_000L;
        try (TaskProcessor durable = TaskProcessor.open(STREAM, TaskOptions.defaults(), storage);
             TaskProcessor memory = new TaskProcessor(STREAM, TaskOptions.defaults())) {
            add(durable, statements);
            add(memory, statements);
            for (int i = 0; i < 160_000; i++) {
                ts += random.nextInt(120); // ~55 ms apart: 30 min ~ 33 k events, 1 h ~ 65 k
                long t = random.nextInt(10) == 0 ? ts - random.nextInt(3_000) : ts;
                String card = "c" + (random.nextInt(4) == 0 ? random.nextInt(200) : random.nextInt(40_000));
                send(i, t, card, "K", random.nextInt(1000));
                List<Object> a = values(durable.process(w.row()));
                List<Object> b = values(memory.process(w.row()));
                assertThat(a).as("event %d", i).isEqualTo(b);
            }
            assertThat(hintSizes(memory)).as("the in-memory task's rings").anyMatch(n -> n > (1 << 14));
            assertThat(hintSizes(durable)).as("the durable task's rings").anyMatch(n -> n > (1 << 14));
            assertThat(durable.stats().evictions()).as("keys evicted from the durable task's hot tier").isPositive();
            assertThat(durable.stats().coldLoads()).as("keys loaded back").isPositive();
        }
    }

    /**
     * A key whose state never left the hot tier is not looked up in RocksDB when it comes back after
     * leaving its window, though checkpoints stored it and then its deletion: only evicted keys (and
     * those RocksDB held at open) may have state outside the hot tier. Cards come every third round,
     * 20 minutes apart, so each left its 10-minute window and had its deletion checkpointed before it
     * is back. After a restart the filter holds the keys RocksDB held (they are read to expire
     * them, and more, false positives and those keys back later); replies equal the in-memory
     * task's throughout.
     */
    @Test
    void keysBackAfterLeavingTheirWindowAreNotReadFromRocksDb() throws Exception {
        List<String> statements = List.of(
                "SELECT SUM(amount) AS s, COUNT(*) AS n FROM payments GROUP BY card [RANGE 10 MINUTES]");
        TaskStorage storage = TaskStorage.in(dir).withState(DurableStateOptions.defaults().withHotKeys(10_000))
                .withCheckpointIntervalMs(3_600_000);
        long ts = 1_700_000_000_000L;
        long id = 0;
        try (TaskProcessor memory = new TaskProcessor(STREAM, TaskOptions.defaults())) {
            add(memory, statements);
            TaskProcessor durable = TaskProcessor.open(STREAM, TaskOptions.defaults(), storage);
            add(durable, statements);
            for (int round = 0; round < 12; round++) {
                if (round == 7) { // a restart: the hot tier empty, RocksDB holding the last round's 300 cards
                    assertThat(durable.durableState().coldReads()).as("RocksDB reads before the restart").isZero();
                    durable.close();
                    durable = TaskProcessor.open(STREAM, TaskOptions.defaults(), storage);
                }
                ts += 20 * 60_000L;
                for (int card = round % 3; card < 900; card += 3) {
                    for (int k = 0; k < 2; k++) {
                        send(id++, ts + card, "c" + card, "K", 1 + card % 7);
                        assertThat(values(durable.process(w.row()))).as("round %d card %d", round, card)
                                .isEqualTo(values(memory.process(w.row())));
                    }
                }
                durable.checkpoint().join();
            }
            assertThat(durable.durableState().coldReads()).as("RocksDB reads after the restart").isPositive();
            assertThat(durable.stats().evictions()).as("keys evicted").isZero();
            assertThat(durable.durableState().filteredReads()).as("lookups the filter answered").isPositive();
            durable.close();
        }
    }

    /** The entries of each key table's slot hints (by reflection: no API exposes them). */
    private static List<Integer> hintSizes(TaskProcessor task) throws ReflectiveOperationException {
        Map<?, ?> tables = (Map<?, ?>) field(field(field(task, "plan"), "tables"), "byFields");
        List<Integer> sizes = new ArrayList<>();
        for (Object table : tables.values()) {
            Object hints = field(table, "hints");
            java.lang.reflect.Method size = hints.getClass().getDeclaredMethod("size");
            size.setAccessible(true);
            sizes.add((Integer) size.invoke(hints));
        }
        return sizes;
    }

    private static Object field(Object o, String name) throws ReflectiveOperationException {
        java.lang.reflect.Field f = o.getClass().getDeclaredField(name);
        f.setAccessible(true);
        return f.get(o);
    }

    @Test
    void aCleanRestartResumesAfterTheLastEvent() throws Exception {
        TaskStorage storage = storage(50);
        SplittableRandom random = new SplittableRandom(3);
        long ts = 1_700_000_000_000L;
        List<List<Object>> expected = new ArrayList<>();
        List<long[]> input = new ArrayList<>();
        for (int i = 0; i < 6_000; i++) {
            ts += random.nextInt(2_000);
            input.add(new long[] {i, ts, random.nextInt(300), random.nextInt(5), random.nextInt(10_000)});
        }
        try (TaskProcessor memory = new TaskProcessor(STREAM, TaskOptions.defaults())) {
            addAll(memory);
            for (long[] e : input) {
                expected.add(values(memory.process(row(e))));
            }
        }
        int stopAt = 3_500;
        try (TaskProcessor first = TaskProcessor.open(STREAM, TaskOptions.defaults(), storage)) {
            addAll(first);
            for (int i = 0; i < stopAt; i++) {
                assertThat(values(first.process(row(input.get(i)), i))).isEqualTo(expected.get(i));
            }
        }
        try (TaskProcessor second = TaskProcessor.open(STREAM, TaskOptions.defaults(), storage)) {
            assertThat(second.resumeOffset()).isEqualTo(stopAt);
            assertThat(List.of(second.metricNames())).containsExactly("s", "n", "mx", "dc", "lc", "mc", "sd", "a");
            for (int i = stopAt; i < input.size(); i++) {
                assertThat(values(second.process(row(input.get(i)), i))).as("event %d after the restart", i)
                        .isEqualTo(expected.get(i));
            }
        }
    }

    @Test
    void reopeningBeforeEveryEventKeepsDelayedWindowsExact() throws Exception {
        TaskStorage storage = storage(3);
        String sql = "SELECT COUNT(*) AS n, MIN(amount) AS mn FROM payments GROUP BY card [RANGE 2 SECONDS DELAY 9 MILLISECONDS]";
        SplittableRandom random = new SplittableRandom(5);
        long ts = 1_700_000_000_000L;
        List<long[]> input = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            int gap = random.nextInt(10);
            ts += gap == 0 ? 4_000_000_000L : gap < 3 ? 100_000_000L : random.nextInt(1_500);
            input.add(new long[] {i, ts - (random.nextInt(6) == 0 ? random.nextInt(5_000) : 0), random.nextInt(6), 0,
                    random.nextInt(10_000)});
        }
        List<List<Object>> expected = new ArrayList<>();
        try (TaskProcessor memory = new TaskProcessor(STREAM, TaskOptions.defaults())) {
            memory.addMetrics(StatementBinder.bind(STREAM, QueryParser.parse(sql), Set.of()));
            for (long[] e : input) {
                expected.add(values(memory.process(row(e))));
            }
        }
        TaskProcessor task = TaskProcessor.open(STREAM, TaskOptions.defaults(), storage);
        task.addMetrics(StatementBinder.bind(STREAM, QueryParser.parse(sql), Set.of()));
        for (int i = 0; i < input.size(); i++) {
            if (random.nextInt(3) == 0) {
                task.close();
                task = TaskProcessor.open(STREAM, TaskOptions.defaults(), storage);
                assertThat(task.resumeOffset()).isEqualTo(i);
            }
            assertThat(values(task.process(row(input.get(i)), i))).as("event %d", i).isEqualTo(expected.get(i));
        }
        task.close();
    }

    private TaskStorage storage(int hotKeys) {
        return TaskStorage.in(dir).withState(DurableStateOptions.defaults().withHotKeys(hotKeys).withWriteBufferBytes(64 * 1024)
                .withSnapshotKeysPerEvent(7))
                .withCheckpointIntervalMs(50);
    }

    private static void addAll(TaskProcessor task) throws QueryException {
        add(task, STATEMENTS);
    }

    private static void add(TaskProcessor task, List<String> statements) throws QueryException {
        Set<String> names = new HashSet<>();
        for (String sql : statements) {
            List<MetricDefinition> defs = StatementBinder.bind(STREAM, QueryParser.parse(sql), names);
            defs.forEach(d -> names.add(d.name()));
            task.addMetrics(defs);
        }
    }

    private io.railgun.engine.event.EventRow row(long[] e) {
        send(e[0], e[1], "c" + e[2], "K" + e[3], amount(e[4]));
        return w.row();
    }

    /**
     * Cents as an amount, but one in 13 far below and one in 17 far above the fixed-point range of
     * exact sums: SUM/AVG/STDDEV keep those in external state, which must be stored and loaded too.
     */
    private static double amount(long cents) {
        double amount = cents / 100.0;
        return cents % 13 == 0 ? amount * 1e-300 : cents % 17 == 0 ? amount * 1e280 : amount;
    }

    private void send(long id, long ts, String card, String country, double amount) {
        w.begin(SCHEMA).setLong(0, id).setLong(1, ts).setString(2, card);
        if (country == null) {
            w.setNull(3);
        } else {
            w.setString(3, country);
        }
        w.setDouble(4, amount);
        w.finish();
    }

    private static List<Object> values(Reply r) {
        List<Object> out = new ArrayList<>();
        out.add(r.status());
        for (int i = 0; i < r.size(); i++) {
            out.add(r.name(i));
            out.add(r.value(i));
        }
        return out;
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("railgun-durable-task");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
