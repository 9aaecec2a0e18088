package io.railgun.engine.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.task.TaskOptions;
import io.railgun.engine.task.TaskProcessor;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
    /** Asks refused before the test takes a checkpoint itself and asks again (the node's inbox: 100 rounds). */
    private static final int FORCE_AFTER_REFUSALS = 100;

    private final Path root = tempDir();
    private final ExecutorService io = Executors.newSingleThreadExecutor();
    private final SnapshotFixture fx = new SnapshotFixture();

    @AfterEach
    void cleanUp() throws IOException {
        io.shutdownNow();
        TaskSnapshot.deleteTree(root);
    }

    @Test
    void aCopiedSnapshotRestoresExactlyTheTaskItSaw() throws Exception {
        int events = 30_000;
        int snapshotAt = 17_000;
        List<long[]> input = SnapshotFixture.input(events, 42);
        List<List<Object>> replies = new ArrayList<>();
        TaskSnapshot snapshot;
        int startedAt = -1;
        try (TaskProcessor original = TaskProcessor.open(SnapshotFixture.STREAM, TaskOptions.defaults(), SnapshotFixture.storage(root.resolve("a")))) {
            SnapshotFixture.addAll(original);
            CompletableFuture<TaskSnapshot> pending = null;
            int writtenWhileRunning = 0;
            int refusals = 0;
            for (int i = 0; i < events; i++) {
                replies.add(SnapshotFixture.values(original.process(fx.row(input.get(i)), i)));
                if (i >= snapshotAt && pending == null) {
                    pending = original.trySnapshot(root.resolve("snap"), 1, io); // null until no checkpoint runs
                    if (pending == null && ++refusals >= FORCE_AFTER_REFUSALS) {
                        // checkpointing back to back (32 KiB buffers): take one and ask again, as a node does
                        original.checkpoint().join();
                        pending = original.trySnapshot(root.resolve("snap"), 1, io);
                    }
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
            try (var in = java.nio.channels.FileChannel.open(snapshot.path(f));
                 var out = java.nio.channels.FileChannel.open(to, java.nio.file.StandardOpenOption.CREATE_NEW,
                         java.nio.file.StandardOpenOption.WRITE)) {
                long p = 0;
                while (p < f.size()) {
                    p += in.transferTo(p, f.size() - p, out); // the manifest's bytes: a live segment grows on
                }
            }
            assertThat(Files.size(to)).isEqualTo(f.size());
            assertThat(FileChecksum.of(to, f.size())).as(f.name()).isEqualTo(f.crc32c());
        }
        snapshot.delete();
        try (TaskProcessor restored = TaskProcessor.open(SnapshotFixture.STREAM, TaskOptions.defaults(), SnapshotFixture.storage(copy))) {
            assertThat(restored.resumeOffset()).isEqualTo(m.checkpointOffset());
            Map<String, long[]> brute = SnapshotFixture.countAndSum(input, (int) m.checkpointOffset());
            for (int i = (int) m.checkpointOffset(); i < events; i++) {
                long[] e = input.get(i);
                List<Object> got = SnapshotFixture.values(restored.process(fx.row(e), i));
                assertThat(got).as("event %d", i).isEqualTo(replies.get(i));
                long[] cs = SnapshotFixture.add(brute, e);
                assertThat(((Number) SnapshotFixture.value(got, "n")).longValue()).as("count, event %d", i).isEqualTo(cs[0]);
                assertThat(((Number) SnapshotFixture.value(got, "s")).doubleValue()).as("sum, event %d", i).isEqualTo((double) cs[1]);
            }
        }
    }

    @Test
    void aSnapshotWaitsForACheckpointAndAFreshTaskGetsOneFirst() throws Exception {
        try (TaskProcessor task = TaskProcessor.open(SnapshotFixture.STREAM, TaskOptions.defaults(), SnapshotFixture.storage(root.resolve("a")))) {
            SnapshotFixture.addAll(task); // takes a checkpoint: the task has one
            CompletableFuture<TaskSnapshot> f = null;
            for (int i = 0; i < 1_000 && f == null; i++) {
                f = task.trySnapshot(root.resolve("s"), 2, io);
                task.process(fx.row(new long[] {i, 1_700_000_000_000L + i, i % 7, 1}), i);
            }
            assertThat(f).isNotNull();
            TaskSnapshot s = f.join();
            assertThat(s.manifest().snapshotId()).isEqualTo(2);
            // the manifest's bytes of each file are as they were, however much the live segment grew since
            for (int i = 0; i < 2_000; i++) {
                task.process(fx.row(new long[] {10_000 + i, 1_700_000_100_000L + i, i % 7, 1}), 1_000 + i);
            }
            for (SnapshotFile file : s.manifest().files()) {
                assertThat(Files.size(s.path(file))).as(file.name()).isGreaterThanOrEqualTo(file.size());
                assertThat(FileChecksum.of(s.path(file), file.size())).as(file.name()).isEqualTo(file.crc32c());
            }
        }
    }

    private static Path tempDir() {
        try {
            return Files.createTempDirectory("railgun-snapshot");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
