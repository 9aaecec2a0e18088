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
import io.railgun.engine.state.durable.DurableStateException;
import io.railgun.engine.state.durable.DurableStateOptions;
import io.railgun.engine.state.durable.DurableStateStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;

/**
 * Incremental checkpoints: a key changed in only some of its nodes since its stored value is
 * stored as a patch of those nodes (evicted, or saved by a snapshot), appended to the value by
 * RocksDB's merge operator. A FRAUD-like key (one card, five windows from 1 minute to 24 hours,
 * one filtered) changes in one node at each expiry; with a hot tier of 40 keys for 300 cards most
 * keys are loaded back from parts, changed in one node and stored again. The task crashes (no final
 * checkpoint) and is restored from its last checkpoint many times: every reply, during the replay
 * of the input after the checkpoint too, must equal an in-memory task's.
 */
class IncrementalCheckpointTest {
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
            "SELECT COUNT(*) AS c1m, SUM(amount) AS s1m FROM payments GROUP BY card [RANGE 1 MINUTE]",
            "SELECT COUNT(DISTINCT country) AS dc1h, MAX(amount) AS x1h FROM payments GROUP BY card [RANGE 1 HOUR]",
            "SELECT COUNT(*) AS c1d, STDDEV_SAMP(amount) AS sd1d, MIN(amount) AS mn1d FROM payments GROUP BY card [RANGE 24 HOURS]",
            "SELECT COUNT(*) AS big6h FROM payments WHERE amount > 50 GROUP BY card [RANGE 6 HOURS]",
            "SELECT LAST(country) AS lc FROM payments GROUP BY card [RANGE 2 HOURS DELAY 5 MINUTES]");

    private final Path dir = tempDir();
    private final EventRowWriter w = new EventRowWriter();

    @AfterEach
    void cleanUp() throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void keysChangedInSomeNodesAreStoredAsPatchesAndStayExactAcrossCrashes() throws Exception {
        SplittableRandom random = new SplittableRandom(13);
        long ts = 1_700_000_000_000L;
        List<long[]> input = new ArrayList<>();
        for (int i = 0; i < 12_000; i++) {
            ts += random.nextInt(40_000);
            input.add(new long[] {i, ts, random.nextInt(300), random.nextInt(7), random.nextInt(10_000)});
        }
        List<List<Object>> expected = new ArrayList<>();
        try (TaskProcessor memory = new TaskProcessor(STREAM, TaskOptions.defaults())) {
            addAll(memory);
            for (long[] e : input) {
                expected.add(values(memory.process(row(e))));
            }
        }
        TaskStorage storage = TaskStorage.in(dir).withState(DurableStateOptions.defaults().withHotKeys(40)
                .withWriteBufferBytes(16 * 1024).withSnapshotKeysPerEvent(3)).withCheckpointIntervalMs(1);
        TaskProcessor task = TaskProcessor.open(STREAM, TaskOptions.defaults(), storage);
        addAll(task);
        long[] stored = new long[2];
        long loads = 0;
        int crashes = 0;
        for (int i = 0; i < input.size(); i++) {
            if (i > 0 && random.nextInt(700) == 0) {
                task.durableState().awaitCheckpoint(); // (only for the counters: the crash takes no checkpoint)
                add(stored, task.durableState().valuesStored());
                loads += task.stats().coldLoads();
                task.abandon();
                crashes++;
                task = TaskProcessor.open(STREAM, TaskOptions.defaults(), storage);
                for (long o = task.resumeOffset(); o < i; o++) {
                    assertThat(values(task.process(row(input.get((int) o)), o))).as("event %d replayed after crash %d", o,
                            crashes).isEqualTo(expected.get((int) o));
                }
            }
            assertThat(values(task.process(row(input.get(i)), i))).as("event %d", i).isEqualTo(expected.get(i));
            if (random.nextInt(5) == 0) {
                task.idle(); // a checkpoint is due (1 ms interval): begun, swept, written
            }
        }
        task.durableState().awaitCheckpoint();
        add(stored, task.durableState().valuesStored());
        loads += task.stats().coldLoads();
        task.close();
        assertThat(crashes).as("crashes").isGreaterThan(5);
        assertThat(loads).as("keys loaded back").isGreaterThan(5_000);
        assertThat(stored[1]).as("keys stored as patches of their changed nodes").isGreaterThan(5_000);
        assertThat(stored[0]).as("keys stored whole").isGreaterThan(1_000);
        System.out.printf("[incremental checkpoints] %,d events, %d crashes: %,d keys stored whole, %,d as patches, %,d loads%n",
                input.size(), crashes, stored[0], stored[1], loads);
    }

    @Test
    void aStoreOfAnotherFormatIsRefusedWithAClearError() throws Exception {
        Path v1 = dir.resolve("v1");
        Path v2 = dir.resolve("v2");
        Path v4 = dir.resolve("v4");
        writeRaw(v1, null);
        writeRaw(v2, new byte[] {2, 0, 0, 0}); // its SUM/AVG/VAR states held inexact sums of values out of the fixed-point range
        writeRaw(v4, new byte[] {4, 0, 0, 0});
        assertThatThrownBy(() -> DurableStateStore.open(v1, DurableStateOptions.defaults()))
                .isInstanceOf(DurableStateException.class).hasMessageContaining("on-disk format 1")
                .hasMessageContaining("reads format 3");
        assertThatThrownBy(() -> DurableStateStore.open(v2, DurableStateOptions.defaults()))
                .isInstanceOf(DurableStateException.class).hasMessageContaining("on-disk format 2")
                .hasMessageContaining("reads format 3");
        assertThatThrownBy(() -> DurableStateStore.open(v4, DurableStateOptions.defaults()))
                .isInstanceOf(DurableStateException.class).hasMessageContaining("on-disk format 4");
        // a new store is marked with this version's format, and opens again
        Path fresh = dir.resolve("new");
        DurableStateStore.open(fresh, DurableStateOptions.defaults()).close();
        DurableStateStore.open(fresh, DurableStateOptions.defaults()).close();
    }

    @Test
    void aStoredKeyOfAnotherFormatIsRefusedWhenLoaded() throws Exception {
        TaskStorage storage = TaskStorage.in(dir).withState(DurableStateOptions.defaults().withHotKeys(4));
        long ts = 1_700_000_000_000L;
        try (TaskProcessor task = TaskProcessor.open(STREAM, TaskOptions.defaults(), storage)) {
            addAll(task);
            for (int i = 0; i < 20; i++) {
                task.process(row(new long[] {i, ts + i, i % 10, 1, 100}), i);
            }
        } // (closing takes a final checkpoint: every card is in RocksDB)
        // every key table value becomes a part of format 4: header (4 << 8 | 0), no nodes
        int rewritten = 0;
        try (org.rocksdb.StringAppendOperator append = new org.rocksdb.StringAppendOperator("");
             org.rocksdb.ColumnFamilyOptions state = new org.rocksdb.ColumnFamilyOptions().setMergeOperator(append);
             DBOptions options = new DBOptions()) {
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            try (RocksDB db = RocksDB.open(options, dir.resolve("state").toString(), List.of(
                    new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY),
                    new ColumnFamilyDescriptor("state".getBytes(StandardCharsets.UTF_8), state)), handles);
                 org.rocksdb.RocksIterator it = db.newIterator(handles.get(1))) {
                for (it.seekToFirst(); it.isValid(); it.next()) {
                    if (it.key()[0] == 'b') { // key tables are named "by..."; the dedup ids "ids"
                        db.put(handles.get(1), it.key(), new byte[] {0, 4, 0, 0, 0, 0, 0, 0});
                        rewritten++;
                    }
                }
                handles.forEach(ColumnFamilyHandle::close);
            }
        }
        assertThat(rewritten).as("stored cards").isGreaterThanOrEqualTo(10);
        try (TaskProcessor task = TaskProcessor.open(STREAM, TaskOptions.defaults(), storage)) {
            assertThatThrownBy(() -> task.process(row(new long[] {20, ts + 20, 3, 1, 100}), 20))
                    .hasStackTraceContaining("on-disk format 4").hasStackTraceContaining("reads format 3");
        }
    }

    /** A store as an older (no format key) or newer version leaves it: a checkpoint record, and {@code format}. */
    private static void writeRaw(Path path, byte[] format) throws Exception {
        Files.createDirectories(path);
        try (DBOptions options = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true)) {
            List<ColumnFamilyHandle> handles = new ArrayList<>();
            try (RocksDB db = RocksDB.open(options, path.toString(), List.of(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY),
                    new ColumnFamilyDescriptor("state".getBytes(StandardCharsets.UTF_8))), handles)) {
                db.put(handles.get(0), "checkpoint".getBytes(StandardCharsets.UTF_8), new byte[] {1, 0, 0, 0});
                if (format != null) {
                    db.put(handles.get(0), "format".getBytes(StandardCharsets.UTF_8), format);
                }
                handles.forEach(ColumnFamilyHandle::close);
            }
        }
    }

    private static void add(long[] into, long[] values) {
        into[0] += values[0];
        into[1] += values[1];
    }

    private static void addAll(TaskProcessor task) throws QueryException {
        Set<String> names = new HashSet<>();
        for (String sql : STATEMENTS) {
            List<MetricDefinition> defs = StatementBinder.bind(STREAM, QueryParser.parse(sql), names);
            defs.forEach(d -> names.add(d.name()));
            task.addMetrics(defs);
        }
    }

    private io.railgun.engine.event.EventRow row(long[] e) {
        w.begin(SCHEMA).setLong(0, e[0]).setLong(1, e[1]).setString(2, "c" + e[2]).setString(3, "K" + e[3])
                .setDouble(4, e[4] / 100.0);
        w.finish();
        return w.row();
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
            return Files.createTempDirectory("railgun-incremental");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
