package io.railgun.bench.reservoir;

import io.railgun.bench.data.EventBatch;
import io.railgun.bench.data.PaymentGenerator;
import io.railgun.engine.event.EventRow;
import io.railgun.engine.reservoir.EventSink;
import io.railgun.engine.reservoir.ReservoirCursor;
import io.railgun.engine.reservoir.disk.ChunkCodec;
import io.railgun.engine.reservoir.disk.DiskReservoir;
import io.railgun.engine.reservoir.disk.DiskReservoirOptions;
import io.railgun.engine.reservoir.disk.ReservoirStats;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Measures the on-disk reservoir on payment rows of {@link PaymentGenerator} (not in CI):
 *
 * <ol>
 *   <li>codecs on chunk bodies laid out as in {@code SegmentDescriptor} (64 KiB): compression
 *       ratio, bytes per event, compress and decompress MB/s (of uncompressed bytes, best of 3);
 *   <li>the reservoir with each codec: insert + head/tail cursors (a 10-minute window) + watermark
 *       + trim per event, in events/s; then bytes on disk per event, and a full scan from disk;
 *   <li>E5-like: many misaligned tail cursors against a cache of 220 chunks: events/s, stalls and
 *       the share of chunk entries served from memory.
 * </ol>
 *
 * Events go in as fast as the task's thread can take them, so on a small machine the writer falls
 * behind ("peak pending MB": closed chunks waiting for their write, held in memory) and prefetches
 * race the cursors; at production rates both have orders of magnitude more time.
 *
 * <pre>
 * ./mvnw -q -pl bench -am package -Dmaven.test.skip=true
 * java -Xmx4g -cp "bench/target/classes:$(cat bench/target/classpath.txt)" \
 *     io.railgun.bench.reservoir.ReservoirBench [--events N] [--dir PATH]
 * </pre>
 */
public final class ReservoirBench {
    private static final int CHUNK_BYTES = 64 * 1024;

    private ReservoirBench() {}

    public static void main(String[] args) throws IOException {
        int events = 1_000_000;
        Path base = Path.of(System.getProperty("java.io.tmpdir"));
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--events" -> events = Integer.parseInt(args[++i]);
                case "--dir" -> base = Path.of(args[++i]);
                default -> throw new IllegalArgumentException("usage: ReservoirBench [--events N] [--dir PATH]");
            }
        }
        System.out.printf(Locale.ROOT, "generating %,d payments ...%n", events);
        PaymentGenerator gen = new PaymentGenerator(PaymentGenerator.Options.defaults().withCards(100_000));
        EventBatch batch = EventBatch.generate(gen, events);
        long[] ts = timestamps(batch);
        long rowBytes = rowBytes(batch);
        System.out.printf(Locale.ROOT, "rows: %.1f bytes per event; %.0f s of event time%n",
                (double) rowBytes / events, (ts[events - 1] - ts[0]) / 1000.0);

        codecs(batch, ts);
        Path dir = Files.createTempDirectory(base, "reservoir-bench");
        try {
            System.out.println();
            System.out.printf(Locale.ROOT, "%-10s %14s %12s %10s %14s %10s %16s%n",
                    "codec", "insert ev/s", "disk B/ev", "ratio", "scan ev/s", "heap MB", "peak pending MB");
            long noneBytes = 0;
            for (ChunkCodec codec : new ChunkCodec[] {ChunkCodec.NONE, ChunkCodec.LZ4, ChunkCodec.ZSTD}) {
                // first pass warms the JIT up, the second is reported
                reservoir(dir.resolve(codec + "-warm"), codec, batch, ts, Math.min(events, 200_000), false, 0);
                long bytes = reservoir(dir.resolve(codec.name()), codec, batch, ts, events, true, noneBytes);
                if (codec == ChunkCodec.NONE) {
                    noneBytes = bytes;
                }
            }
            System.out.println();
            System.out.printf(Locale.ROOT, "%-10s %14s %10s %10s %12s %12s %16s%n",
                    "cursors", "events/s", "entries", "stalls", "from memory", "prefetches", "peak pending MB");
            for (int cursors : new int[] {2, 20, 240}) {
                manyCursors(dir.resolve("cursors-" + cursors), batch, ts, events, cursors);
            }
        } finally {
            deleteRecursively(dir);
        }
    }

    /** Codec throughput and ratio on 64 KiB chunk bodies. */
    private static void codecs(EventBatch batch, long[] ts) {
        List<byte[]> bodies = bodies(batch, ts);
        long raw = 0;
        for (byte[] b : bodies) {
            raw += b.length;
        }
        System.out.printf(Locale.ROOT, "%n%d chunk bodies of ~64 KiB, %.1f MB%n", bodies.size(), raw / 1e6);
        System.out.printf(Locale.ROOT, "%-10s %8s %10s %12s %14s%n", "codec", "ratio", "disk B/ev", "comp MB/s", "decomp MB/s");
        Object[][] configs = {{ChunkCodec.LZ4, 0, "lz4"}, {ChunkCodec.LZ4, 9, "lz4-hc9"}, {ChunkCodec.ZSTD, 1, "zstd-1"},
            {ChunkCodec.ZSTD, 3, "zstd-3"}, {ChunkCodec.ZSTD, 6, "zstd-6"}};
        for (Object[] cfg : configs) {
            ChunkCodec codec = (ChunkCodec) cfg[0];
            int level = (int) cfg[1];
            try (ChunkCodec.Compressor c = codec.newCompressor(level); ChunkCodec.Decompressor d = codec.newDecompressor()) {
                byte[][] out = new byte[bodies.size()][];
                int[] lengths = new int[bodies.size()];
                long bestComp = Long.MAX_VALUE;
                long compressed = 0;
                for (int rep = 0; rep < 3; rep++) {
                    compressed = 0;
                    long t0 = System.nanoTime();
                    for (int i = 0; i < bodies.size(); i++) {
                        byte[] b = bodies.get(i);
                        if (out[i] == null) {
                            out[i] = new byte[c.maxCompressedLength(b.length)];
                        }
                        lengths[i] = c.compress(b, 0, b.length, out[i], 0);
                        compressed += lengths[i] + 64; // with the chunk header
                    }
                    bestComp = Math.min(bestComp, System.nanoTime() - t0);
                }
                byte[] scratch = new byte[CHUNK_BYTES * 2];
                long bestDecomp = Long.MAX_VALUE;
                for (int rep = 0; rep < 3; rep++) {
                    long t0 = System.nanoTime();
                    for (int i = 0; i < bodies.size(); i++) {
                        d.decompress(out[i], 0, lengths[i], scratch, 0, bodies.get(i).length);
                    }
                    bestDecomp = Math.min(bestDecomp, System.nanoTime() - t0);
                }
                System.out.printf(Locale.ROOT, "%-10s %8.2f %10.1f %12.0f %14.0f%n", cfg[2], (double) raw / compressed,
                        (double) compressed / batch.size(), raw / 1e6 / (bestComp / 1e9), raw / 1e6 / (bestDecomp / 1e9));
            }
        }
    }

    /**
     * Inserts through a reservoir with a head and a 10-minute tail cursor; prints insert ev/s,
     * disk bytes per event, ratio against {@code noneBytes} (the same events stored as is), scan
     * ev/s of a cursor reading everything back from disk without cache. Returns the bytes on disk.
     */
    private static long reservoir(Path dir, ChunkCodec codec, EventBatch batch, long[] ts, int n, boolean print,
                                  long noneBytes) {
        DiskReservoirOptions options = DiskReservoirOptions.defaults().withCodec(codec);
        EventRow row = new EventRow();
        EventSink sink = (t, s, r) -> {};
        long bytes;
        double insertRate;
        long heap;
        long peakPending = 0;
        try (DiskReservoir r = DiskReservoir.open(dir, options)) {
            ReservoirCursor head = r.openCursor(Long.MIN_VALUE);
            ReservoirCursor tail = r.openCursor(Long.MIN_VALUE);
            r.openCursor(Long.MIN_VALUE); // never advances: trim keeps every file, to count them all
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                long t = ts[i];
                r.insert(t, i, batch.wrap(row, i));
                r.advanceWatermark(t);
                head.advanceTo(t, sink);
                tail.advanceTo(t - 600_000, sink);
                r.trim();
                if (i % 10_000 == 0) {
                    peakPending = Math.max(peakPending, r.stats().pendingBytes());
                }
            }
            insertRate = n / ((System.nanoTime() - t0) / 1e9);
            r.advanceWatermark(Long.MAX_VALUE);
            r.flush();
            bytes = r.stats().bytesOnDisk();
            heap = r.memoryBytes();
        }
        // scan everything back from disk, every chunk a synchronous read
        double scanRate;
        try (DiskReservoir r = DiskReservoir.open(dir, options.withCache(0, 0))) {
            long[] count = {0};
            long t0 = System.nanoTime();
            r.openCursor(Long.MIN_VALUE).advanceTo(Long.MAX_VALUE, (t, s, e) -> count[0]++);
            scanRate = count[0] / ((System.nanoTime() - t0) / 1e9);
        }
        if (print) {
            System.out.printf(Locale.ROOT, "%-10s %,14.0f %12.1f %10s %,14.0f %10.1f %16.1f%n", codec, insertRate,
                    (double) bytes / n, noneBytes == 0 ? "1.00" : String.format(Locale.ROOT, "%.2f", (double) noneBytes / bytes),
                    scanRate, heap / 1e6, peakPending / 1e6);
        }
        return bytes;
    }

    /** E5-like: {@code cursors} edges (heads and tails of misaligned windows) over the same events. */
    private static void manyCursors(Path dir, EventBatch batch, long[] ts, int n, int cursors) {
        DiskReservoirOptions options = DiskReservoirOptions.defaults().withCache(220, 1L << 30);
        EventRow row = new EventRow();
        EventSink sink = (t, s, r) -> {};
        long span = ts[n - 1] - ts[0];
        try (DiskReservoir r = DiskReservoir.open(dir, options)) {
            ReservoirCursor[] cs = new ReservoirCursor[cursors];
            long[] lags = new long[cursors];
            for (int c = 0; c < cursors; c++) {
                cs[c] = r.openCursor(Long.MIN_VALUE);
                // half heads (lag 0 or a small delay), half tails spread over [span/20, span/2]
                lags[c] = c % 2 == 0 ? (c / 2) * 1_000L : span / 20 + (span / 2 - span / 20) * c / cursors;
            }
            int warm = n / 2; // the tails reach the disk after span/2
            long t0 = 0;
            long peakPending = 0;
            ReservoirStats before = null;
            for (int i = 0; i < n; i++) {
                if (i == warm) {
                    t0 = System.nanoTime();
                    before = r.stats();
                }
                if (i % 10_000 == 0) {
                    peakPending = Math.max(peakPending, r.stats().pendingBytes());
                }
                long t = ts[i];
                r.insert(t, i, batch.wrap(row, i));
                r.advanceWatermark(t);
                for (int c = 0; c < cursors; c++) {
                    cs[c].advanceTo(t - lags[c], sink);
                }
                r.trim();
            }
            double rate = (n - warm) / ((System.nanoTime() - t0) / 1e9);
            ReservoirStats s = r.stats();
            long entries = s.chunkEntries() - before.chunkEntries();
            long stalls = s.stalls() - before.stalls();
            System.out.printf(Locale.ROOT, "%-10d %,14.0f %10d %10d %11.1f%% %12d %16.1f%n", cursors, rate, entries, stalls,
                    entries == 0 ? 100.0 : 100.0 * (entries - stalls) / entries, s.prefetches() - before.prefetches(),
                    peakPending / 1e6);
        }
    }

    /** Chunk bodies in the reservoir's layout: varint ts delta, zigzag varint seq delta, row. */
    private static List<byte[]> bodies(EventBatch batch, long[] ts) {
        List<byte[]> bodies = new ArrayList<>();
        EventRow row = new EventRow();
        byte[] buf = new byte[CHUNK_BYTES + 64 * 1024];
        int p = 0;
        long prevTs = 0;
        long prevSeq = 0;
        for (int i = 0; i < batch.size(); i++) {
            batch.wrap(row, i);
            if (p == 0) {
                prevTs = ts[i];
                prevSeq = i;
            }
            p = varint(buf, p, ts[i] - prevTs);
            long d = i - prevSeq;
            p = varint(buf, p, (d << 1) ^ (d >> 63));
            System.arraycopy(row.buffer(), row.offset(), buf, p, row.length());
            p += row.length();
            prevTs = ts[i];
            prevSeq = i;
            if (p >= CHUNK_BYTES) {
                bodies.add(java.util.Arrays.copyOf(buf, p));
                p = 0;
            }
        }
        return bodies;
    }

    private static int varint(byte[] b, int p, long v) {
        while ((v & ~0x7FL) != 0) {
            b[p++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        b[p++] = (byte) v;
        return p;
    }

    private static long[] timestamps(EventBatch batch) {
        long[] ts = new long[batch.size()];
        EventRow row = new EventRow();
        for (int i = 0; i < ts.length; i++) {
            ts[i] = batch.wrap(row, i).getLong(1);
        }
        return ts;
    }

    private static long rowBytes(EventBatch batch) {
        long n = 0;
        EventRow row = new EventRow();
        for (int i = 0; i < batch.size(); i++) {
            n += batch.wrap(row, i).length();
        }
        return n;
    }

    private static void deleteRecursively(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
