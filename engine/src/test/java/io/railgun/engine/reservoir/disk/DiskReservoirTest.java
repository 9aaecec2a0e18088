package io.railgun.engine.reservoir.disk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.reservoir.EventSink;
import io.railgun.engine.reservoir.InMemoryReservoir;
import io.railgun.engine.reservoir.ReservoirCursor;
import io.railgun.engine.reservoir.disk.TestRows.Ev;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DiskReservoirTest {
    private static final Executor DIRECT = Runnable::run;

    private final Path dir = TestRows.tempDir();
    private final TestRows rows = new TestRows();

    @AfterEach
    void deleteDirectory() {
        TestRows.deleteRecursively(dir);
    }

    private DiskReservoirOptions chunksOf(int eventsPerChunk) {
        return rows.chunksOf(eventsPerChunk);
    }

    private EventRow row(long n) {
        return rows.fixedRow(n);
    }

    /**
     * Closing chunks reuses the arrays of chunks already written (ChunkPool): once the pool is
     * warm, inserting events and closing them into chunks allocates nothing on the task's thread.
     */
    @Test
    void closingChunksInSteadyStateAllocatesNothing() {
        com.sun.management.ThreadMXBean bean =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        EventRow row = row(1234);
        try (DiskReservoir r = DiskReservoir.open(dir, chunksOf(1000))) { // about 30 KiB chunks
            long before = 0;
            int events = 400_000;
            for (int i = 0; i < events; i++) {
                if (i == events / 2) {
                    before = bean.getCurrentThreadAllocatedBytes();
                }
                r.insert(i, i, row);
                r.advanceWatermark(i);
                if (i % 5000 == 0) {
                    // let the background writer keep up, as it does on a machine not shared with 8 others
                    // (trim picks up the chunks written); a writer far behind holds more chunks than the pool
                    while (r.stats().pendingChunks() > 1) {
                        LockSupport.parkNanos(100_000);
                        r.trim();
                    }
                }
            }
            long perEvent = (bean.getCurrentThreadAllocatedBytes() - before) / (events / 2);
            // (what is left is per chunk: its Chunk, PendingChunk and index entry, a few hundred bytes)
            assertThat(perEvent).as("bytes allocated per event while closing %d chunks", events / 2000).isLessThan(2);
        }
    }

    @Test
    void chunksCloseOnlyOnceTheWatermarkPassesThemAndTheyAreFull() {
        try (DiskReservoir r = DiskReservoir.open(dir, chunksOf(10), DIRECT, DIRECT)) {
            for (int i = 0; i < 25; i++) {
                r.insert(i, i, row(i));
            }
            r.advanceWatermark(5);
            assertThat(r.stats().openEvents()).as("5 final events: no full chunk yet").isEqualTo(25);
            r.advanceWatermark(15);
            assertThat(r.stats().openEvents()).isEqualTo(15);
            r.insert(15, 25, row(25)); // late but at the watermark: still accepted
            r.advanceWatermark(100);
            assertThat(r.stats().openEvents()).as("6 final events left, below the target").isEqualTo(6);
            // second chunk: ts 10..14, 15 (seq 15), 15 (seq 25, arrived later), 16..18
            assertThat(r.persistedPosition()).isEqualTo(new PersistedPosition(18, 18, 25));
            assertThatThrownBy(() -> r.insert(99, 26, row(26))).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("below the reservoir watermark 100");
            PersistedPosition flushed = r.flush();
            assertThat(r.stats().openEvents()).isZero();
            assertThat(flushed).isEqualTo(new PersistedPosition(24, 24, 25));
        }
        try (DiskReservoir r = DiskReservoir.open(dir, chunksOf(10), DIRECT, DIRECT)) {
            assertThat(r.watermark()).as("restored to the last persisted timestamp").isEqualTo(24);
            assertThat(r.persistedPosition()).isEqualTo(new PersistedPosition(24, 24, 25));
            assertThat(r.size()).isEqualTo(26);
        }
    }

    @Test
    void aChunkHoldsOneSchemaAndOldRowsReadFieldsAddedLaterAsNull() throws IOException {
        try (DiskReservoir r = DiskReservoir.open(dir, DiskReservoirOptions.defaults(), DIRECT, DIRECT)) {
            for (int i = 0; i < 9; i++) {
                r.insert(i, i, rows.row(i, 3, i >= 3 && i < 6)); // V1, V2, V1
            }
            r.advanceWatermark(100);
            r.flush();
        }
        List<SegmentRecovery.RecoveredChunk> chunks = SegmentRecovery.recover(dir).chunks();
        assertThat(chunks).extracting(SegmentRecovery.RecoveredChunk::schemaId).containsExactly(1, 2, 1);
        assertThat(chunks).extracting(SegmentRecovery.RecoveredChunk::count).containsExactly(3, 3, 3);
        try (DiskReservoir r = DiskReservoir.open(dir, DiskReservoirOptions.defaults(), DIRECT, DIRECT)) {
            List<String> xs = new ArrayList<>();
            r.openCursor(Long.MIN_VALUE).advanceTo(100, (t, s, row) -> {
                assertThat(row.getLong(0)).isEqualTo(s);
                xs.add(row.isNull(2) ? "null" : Double.toString(row.getDouble(2)));
            });
            assertThat(xs).containsExactly("null", "null", "null", "1.5", "2.0", "2.5", "null", "null", "null");
        }
    }

    /**
     * Chunks read back for a long window's tail, and chunks kept in the cache for a short window's
     * cursor, give their arrays back to the pool when they leave the cache or the cursor: once it
     * is warm, reading and closing chunks allocates nothing per event (before, every chunk read or
     * evicted was garbage: FRAUD's windows, 186 bytes per event).
     */
    @Test
    void readingChunksBackInSteadyStateAllocatesNothing() {
        com.sun.management.ThreadMXBean bean =
                (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
        EventRow row = row(1234);
        try (DiskReservoir r = DiskReservoir.open(dir, chunksOf(1000).withCache(4, 1 << 20), DIRECT, DIRECT)) {
            ReservoirCursor shortWindow = r.openCursor(-1);
            ReservoirCursor longWindow = r.openCursor(-1);
            long[] passed = new long[1];
            EventSink count = (t, s, e) -> passed[0]++;
            long before = 0;
            int events = 300_000;
            for (int i = 0; i < events; i++) {
                if (i == events / 2) {
                    before = bean.getCurrentThreadAllocatedBytes();
                }
                r.insert(i, i, row);
                r.advanceWatermark(i);
                shortWindow.advanceTo(i - 1_500, count); // in the last chunks written (kept in the cache)
                longWindow.advanceTo(i - 20_000, count); // reads chunks back from disk
                r.trim();
            }
            long perEvent = (bean.getCurrentThreadAllocatedBytes() - before) / (events / 2);
            assertThat(passed[0]).isEqualTo(2L * events - 21_500);
            // (what is left is per chunk: its Chunk, PendingChunk and index entry, a few hundred bytes)
            assertThat(perEvent).as("bytes allocated per event while reading back %d chunks", events / 2000).isLessThan(2);
        }
    }

    @Test
    void countsHitsMissesPrefetchesAndStalls() {
        ManualExecutor reads = new ManualExecutor();
        DiskReservoirOptions options = chunksOf(10).withCache(4, 1 << 20);
        try (DiskReservoir r = DiskReservoir.open(dir, options, DIRECT, DIRECT)) {
            for (int i = 0; i < 100; i++) {
                r.insert(i, i, row(i));
            }
            r.advanceWatermark(1_000);
            r.flush(); // 10 chunks of 10 events, ts 0..99
        }
        try (DiskReservoir r = DiskReservoir.open(dir, options, DIRECT, reads)) {
            ReservoirCursor a = r.openCursor(-1); // prefetches chunk 0
            assertStats(r, 0, 0, 1, 1, 0);
            a.advanceTo(4, (t, s, row) -> {}); // chunk 0 not arrived: stall; prefetches chunk 1
            assertStats(r, 1, 0, 3, 2, 1);
            assertThat(reads.runAll()).isEqualTo(2);
            a.advanceTo(14, (t, s, row) -> {}); // chunk 1 prefetched: hit; prefetches chunk 2
            assertStats(r, 2, 1, 4, 3, 1);
            a.advanceTo(24, (t, s, row) -> {}); // chunk 2 still in flight: stall; prefetches chunk 3
            assertStats(r, 3, 1, 6, 4, 2);
            ReservoirCursor b = r.openCursor(-1); // an aligned cursor: chunk 0 is cached
            assertStats(r, 3, 2, 6, 4, 2);
            b.advanceTo(14, (t, s, row) -> {}); // enters 0 and 1 (hits); their next chunks are cached (hits)
            assertStats(r, 5, 6, 6, 4, 2);
            assertThat(reads.runAll()).isEqualTo(2);
            a.advanceTo(39, (t, s, row) -> {}); // chunk 3 arrived: hit; prefetches 4; does not enter 4 yet
            assertStats(r, 6, 7, 7, 5, 2);
            assertThat(r.stats().chunksInCache()).isEqualTo(4);
            assertThat(r.stats().memoryHitRate()).isEqualTo(1 - 2.0 / 6);
        }
    }

    private static void assertStats(DiskReservoir r, long entries, long hits, long misses, long prefetches, long stalls) {
        ReservoirStats s = r.stats();
        assertThat(new long[] {s.chunkEntries(), s.hits(), s.misses(), s.prefetches(), s.stalls()})
                .as("entries, hits, misses, prefetches, stalls")
                .containsExactly(entries, hits, misses, prefetches, stalls);
    }

    /** Within the bound of the pending chunks (8 MiB by default: these are small). */
    @Test
    void insertsAndCursorReadsNeverWaitForABlockedWriter() {
        DiskReservoirOptions options = chunksOf(20).withSegmentMaxBytes(4_096).withCache(2, 1 << 20);
        List<Ev> expected = new ArrayList<>();
        try (GatedExecutor writer = new GatedExecutor()) {
            DiskReservoir r = DiskReservoir.open(dir, options, writer, DIRECT);
            InMemoryReservoir model = new InMemoryReservoir();
            ReservoirCursor[] head = {r.openCursor(Long.MIN_VALUE), model.openCursor(Long.MIN_VALUE)};
            ReservoirCursor[] tail = {r.openCursor(Long.MIN_VALUE), model.openCursor(Long.MIN_VALUE)};
            SplittableRandom random = new SplittableRandom(3);
            assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
                long ts = 0;
                for (int i = 0; i < 3_000; i++) {
                    ts += random.nextInt(3);
                    long t = Math.max(0, ts - random.nextInt(5)); // some late, within the lateness of 5
                    r.insert(t, i, row(i));
                    model.insert(t, i, row(i));
                    expected.add(Ev.of(t, i, row(i)));
                    r.advanceWatermark(ts - 5);
                    advanceBoth(head, ts);
                    advanceBoth(tail, ts - 200);
                    r.trim();
                    model.trim();
                }
            });
            ReservoirStats stats = r.stats();
            assertThat(stats.pendingChunks()).as("closed chunks waiting for the writer").isGreaterThan(50);
            assertThat(stats.bytesOnDisk()).isZero();
            assertThat(stats.stalls()).isZero();
            writer.open();
            r.advanceWatermark(Long.MAX_VALUE);
            r.flush();
            assertThat(r.stats().pendingChunks()).isZero();
            assertThat(r.stats().bytesOnDisk()).isPositive();
            r.close();
        }
        try (DiskReservoir r = DiskReservoir.open(dir, options, DIRECT, DIRECT)) {
            List<Ev> read = new ArrayList<>();
            r.openCursor(Long.MIN_VALUE).advanceTo(Long.MAX_VALUE, (t, s, row) -> read.add(Ev.of(t, s, row)));
            expected.sort(Comparator.comparingLong(Ev::ts).thenComparingLong(Ev::seq));
            assertThat(read).isEqualTo(expected);
        }
    }

    private static void advanceBoth(ReservoirCursor[] pair, long boundary) {
        List<Ev> a = new ArrayList<>();
        List<Ev> b = new ArrayList<>();
        pair[0].advanceTo(boundary, (t, s, row) -> a.add(Ev.of(t, s, row)));
        pair[1].advanceTo(boundary, (t, s, row) -> b.add(Ev.of(t, s, row)));
        assertThat(a).isEqualTo(b);
    }


    /**
     * Back-pressure: with the writer blocked, inserts stop once the chunks waiting for it pass their
     * bound, and go on when it writes again; nothing is lost.
     */
    @Test
    void aBlockedWriterStopsInsertsOnceThePendingChunksPassTheirBound() throws Exception {
        DiskReservoirOptions options = chunksOf(20).withSegmentMaxBytes(4_096).withPendingMaxBytes(16 * 1024);
        int events = 3_000;
        AtomicInteger inserted = new AtomicInteger();
        ReservoirStats stats;
        try (GatedExecutor writer = new GatedExecutor()) {
            DiskReservoir r = DiskReservoir.open(dir, options, writer, DIRECT);
            CompletableFuture<Void> inserts = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < events; i++) {
                    r.insert(i, i, row(i));
                    r.advanceWatermark(i - 5);
                    inserted.incrementAndGet();
                }
            });
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            int seen = -1;
            while (seen != inserted.get() && System.nanoTime() < deadline) { // until they stop
                seen = inserted.get();
                Thread.sleep(200);
            }
            assertThat(inserts).as("inserts wait for the blocked writer").isNotDone();
            assertThat(inserted.get()).isBetween(1, events - 1);
            writer.open();
            inserts.get(20, TimeUnit.SECONDS);
            stats = r.stats();
            r.advanceWatermark(Long.MAX_VALUE);
            r.flush();
            r.close();
        }
        assertThat(stats.writeWaits()).as("waits for the writer").isPositive();
        assertThat(stats.writeWaitNanos()).isPositive();
        try (DiskReservoir r = DiskReservoir.open(dir, options, DIRECT, DIRECT)) {
            List<Long> read = new ArrayList<>();
            r.openCursor(Long.MIN_VALUE).advanceTo(Long.MAX_VALUE, (t, s, row) -> read.add(s));
            assertThat(read).hasSize(events);
            for (int i = 0; i < events; i++) {
                assertThat(read.get(i)).isEqualTo(i);
            }
        }
    }
    @Test
    void trimDeletesWholeSealedFilesEveryCursorHasPassedButNeverTheActiveOne() throws IOException {
        // stored as is: 4 chunks of 10 rows per file
        DiskReservoirOptions options = chunksOf(10).withSegmentMaxBytes(2_000).withCodec(ChunkCodec.NONE);
        try (DiskReservoir r = DiskReservoir.open(dir, options, DIRECT, DIRECT)) {
            ReservoirCursor slow = r.openCursor(Long.MIN_VALUE);
            for (int i = 0; i < 1_000; i++) {
                r.insert(i, i, row(i));
            }
            r.advanceWatermark(1_000);
            r.flush();
            int files = segmentFiles();
            assertThat(files).isEqualTo(25);
            r.trim();
            r.writerIdle().join();
            assertThat(segmentFiles()).as("the slow cursor needs them all").isEqualTo(files);
            slow.advanceTo(499, (t, s, row) -> {});
            r.trim();
            r.writerIdle().join();
            int left = segmentFiles();
            assertThat(left).as("files of chunks 0..47 deleted, chunk 49 is in the next").isEqualTo(13);
            List<Long> seen = new ArrayList<>();
            ReservoirCursor late = r.openCursor(499);
            late.advanceTo(600, (t, s, row) -> seen.add(t));
            assertThat(seen).hasSize(101).startsWith(500L);
            late.close();
            slow.close();
            r.trim();
            r.writerIdle().join();
            assertThat(segmentFiles()).as("the active file stays").isEqualTo(1);
            assertThat(r.stats().segments()).isEqualTo(1);
            assertThat(r.persistedPosition().seq()).isEqualTo(999);
        }
    }

    private int segmentFiles() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return (int) s.filter(p -> p.toString().endsWith(SegmentDescriptor.FILE_SUFFIX)).count();
        }
    }

    @Test
    void memoryDoesNotGrowWithTheWindowLength() {
        long minute = 60_000;
        long oneMinuteWindow = peakMemory(dir.resolve("short"), minute);
        long oneDayWindow = peakMemory(dir.resolve("long"), 24 * 60 * minute);
        assertThat(oneDayWindow).isLessThan(oneMinuteWindow * 2 + 256 * 1024);
    }

    /** Peak {@link DiskReservoir#memoryBytes()} over 100k events, one every ~1.5 s, with a window of {@code windowMs}. */
    private long peakMemory(Path directory, long windowMs) {
        DiskReservoirOptions options = DiskReservoirOptions.defaults().withChunkTargetBytes(16 * 1024)
                .withSegmentMaxBytes(1 << 20).withCache(8, 1 << 20);
        long peak = 0;
        try (DiskReservoir r = DiskReservoir.open(directory, options)) {
            ReservoirCursor head = r.openCursor(Long.MIN_VALUE);
            ReservoirCursor tail = r.openCursor(Long.MIN_VALUE);
            SplittableRandom random = new SplittableRandom(11);
            long ts = 0;
            long held = 0;
            for (int i = 0; i < 100_000; i++) {
                ts += random.nextInt(3_000);
                r.insert(ts, i, rows.row(i, random.nextInt(40), false));
                r.advanceWatermark(ts - 10_000);
                head.advanceTo(ts, (t, s, row) -> {});
                tail.advanceTo(ts - windowMs, (t, s, row) -> {});
                r.trim();
                if (i % 1_000 == 0) {
                    // a writer that keeps up (here the producer outruns it): chunks waiting for
                    // their write depend on the write rate, not on the window
                    r.writerIdle().join();
                    peak = Math.max(peak, r.memoryBytes());
                    held = Math.max(held, r.size());
                }
            }
            if (windowMs > 60_000) {
                assertThat(held).as("a day of events stays on disk").isGreaterThan(50_000);
            }
        }
        return peak;
    }

    @Test
    void aFileOfAnotherFormatVersionIsRejectedNotCut() throws IOException {
        try (DiskReservoir r = DiskReservoir.open(dir, DiskReservoirOptions.defaults(), DIRECT, DIRECT)) {
            r.insert(1, 0, row(0));
            r.advanceWatermark(2);
            r.flush();
        }
        Path file = dir.resolve(SegmentDescriptor.fileName(0));
        byte[] bytes = Files.readAllBytes(file);
        SegmentDescriptor.SHORT.set(bytes, SegmentDescriptor.FILE_VERSION_OFFSET, (short) 2);
        SegmentDescriptor.INT.set(bytes, SegmentDescriptor.FILE_CRC_OFFSET,
                SegmentDescriptor.crc(bytes, 0, SegmentDescriptor.FILE_CRC_OFFSET));
        Files.write(file, bytes, StandardOpenOption.TRUNCATE_EXISTING);
        assertThatThrownBy(() -> DiskReservoir.open(dir, DiskReservoirOptions.defaults(), DIRECT, DIRECT))
                .isInstanceOf(ReservoirFormatException.class)
                .hasMessageContaining("format version 2; this build reads version 1");
        assertThat(Files.size(file)).isEqualTo(bytes.length);
    }

    @Test
    void closeKeepsClosedChunksAndDropsTheOpenRegion() {
        try (DiskReservoir r = DiskReservoir.open(dir, chunksOf(10), DIRECT, DIRECT)) {
            for (int i = 0; i < 35; i++) {
                r.insert(i, i, row(i));
            }
            r.advanceWatermark(32);
        } // 3 chunks closed; events 30..34 lost by design
        try (DiskReservoir r = DiskReservoir.open(dir, chunksOf(10), DIRECT, DIRECT)) {
            assertThat(r.persistedPosition()).isEqualTo(new PersistedPosition(29, 29, 29));
            assertThat(r.size()).isEqualTo(30);
        }
    }
}
