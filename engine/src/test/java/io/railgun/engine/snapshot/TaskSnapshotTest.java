package io.railgun.engine.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.plan.MetricDefinition;
import io.railgun.engine.plan.StatementBinder;
import io.railgun.engine.query.QueryParser;
import io.railgun.engine.reservoir.disk.DiskReservoirOptions;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.state.durable.DurableStateOptions;
import io.railgun.engine.task.Reply;
import io.railgun.engine.task.TaskOptions;
import io.railgun.engine.task.TaskProcessor;
import io.railgun.engine.task.TaskStorage;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A snapshot of a running durable task, copied file by file (as the manifest lists them) into a
 * fresh directory, restores exactly the task the snapshot saw: replaying the input from its
 * checkpoint offset gives the original's replies, which also match a brute-force count and sum.
 * The original keeps processing while the snapshot is written, across several reservoir segments
 * and checkpoints.
 */
class TaskSnapshotTest {
    static final Schema SCHEMA;

    static {
        Map<String, FieldType> f = new LinkedHashMap<>();
        f.put("id", FieldType.LONG);
        f.put("ts", FieldType.TIMESTAMP);
        f.put("card", FieldType.STRING);
        f.put("amount", FieldType.DOUBLE);
        SCHEMA = Schema.of(f);
    }

    static final StreamDefinition STREAM = new StreamDefinition("payments", SCHEMA, "id", "ts", List.of("card"), 1,
            1_000, LateEventPolicy.REWRITE);
    static final List<String> STATEMENTS = List.of(
            "SELECT COUNT(*) AS n, SUM(amount) AS s FROM payments GROUP BY card [RANGE UNBOUNDED]",
            "SELECT SUM(amount) AS s10, MAX(amount) AS mx FROM payments GROUP BY card [RANGE 10 MINUTES]");

    private final Path root = tempDir();
    private final ExecutorService io = Executors.newSingleThreadExecutor();
    private final EventRowWriter w = new EventRowWriter();

    @AfterEach
    void cleanUp() throws IOException {
        io.shutdownNow();
        TaskSnapshot.deleteTree(root);
    }

    @Test
    void aCopiedSnapshotRestoresExactlyTheTaskItSaw() throws Exception {
        int events = 30_000;
        int snapshotAt = 17_000;
        List<long[]> input = input(events);
        List<List<Object>> replies = new ArrayList<>();
        TaskSnapshot snapshot;
        int startedAt = -1;
        try (TaskProcessor original = TaskProcessor.open(STREAM, TaskOptions.defaults(), storage(root.resolve("a")))) {
            addAll(original);
            CompletableFuture<TaskSnapshot> pending = null;
            int writtenWhileRunning = 0;
            for (int i = 0; i < events; i++) {
                replies.add(values(original.process(row(input.get(i)), i)));
                if (i >= snapshotAt && pending == null) {
                    pending = original.trySnapshot(root.resolve("snap"), 1, io); // null until no checkpoint runs
                    startedAt = i;
                } else if (pending != null && !pending.isDone()) {
                    writtenWhileRunning++;
                }
            }
            assertThat(pending).as("a snapshot started").isNotNull();
            snapshot = pending.join();
            System.out.printf("[snapshot] %d files, %,d bytes, checkpoint offset %d, %d events processed while it was"
                    + " written%n", snapshot.manifest().files().size(), snapshot.manifest().totalBytes(),
                    snapshot.manifest().checkpointOffset(), writtenWhileRunning);
        }
        // the original closed and moved on (trimmed, compacted): the snapshot is its own
        SnapshotManifest m = snapshot.manifest();
        // the last checkpoint complete when it started: at most the events processed by then
        assertThat(m.checkpointOffset()).isBetween(1L, (long) startedAt + 1);
        assertThat(m.files().stream().filter(f -> f.name().startsWith("reservoir/")).count())
                .as("reservoir segments").isGreaterThan(2);
        assertThat(m.files()).anyMatch(f -> f.name().endsWith(".sst"));
        assertThat(SnapshotManifest.decode(Files.readAllBytes(snapshot.directory().resolve(SnapshotManifest.FILE_NAME))))
                .isEqualTo(m);

        Path copy = root.resolve("b");
        for (SnapshotFile f : m.files()) {
            Path to = copy.resolve(f.name());
            Files.createDirectories(to.getParent());
            Files.copy(snapshot.path(f), to);
            assertThat(Files.size(to)).isEqualTo(f.size());
            assertThat(FileChecksum.of(to, f.size())).as(f.name()).isEqualTo(f.crc32c());
        }
        snapshot.delete();
        try (TaskProcessor restored = TaskProcessor.open(STREAM, TaskOptions.defaults(), storage(copy))) {
            assertThat(restored.resumeOffset()).isEqualTo(m.checkpointOffset());
            Map<String, long[]> brute = bruteForceBefore(input, (int) m.checkpointOffset());
            for (int i = (int) m.checkpointOffset(); i < events; i++) {
                long[] e = input.get(i);
                List<Object> got = values(restored.process(row(e), i));
                assertThat(got).as("event %d", i).isEqualTo(replies.get(i));
                long[] cs = brute.computeIfAbsent("c" + e[2], k -> new long[2]);
                cs[0]++;
                cs[1] += e[3];
                assertThat(((Number) value(got, "n")).longValue()).as("count, event %d", i).isEqualTo(cs[0]);
                assertThat(((Number) value(got, "s")).doubleValue()).as("sum, event %d", i).isEqualTo((double) cs[1]);
            }
        }
    }

    @Test
    void aSnapshotWaitsForACheckpointAndAFreshTaskGetsOneFirst() throws Exception {
        try (TaskProcessor task = TaskProcessor.open(STREAM, TaskOptions.defaults(), storage(root.resolve("a")))) {
            addAll(task); // takes a checkpoint: the task has one
            CompletableFuture<TaskSnapshot> f = null;
            for (int i = 0; i < 1_000 && f == null; i++) {
                f = task.trySnapshot(root.resolve("s"), 2, io);
                task.process(row(new long[] {i, 1_700_000_000_000L + i, i % 7, 1}), i);
            }
            assertThat(f).isNotNull();
            TaskSnapshot s = f.join();
            assertThat(s.manifest().snapshotId()).isEqualTo(2);
            // the file is exactly the manifest's length, however much the live segment grew since
            for (SnapshotFile file : s.manifest().files()) {
                assertThat(Files.size(s.path(file))).as(file.name()).isEqualTo(file.size());
            }
        }
    }

    static List<long[]> input(int events) {
        SplittableRandom random = new SplittableRandom(42);
        List<long[]> input = new ArrayList<>();
        long ts = 1_700_000_000_000L;
        for (int i = 0; i < events; i++) {
            ts += random.nextInt(200);
            input.add(new long[] {i, ts, random.nextInt(500), random.nextInt(1_000)});
        }
        return input;
    }

    private static Map<String, long[]> bruteForceBefore(List<long[]> input, int end) {
        Map<String, long[]> m = new HashMap<>();
        for (int i = 0; i < end; i++) {
            long[] cs = m.computeIfAbsent("c" + input.get(i)[2], k -> new long[2]);
            cs[0]++;
            cs[1] += input.get(i)[3];
        }
        return m;
    }

    static TaskStorage storage(Path dir) {
        return TaskStorage.in(dir)
                .withReservoir(DiskReservoirOptions.defaults().withChunkTargetBytes(4 * 1024).withSegmentMaxBytes(64 * 1024))
                .withState(DurableStateOptions.defaults().withHotKeys(100).withWriteBufferBytes(32 * 1024))
                .withCheckpointIntervalMs(20);
    }

    static void addAll(TaskProcessor task) throws Exception {
        Set<String> names = new HashSet<>();
        for (String sql : STATEMENTS) {
            List<MetricDefinition> defs = StatementBinder.bind(STREAM, QueryParser.parse(sql), names);
            defs.forEach(d -> names.add(d.name()));
            task.addMetrics(defs);
        }
    }

    private EventRow row(long[] e) {
        w.begin(SCHEMA).setLong(0, e[0]).setLong(1, e[1]).setString(2, "c" + e[2]).setDouble(3, e[3]);
        w.finish();
        return w.row();
    }

    static List<Object> values(Reply r) {
        List<Object> out = new ArrayList<>();
        out.add(r.status());
        for (int i = 0; i < r.size(); i++) {
            out.add(r.name(i));
            out.add(r.value(i));
        }
        return out;
    }

    static Object value(List<Object> reply, String name) {
        return reply.get(reply.indexOf(name) + 1);
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("railgun-snapshot");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
