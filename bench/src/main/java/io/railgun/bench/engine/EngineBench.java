package io.railgun.bench.engine;

import io.railgun.bench.data.EventBatch;
import io.railgun.bench.data.PaymentGenerator;
import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.plan.MetricDefinition;
import io.railgun.engine.plan.StatementBinder;
import io.railgun.engine.query.QueryParser;
import io.railgun.engine.reservoir.EventReservoir;
import io.railgun.engine.reservoir.InMemoryReservoir;
import io.railgun.engine.reservoir.disk.DiskReservoir;
import io.railgun.engine.reservoir.disk.DiskReservoirOptions;
import io.railgun.engine.reservoir.disk.ReservoirStats;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.state.InMemoryStateStore;
import io.railgun.engine.task.Reply;
import io.railgun.engine.task.TaskOptions;
import io.railgun.engine.task.TaskProcessor;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The engine harness of BENCHMARKS.md: replays pre-generated payments through the task processors
 * of one stream in one thread (one task per partitioner, no Kafka) and prints events/s and bytes
 * allocated per event in the timed part (after a warm-up that also pre-loads the windows), next to
 * the naive in-heap baseline on the same events in the same run (P51, E1). With
 * {@code --reservoir disk} the tasks keep their events in a {@link DiskReservoir}; live heap after
 * a GC, RSS, bytes on disk and the chunk cache's hit rate are printed too. Writes one JSON object
 * per configuration to {@code bench-results/}.
 */
public final class EngineBench {
    private static final String USAGE = """
            usage: bench/run engine [options]
              --query P51|E1|EX1|FRAUD|P52A|P52B   workload (default E1)
              --window "7 DAYS"                   P52A: the window of P51 (default 60 MINUTES)
              --windows N                         P52B: misaligned windows (2N reservoir cursors; default 10)
              --events N                          payments generated (default 2000000)
              --cards N                           distinct cards (default 1000000)
              --rate R                            simulated events per second of event time (default 500)
              --warmup-fraction F                 share of events replayed before timing (default 0.1)
              --reservoir memory|disk             where tasks keep events (default memory)
              --cache-chunks N                    disk: chunk cache size (default 220, as in the paper)
              --data-dir DIR                      disk: where reservoirs go (default bench-results/reservoirs; wiped)
              --dedup-horizon-ms MS               least dedup horizon (default 0: the longest window decides)
              --no-baseline                       skip the naive in-heap baseline
            """;

    private record Options(String query, String window, int windows, int events, int cards, double rate,
                           double warmupFraction, boolean disk, int cacheChunks, Path dataDir, long dedupHorizonMs,
                           boolean baseline) {}

    public static void main(String[] args) throws Exception {
        Options o = parse(args);
        if (o == null) {
            System.out.print(USAGE);
            return;
        }
        List<String> statements = switch (o.query()) {
            case "P52A" -> Workloads.p52a(o.window());
            case "P52B" -> Workloads.p52b(o.windows());
            default -> Workloads.QUERIES.get(o.query());
        };
        if (statements == null) {
            throw new IllegalArgumentException("unknown query " + o.query() + "; see --help");
        }
        System.out.printf("generating %,d payments over %,d cards at %.0f ev/s of event time (%.1f h) ...%n",
                o.events(), o.cards(), o.rate(), o.events() / o.rate() / 3600);
        PaymentGenerator gen = new PaymentGenerator(PaymentGenerator.Options.defaults().withCards(o.cards()).withRate(o.rate()));
        EventBatch batch = EventBatch.generate(gen, o.events());
        StreamDefinition stream = gen.stream("payments", 1, List.of("card", "merchant"));
        int warmup = (int) (o.events() * o.warmupFraction());

        List<String> results = new ArrayList<>();
        System.out.printf("%-8s %-14s %12s %14s %10s %13s %9s %8s %10s %9s%n", "query", "engine", "events/s",
                "window-upd/s", "alloc B/ev", "live heap MB", "RSS MB", "cursors", "disk B/ev", "hit rate");
        results.add(runEngine(o, statements, stream, batch, warmup));
        if (o.baseline() && (o.query().equals("P51") || o.query().equals("E1"))) {
            results.add(runNaive(o.query(), batch, warmup));
        }
        Path dir = Path.of("bench-results");
        Files.createDirectories(dir);
        String label = o.query().toLowerCase(Locale.ROOT)
                + (o.query().equals("P52A") ? "-" + o.window().toLowerCase(Locale.ROOT).replace(' ', '-') : "")
                + (o.query().equals("P52B") ? "-" + o.windows() : "") + "-" + (o.disk() ? "disk" : "memory");
        Path out = dir.resolve("engine-" + label + ".json");
        Files.write(out, results);
        System.out.println("results: " + out.toAbsolutePath());
    }

    private static Options parse(String[] args) {
        String query = "E1";
        String window = "60 MINUTES";
        int windows = 10;
        int events = 2_000_000;
        int cards = 1_000_000;
        double rate = 500;
        double warmupFraction = 0.1;
        boolean disk = false;
        int cacheChunks = 220;
        Path dataDir = Path.of("bench-results", "reservoirs");
        boolean baseline = true;
        long dedupHorizonMs = 0;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--query" -> query = args[++i].toUpperCase(Locale.ROOT);
                case "--window" -> window = args[++i];
                case "--windows" -> windows = Integer.parseInt(args[++i]);
                case "--events" -> events = Integer.parseInt(args[++i]);
                case "--cards" -> cards = Integer.parseInt(args[++i]);
                case "--rate" -> rate = Double.parseDouble(args[++i]);
                case "--warmup-fraction" -> warmupFraction = Double.parseDouble(args[++i]);
                case "--reservoir" -> disk = switch (args[++i]) {
                    case "disk" -> true;
                    case "memory" -> false;
                    default -> throw new IllegalArgumentException("--reservoir is memory or disk");
                };
                case "--cache-chunks" -> cacheChunks = Integer.parseInt(args[++i]);
                case "--data-dir" -> dataDir = Path.of(args[++i]);
                case "--no-baseline" -> baseline = false;
                case "--dedup-horizon-ms" -> dedupHorizonMs = Long.parseLong(args[++i]);
                case "--help", "-h" -> {
                    return null;
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i] + " (see --help)");
            }
        }
        return new Options(query, window, windows, events, cards, rate, warmupFraction, disk, cacheChunks, dataDir,
                dedupHorizonMs, baseline);
    }

    private static String runEngine(Options o, List<String> statements, StreamDefinition stream, EventBatch batch, int warmup)
            throws Exception {
        List<String> partitioners = new ArrayList<>();
        Set<String> names = new HashSet<>();
        List<List<MetricDefinition>> bound = new ArrayList<>();
        int windowCount = 0;
        for (String sql : statements) {
            List<MetricDefinition> defs = StatementBinder.bind(stream, QueryParser.parse(sql), names);
            defs.forEach(d -> names.add(d.name()));
            bound.add(defs);
            windowCount++;
            if (!partitioners.contains(defs.getFirst().partitioner())) {
                partitioners.add(defs.getFirst().partitioner());
            }
        }
        if (o.disk()) {
            deleteTree(o.dataDir());
        }
        List<TaskProcessor> tasks = new ArrayList<>();
        List<DiskReservoir> disks = new ArrayList<>();
        for (String p : partitioners) {
            EventReservoir reservoir;
            if (o.disk()) {
                DiskReservoir d = DiskReservoir.open(o.dataDir().resolve(p + "-0"),
                        DiskReservoirOptions.defaults().withCache(o.cacheChunks(), 1L << 30));
                disks.add(d);
                reservoir = d;
            } else {
                reservoir = new InMemoryReservoir();
            }
            TaskProcessor t = new TaskProcessor(stream, TaskOptions.defaults().withMinDedupHorizonMs(o.dedupHorizonMs()), reservoir,
                    new InMemoryStateStore());
            for (List<MetricDefinition> defs : bound) {
                if (defs.getFirst().partitioner().equals(p)) {
                    t.addMetrics(defs);
                }
            }
            tasks.add(t);
        }
        TaskProcessor[] taskArray = tasks.toArray(new TaskProcessor[0]);
        EventRow row = new EventRow();
        double checksum = 0;
        for (int i = 0; i < warmup; i++) {
            checksum += replay(taskArray, batch.wrap(row, i));
        }
        ReservoirStats before = total(disks);
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long alloc0 = mx.getCurrentThreadAllocatedBytes();
        long t0 = System.nanoTime();
        for (int i = warmup; i < batch.size(); i++) {
            checksum += replay(taskArray, batch.wrap(row, i));
        }
        long elapsedNs = System.nanoTime() - t0;
        long allocated = mx.getCurrentThreadAllocatedBytes() - alloc0;
        ReservoirStats after = total(disks);
        int timed = batch.size() - warmup;
        double evPerSec = timed / (elapsedNs / 1e9);
        double allocPerEvent = (double) allocated / timed;
        long liveHeapMb = liveHeapMb() - batch.bytes() / (1 << 20); // the pre-generated events are not the engine's
        long rssMb = rssMb();
        int cursors = 0;
        for (TaskProcessor t : taskArray) {
            cursors += t.cursorCount();
        }
        long chunkEntries = after == null ? 0 : after.chunkEntries() - before.chunkEntries();
        long stalls = after == null ? 0 : after.stalls() - before.stalls();
        double hitRate = chunkEntries == 0 ? 1.0 : 1.0 - (double) stalls / chunkEntries;
        double diskBytesPerEvent = after == null ? 0 : (double) after.bytesOnDisk() / Math.max(1, retainedEvents(taskArray));
        String engine = "railgun-" + (o.disk() ? "disk" : "memory");
        System.out.printf("%-8s %-14s %,12.0f %,14.0f %10.1f %13d %9d %8d %10s %9s   (checksum %.6g)%n", o.query(), engine,
                evPerSec, evPerSec * windowCount, allocPerEvent, liveHeapMb, rssMb, cursors,
                o.disk() ? String.format(Locale.ROOT, "%.1f", diskBytesPerEvent) : "-",
                o.disk() ? String.format(Locale.ROOT, "%.4f", hitRate) : "-", checksum);
        if (after != null) {
            System.out.printf("         reservoir: %,d chunk entries, %,d stalls, %,d prefetches, %,d bytes on disk in %d files, %,d events held%n",
                    chunkEntries, stalls, after.prefetches() - before.prefetches(), after.bytesOnDisk(), after.segments(),
                    retainedEvents(taskArray));
        }
        for (TaskProcessor t : taskArray) {
            t.close();
        }
        return String.format(Locale.ROOT,
                "{\"harness\":\"engine\",\"engine\":\"%s\",\"query\":\"%s\",\"window\":\"%s\",\"windows\":%d,\"events\":%d,"
                        + "\"timedEvents\":%d,\"eventsPerSecond\":%.0f,\"windowUpdatesPerSecond\":%.0f,\"allocBytesPerEvent\":%.2f,"
                        + "\"liveHeapMb\":%d,\"rssMb\":%d,\"cursors\":%d,\"diskBytesPerEvent\":%.2f,\"chunkHitRate\":%.5f,\"chunkEntries\":%d,\"stalls\":%d}",
                engine, o.query(), o.window(), windowCount, batch.size(), timed, evPerSec, evPerSec * windowCount, allocPerEvent,
                liveHeapMb, rssMb, cursors, diskBytesPerEvent, hitRate, chunkEntries, stalls);
    }

    private static long retainedEvents(TaskProcessor[] tasks) {
        long n = 0;
        for (TaskProcessor t : tasks) {
            n += t.reservoirSize();
        }
        return n;
    }

    private static ReservoirStats total(List<DiskReservoir> disks) {
        if (disks.isEmpty()) {
            return null;
        }
        long entries = 0, hits = 0, misses = 0, prefetches = 0, stalls = 0, bytes = 0, cacheBytes = 0, pendingBytes = 0;
        int segments = 0, cached = 0, pending = 0, open = 0;
        for (DiskReservoir d : disks) {
            ReservoirStats s = d.stats();
            entries += s.chunkEntries();
            hits += s.hits();
            misses += s.misses();
            prefetches += s.prefetches();
            stalls += s.stalls();
            bytes += s.bytesOnDisk();
            segments += s.segments();
            cacheBytes += s.bytesInCache();
            cached += s.chunksInCache();
            pending += s.pendingChunks();
            pendingBytes += s.pendingBytes();
            open += s.openEvents();
        }
        return new ReservoirStats(entries, hits, misses, prefetches, stalls, bytes, segments, cacheBytes, cached, pending,
                pendingBytes, open);
    }

    private static double replay(TaskProcessor[] tasks, EventRow row) {
        double sum = 0;
        for (TaskProcessor t : tasks) {
            Reply r = t.process(row);
            for (int i = 0; i < r.size(); i++) {
                if (!r.isNull(i)) {
                    sum += r.type(i) == ValueType.DOUBLE ? r.doubleValue(i) : r.longValue(i);
                }
            }
        }
        return sum;
    }

    private static String runNaive(String query, EventBatch batch, int warmup) {
        NaiveBaseline naive = new NaiveBaseline(3_600_000L);
        naive.run(batch, 0, warmup);
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long alloc0 = mx.getCurrentThreadAllocatedBytes();
        long t0 = System.nanoTime();
        naive.run(batch, warmup, batch.size());
        long elapsedNs = System.nanoTime() - t0;
        long allocated = mx.getCurrentThreadAllocatedBytes() - alloc0;
        int timed = batch.size() - warmup;
        double evPerSec = timed / (elapsedNs / 1e9);
        double allocPerEvent = (double) allocated / timed;
        long liveHeapMb = liveHeapMb() - batch.bytes() / (1 << 20);
        System.out.printf("%-8s %-14s %,12.0f %14s %10.1f %13d %9s %8s %10s %9s   (checksum %.6g)%n", query, "naive-heap",
                evPerSec, "-", allocPerEvent, liveHeapMb, "-", "-", "-", "-", naive.checksum);
        return String.format(Locale.ROOT,
                "{\"harness\":\"engine\",\"engine\":\"naive-heap\",\"query\":\"%s\",\"events\":%d,\"timedEvents\":%d,\"eventsPerSecond\":%.0f,\"allocBytesPerEvent\":%.2f,\"liveHeapMb\":%d}",
                query, batch.size(), timed, evPerSec, allocPerEvent, liveHeapMb);
    }

    /** Heap still reachable after a full GC. */
    private static long liveHeapMb() {
        System.gc();
        Runtime rt = Runtime.getRuntime();
        return (rt.totalMemory() - rt.freeMemory()) >> 20;
    }

    /** Resident set size of this process (Linux), or -1. */
    private static long rssMb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) >> 10;
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return -1;
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
