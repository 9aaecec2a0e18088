package io.railgun.engine.reservoir.disk;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.reservoir.ReservoirCursor;
import java.lang.reflect.Field;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Chunk arrays go back to the {@link ChunkPool} only when nothing can read them any more: the cases
 * a review of their reuse found (surefire runs with assertions on, so the pool overwrites a released
 * set and fails on a set released twice: a chunk read after its release reads garbage).
 */
class ChunkReuseTest {
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

    /** Queues writes until {@link #runAll} (like ManualExecutor), runs them directly once released (for close). */
    static final class HeldWrites implements java.util.concurrent.Executor {
        private final ManualExecutor queue = new ManualExecutor();
        private volatile boolean direct;

        @Override
        public void execute(Runnable command) {
            if (direct) {
                command.run();
            } else {
                queue.execute(command);
            }
        }

        void runAll() {
            queue.runAll();
        }

        void release() {
            direct = true;
            queue.runAll();
        }
    }

    static ChunkPool poolOf(DiskReservoir r) throws ReflectiveOperationException {
        Field f = DiskReservoir.class.getDeclaredField("open");
        f.setAccessible(true);
        return ((OpenRegion) f.get(r)).pool;
    }

    static void waitFor(BooleanSupplier condition) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out");
            }
            Thread.onSpinWait();
        }
    }

    private static boolean inFetchAwait(Thread t) {
        if (t.getState() != Thread.State.WAITING) {
            return false;
        }
        for (StackTraceElement e : t.getStackTrace()) {
            if (e.getClassName().equals(ChunkFetch.class.getName()) && e.getMethodName().equals("await")) {
                return true;
            }
        }
        return false;
    }

    /**
     * A cursor stalls on a prefetch a reader
     * is running and takes its chunk X; X then leaves the cursor and is evicted (released) by a
     * written chunk cached for another cursor, in trim() before trim drains the arrivals. The
     * arrival of that prefetch must not cache X again. Deterministic: the reader is held inside
     * the fetch by holding the pool's monitor. (X was cached again and released twice: two later
     * chunks were cut into the same arrays, and chunk 3 written with chunk 5's body.)
     */
    @Test
    @Timeout(60)
    void aPrefetchAStalledCursorTookIsNotCachedAgainAfterItsChunkWasReleased() throws Exception {
        HeldWrites writes = new HeldWrites();
        Thread[] readerThread = new Thread[1];
        ExecutorService reads = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "review-reader");
            t.setDaemon(true);
            readerThread[0] = t;
            return t;
        });
        DiskReservoir r = DiskReservoir.open(dir, chunksOf(10).withCache(1, 1 << 20), writes, reads);
        try {
            for (int i = 0; i < 30; i++) {
                r.insert(i, i, row(i));
            }
            r.advanceWatermark(20); // chunks 0 (ts 0..9) and 1 (10..19)
            writes.runAll();
            r.stats(); // popped: their arrays go to the pool
            ReservoirCursor b = r.openCursor(19); // in the open region, where chunk 2 will be cut

            ChunkPool pool = poolOf(r);
            CountDownLatch held = new CountDownLatch(1);
            CountDownLatch letGo = new CountDownLatch(1);
            Thread holder = new Thread(() -> {
                synchronized (pool) {
                    held.countDown();
                    try {
                        letGo.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            holder.start();
            held.await();
            ReservoirCursor a = r.openCursor(-1); // prefetches chunk 0: the reader blocks in pool.take
            waitFor(() -> readerThread[0] != null && readerThread[0].getState() == Thread.State.BLOCKED);
            Thread task = Thread.currentThread();
            Thread releaser = new Thread(() -> {
                waitFor(() -> inFetchAwait(task));
                letGo.countDown();
            });
            releaser.start();
            List<Long> seenA = new ArrayList<>();
            a.advanceTo(9, (t, s, row) -> seenA.add(t)); // stalls, waits for the running fetch: its chunk X
            assertThat(seenA).containsExactly(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
            reads.submit(() -> {}).get(); // the prefetch of chunk 1 has arrived too (not drained)

            r.advanceWatermark(30); // cuts chunk 2 (20..29)
            writes.runAll();
            // drainWrites: chunk 2 cached for b, evicting X (a left it): X released; then drainArrivals
            r.trim();

            for (int i = 30; i < 60; i++) {
                r.insert(i, i, row(i));
            }
            r.advanceWatermark(60); // cuts chunks 3, 4, 5 from pooled arrays
            writes.runAll();
            r.stats();

            List<Long> seen = new ArrayList<>();
            ReservoirCursor c = r.openCursor(-1);
            c.advanceTo(59, (t, s, row) -> seen.add(t));
            assertThat(seen).containsExactlyElementsOf(LongStream.range(0, 60).boxed().toList());
            a.close();
            b.close();
            c.close();
        } finally {
            writes.release();
            r.close();
            reads.shutdownNow();
        }
    }

    /**
     * A sink that closes its own cursor, then lets another cursor read a chunk: the closed cursor
     * stops (its chunk went back to the pool, and holds the other chunk now) instead of handing over
     * that chunk's events as its own. No engine code closes a cursor inside its own sink.
     */
    @Test
    void aSinkClosingItsOwnCursorStopsIt() {
        try (DiskReservoir r = DiskReservoir.open(dir, chunksOf(10).withCache(0, 1 << 20), Runnable::run, Runnable::run)) {
            for (int i = 0; i < 40; i++) {
                r.insert(i, i, row(i));
            }
            r.advanceWatermark(40);
            r.flush();
            ReservoirCursor a = r.openCursor(-1);
            ReservoirCursor other = r.openCursor(19);
            List<Long> seen = new ArrayList<>();
            a.advanceTo(100, (t, s, row) -> {
                seen.add(t);
                if (t == 0) {
                    a.close();
                    other.advanceTo(25, (t2, s2, r2) -> {});
                }
            });
            assertThat(seen).containsExactly(0L);
            other.close();
        }
    }

    /** Cursors closed after their reservoir give nothing back (two in one chunk released it twice). */
    @Test
    void closingTwoCursorsInOneChunkAfterTheReservoirReleasesNothing() {
        DiskReservoir r = DiskReservoir.open(dir, chunksOf(10).withCache(4, 1 << 20), Runnable::run, Runnable::run);
        for (int i = 0; i < 40; i++) {
            r.insert(i, i, row(i));
        }
        r.advanceWatermark(40);
        r.flush();
        ReservoirCursor a = r.openCursor(-1);
        ReservoirCursor b = r.openCursor(-1);
        a.advanceTo(4, (t, s, row) -> {});
        b.advanceTo(4, (t, s, row) -> {}); // both in chunk 0: one cached object
        r.close();
        a.close();
        b.close();
    }
}
