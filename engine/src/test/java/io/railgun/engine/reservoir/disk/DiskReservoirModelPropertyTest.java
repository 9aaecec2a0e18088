package io.railgun.engine.reservoir.disk;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.reservoir.InMemoryReservoir;
import io.railgun.engine.reservoir.ReservoirCursor;
import io.railgun.engine.reservoir.disk.TestRows.Ev;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.RandomDistribution;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.statistics.Statistics;

/**
 * Model-based test: random operations (inserts moving forward with gaps and some late ones,
 * watermark steps, cursors opened at random boundaries, advanced and skipped forward (a skip passes
 * chunks without reading them: what the cursor delivers after it must not change), trims, flushes, and restarts
 * from the directory) run against the {@link DiskReservoir} and the {@link InMemoryReservoir} side
 * by side; every cursor must deliver the same (timestamp, seq, row bytes) sequence. Chunks and
 * files are tiny so they roll constantly, and the cache is smaller than the cursors so prefetched
 * chunks get evicted and cursors stall.
 *
 * <p>Two things the in-memory model cannot mirror are kept out of the comparison by construction:
 * the disk reservoir trims whole files only (so cursors are opened at or after the trim frontier:
 * the largest boundary behind which the model has discarded events), and a restart loses the open
 * region by design (so after a reopen the events after the persisted position are replayed, as the
 * task will do from Kafka, and the model is rebuilt with every event).
 */
class DiskReservoirModelPropertyTest {
    private static final ExecutorService WRITER = Executors.newSingleThreadExecutor(daemon("model-writer"));
    private static final ExecutorService READER = Executors.newFixedThreadPool(2, daemon("model-reader"));

    sealed interface Op {}

    record Insert(int gap, boolean late, int lateBy, int text, boolean v2) implements Op {}

    record Watermark(int behind) implements Op {}

    record Open(int behind) implements Op {}

    record Advance(int pick, int step) implements Op {}

    record Skip(int pick, int step) implements Op {}

    record CloseCursor(int pick) implements Op {}

    record Trim(boolean evenWithoutCursors) implements Op {}

    record Flush() implements Op {}

    record Reopen(boolean flushFirst) implements Op {}

    @Property(tries = 120)
    void everyCursorDeliversWhatTheInMemoryReservoirDelivers(
            @ForAll("operations") List<Op> ops,
            @ForAll @IntRange(min = 1, max = 400) int chunkTargetBytes,
            @ForAll @IntRange(min = 120, max = 1500) int segmentMaxBytes,
            @ForAll @IntRange(min = 0, max = 3) int cacheChunks,
            @ForAll @IntRange(min = 0, max = 2) int codec,
            @ForAll boolean asyncIo) {
        DiskReservoirOptions options = DiskReservoirOptions.defaults()
                .withChunkTargetBytes(chunkTargetBytes)
                .withSegmentMaxBytes(segmentMaxBytes)
                .withCache(cacheChunks, 1 << 20)
                .withCodec(ChunkCodec.values()[codec]);
        Executor writer = asyncIo ? WRITER : Runnable::run;
        Executor reader = asyncIo ? READER : Runnable::run;
        Path dir = TestRows.tempDir();
        try (Run run = new Run(dir, options, writer, reader)) {
            for (Op op : ops) {
                run.apply(op);
            }
            run.checkEverythingFromFrontier();
            ReservoirStats stats = run.disk.stats();
            assertThat(stats.misses()).isEqualTo(stats.prefetches() + stats.stalls());
            Statistics.label("chunks entered").collect(bucket(stats.chunkEntries()));
            Statistics.label("stalls").collect(bucket(stats.stalls()));
            Statistics.label("prefetches").collect(bucket(stats.prefetches()));
            Statistics.label("reopens").collect(bucket(run.reopens));
        } finally {
            TestRows.deleteRecursively(dir);
        }
    }

    private static String bucket(long n) {
        return n == 0 ? "0" : n < 10 ? "1-9" : n < 100 ? "10-99" : "100+";
    }

    @Provide
    Arbitrary<List<Op>> operations() {
        Arbitrary<Op> insert = Combinators.combine(
                Arbitraries.integers().between(0, 20),
                Arbitraries.integers().between(0, 9).map(i -> i < 2),
                Arbitraries.integers().between(0, 60),
                Arbitraries.integers().between(0, 40),
                Arbitraries.integers().between(0, 19).map(i -> i == 0)).as(Insert::new).map(Op.class::cast);
        Arbitrary<Op> watermark = Arbitraries.integers().between(0, 60).map(Watermark::new);
        Arbitrary<Op> open = Arbitraries.integers().between(-5, 1500).map(Open::new);
        Arbitrary<Op> advance = Combinators.combine(Arbitraries.integers().between(0, 99), Arbitraries.integers().between(0, 60))
                .as(Advance::new).map(Op.class::cast);
        Arbitrary<Op> skip = Combinators.combine(Arbitraries.integers().between(0, 99), Arbitraries.integers().between(0, 200))
                .as(Skip::new).map(Op.class::cast);
        Arbitrary<Op> close = Arbitraries.integers().between(0, 99).map(CloseCursor::new);
        Arbitrary<Op> trim = Arbitraries.integers().between(0, 9).map(i -> new Trim(i == 0));
        Arbitrary<Op> flush = Arbitraries.just(new Flush());
        Arbitrary<Op> reopen = Arbitraries.of(true, false).map(Reopen::new);
        return Arbitraries.frequencyOf(
                        Tuple.of(40, insert),
                        Tuple.of(10, watermark),
                        Tuple.of(6, open),
                        Tuple.of(25, advance),
                        Tuple.of(8, skip),
                        Tuple.of(2, close),
                        Tuple.of(6, trim),
                        Tuple.of(1, flush),
                        Tuple.of(2, reopen))
                .list().ofMinSize(1).ofMaxSize(600).withSizeDistribution(RandomDistribution.uniform());
    }

    @AfterContainer
    static void stopThreads() {
        WRITER.shutdown();
        READER.shutdown();
    }

    /** The two reservoirs, their paired cursors and what the generator must respect. */
    private static final class Run implements AutoCloseable {
        private final Path dir;
        private final DiskReservoirOptions options;
        private final Executor writer;
        private final Executor reader;
        private final TestRows rows = new TestRows();
        private final List<Ev> events = new ArrayList<>(); // every event, in arrival order
        private final List<ReservoirCursor[]> cursors = new ArrayList<>();
        DiskReservoir disk;
        private InMemoryReservoir model = new InMemoryReservoir();
        private long maxTs = 1_000;
        private long watermark = Long.MIN_VALUE;
        /** Cursors are opened at or after it: the model may have discarded events behind it. */
        private long frontier = Long.MIN_VALUE;
        private long nextSeq;
        int reopens;

        Run(Path dir, DiskReservoirOptions options, Executor writer, Executor reader) {
            this.dir = dir;
            this.options = options;
            this.writer = writer;
            this.reader = reader;
            this.disk = DiskReservoir.open(dir, options, writer, reader);
        }

        void apply(Op op) {
            switch (op) {
                case Insert i -> insert(i);
                case Watermark w -> {
                    long wm = maxTs - w.behind();
                    if (wm > watermark) {
                        watermark = wm;
                        disk.advanceWatermark(wm);
                        model.advanceWatermark(wm);
                    }
                }
                case Open o -> {
                    long boundary = Math.max(frontier, maxTs - o.behind());
                    cursors.add(new ReservoirCursor[] {disk.openCursor(boundary), model.openCursor(boundary)});
                }
                case Advance a -> {
                    if (!cursors.isEmpty()) {
                        ReservoirCursor[] pair = cursors.get(a.pick() % cursors.size());
                        advance(pair, pair[1].boundary() + a.step());
                    }
                }
                case Skip k -> {
                    if (!cursors.isEmpty()) {
                        ReservoirCursor[] pair = cursors.get(k.pick() % cursors.size());
                        long boundary = pair[1].boundary() + k.step();
                        pair[0].skipTo(boundary);
                        pair[1].skipTo(boundary);
                        assertThat(pair[0].boundary()).isEqualTo(pair[1].boundary());
                    }
                }
                case CloseCursor c -> {
                    if (!cursors.isEmpty()) {
                        ReservoirCursor[] pair = cursors.remove(c.pick() % cursors.size());
                        pair[0].close();
                        pair[1].close();
                    }
                }
                case Trim t -> {
                    if (cursors.isEmpty() && !t.evenWithoutCursors()) {
                        return; // keeps most runs from discarding everything
                    }
                    disk.trim();
                    model.trim();
                    long min = maxTs;
                    for (ReservoirCursor[] pair : cursors) {
                        min = Math.min(min, pair[1].boundary());
                    }
                    frontier = Math.max(frontier, cursors.isEmpty() ? maxTs : min);
                }
                case Flush f -> {
                    PersistedPosition p = disk.flush();
                    for (Ev e : events) {
                        if (e.ts() < watermark) {
                            assertThat(p.covers(e.ts(), e.seq())).as("flushed %s", e).isTrue();
                        }
                    }
                }
                case Reopen r -> reopen(r.flushFirst());
            }
        }

        private void insert(Insert i) {
            long ts = i.late() ? Math.max(watermark, maxTs - i.lateBy()) : maxTs + i.gap();
            ts = Math.max(ts, watermark);
            long seq = nextSeq++;
            EventRow row = rows.row(seq, i.text(), i.v2());
            events.add(Ev.of(ts, seq, row));
            disk.insert(ts, seq, row);
            model.insert(ts, seq, row);
            maxTs = Math.max(maxTs, ts);
        }

        private void advance(ReservoirCursor[] pair, long boundary) {
            List<Ev> fromDisk = new ArrayList<>();
            List<Ev> fromModel = new ArrayList<>();
            pair[0].advanceTo(boundary, (t, s, row) -> fromDisk.add(Ev.of(t, s, row)));
            pair[1].advanceTo(boundary, (t, s, row) -> fromModel.add(Ev.of(t, s, row)));
            assertThat(fromDisk).isEqualTo(fromModel);
            assertThat(pair[0].boundary()).isEqualTo(pair[1].boundary());
        }

        /** Restarts from the directory; replays what was not persisted, as the task will from Kafka. */
        private void reopen(boolean flushFirst) {
            if (flushFirst) {
                disk.flush();
            }
            disk.close();
            cursors.clear();
            reopens++;
            disk = DiskReservoir.open(dir, options, writer, reader);
            assertThat(disk.recoveryCuts()).isEmpty();
            PersistedPosition persisted = disk.persistedPosition();
            model = new InMemoryReservoir();
            for (Ev e : events) {
                EventRow row = rowOf(e);
                model.insert(e.ts(), e.seq(), row);
                if (!persisted.covers(e.ts(), e.seq())) {
                    disk.insert(e.ts(), e.seq(), row);
                }
            }
            if (watermark > Long.MIN_VALUE) {
                disk.advanceWatermark(watermark);
                model.advanceWatermark(watermark);
            }
        }

        private static EventRow rowOf(Ev e) {
            return new EventRow().wrap(HexFormat.of().parseHex(e.row()), 0);
        }

        /** A last cursor from the frontier to the end sees the same events in both. */
        void checkEverythingFromFrontier() {
            advance(new ReservoirCursor[] {disk.openCursor(frontier), model.openCursor(frontier)}, Long.MAX_VALUE);
        }

        @Override
        public void close() {
            disk.close();
            model.close();
        }
    }

    private static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }
}
