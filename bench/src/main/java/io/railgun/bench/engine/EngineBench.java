package io.railgun.bench.engine;

import static io.railgun.bench.engine.ReplayLatency.us;

import io.railgun.bench.data.EventBatch;
import io.railgun.bench.data.PaymentGenerator;
import io.railgun.engine.event.EventRow;
import io.railgun.engine.reservoir.disk.DiskReservoir;
import io.railgun.engine.reservoir.disk.ReservoirStats;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.task.TaskProcessor;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.HdrHistogram.Histogram;

/**
 * The engine harness of BENCHMARKS.md: replays pre-generated payments through the task processors
 * of one stream in one thread (one task per partitioner, no Kafka) and prints events/s and bytes
 * allocated per event in the timed part (after a warm-up that also pre-loads the windows, and a
 * full collection: {@link #settleHeap}), next to
 * the naive in-heap baseline on the same events in the same run (P51, E1). With
 * {@code --reservoir disk} the tasks keep their events in a {@link DiskReservoir}; live heap after
 * a GC, RSS, bytes on disk and the chunk cache's hit rate are printed too. With
 * {@code --state durable} each task is a durable one ({@link TaskProcessor#open}: RocksDB behind a
 * bounded hot tier, periodic checkpoints); {@code --compare-state} runs the in-memory and the
 * durable store on the same events, each in a fresh child JVM, and prints both and their ratio.
 * Every timed {@code process()} call is timed (HdrHistogram, no allocation). Writes one JSON object
 * per configuration to {@code bench-results/}.
 *
 * <p>This class runs one configuration and prints its report; the parts, one job each: the command
 * line ({@link EngineBenchOptions}), the tasks ({@link BenchTasks}), the replay and its timing
 * ({@link TaskReplay}, {@link ReplayLatency}), the GC watchdog ({@link GcWatchdog}), readings of the
 * process ({@link ProcessProbes}, {@link DurableCounters}) and {@code --compare-state}
 * ({@link StateComparison}). Runs on the main thread, which replays the events.
 */
public final class EngineBench {
    public static void main(String[] args) throws Exception {
        EngineBenchOptions o = EngineBenchOptions.parse(args);
        if (o == null) {
            System.out.print(EngineBenchOptions.USAGE);
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
        if (o.compareState()) {
            StateComparison.run(o, args);
            return;
        }
        GcWatchdog.start();
        System.out.printf("generating %,d payments over %,d cards at %.3g ev/s of event time (%.1f h) ...%n",
                o.events(), o.cards(), o.rate(), o.events() / o.rate() / 3600);
        PaymentGenerator gen = new PaymentGenerator(PaymentGenerator.Options.defaults().withCards(o.cards()).withRate(o.rate()));
        EventBatch batch = EventBatch.generate(gen, o.events());
        StreamDefinition stream = gen.stream("payments", 1, List.of("card", "merchant"));
        int warmup = (int) (o.events() * o.warmupFraction());

        List<String> results = new ArrayList<>();
        System.out.printf("%-8s %-16s %12s %14s %10s %13s %9s %8s %10s %9s%n", "query", "engine", "events/s",
                "window-upd/s", "alloc B/ev", "live heap MB", "RSS MB", "cursors", "disk B/ev", "hit rate");
        results.add(runEngine(o, statements, stream, batch, warmup));
        if (o.baseline() && (o.query().equals("P51") || o.query().equals("E1"))) {
            results.add(runNaive(o.query(), batch, warmup));
        }
        Path out = ProcessProbes.resultsDir().resolve("engine-" + o.label() + ".json");
        Files.write(out, results);
        System.out.println("results: " + out.toAbsolutePath());
    }

    private static String runEngine(EngineBenchOptions o, List<String> statements, StreamDefinition stream,
                                    EventBatch batch, int warmup) throws Exception {
        BenchTasks bench = BenchTasks.open(o, statements, stream);
        TaskProcessor[] taskArray = bench.tasks;
        List<String> partitioners = bench.partitioners;
        int windowCount = bench.windowCount;
        EventRow row = new EventRow();
        double checksum = 0;
        GcWatchdog.progressEvents = batch.size();
        GcWatchdog.progressWarmup = warmup;
        // the warm-up runs the timed part's code, its latencies dropped (see TaskReplay.replay)
        checksum += TaskReplay.replay(taskArray, batch, row, 0, warmup, o.prefetch(), new ReplayLatency(taskArray.length),
                System.nanoTime());
        settleHeap();

        ReplayLatency latency = new ReplayLatency(taskArray.length);
        long timerNs = TaskReplay.timerOverheadNs();
        ReservoirStats before = bench.reservoirStats();
        DurableCounters durableBefore = DurableCounters.of(taskArray);
        long gcCount0 = GcWatchdog.gcCount(), gcMs0 = GcWatchdog.gcMillis();
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        String load0 = ProcessProbes.loadAverage();
        long alloc0 = mx.getCurrentThreadAllocatedBytes();
        long cpu0 = mx.getCurrentThreadCpuTime();
        long[] sched0 = ProcessProbes.schedStat();
        TimedProfile profile = TimedProfile.start(o.profile(), o.profileAlloc());
        long t0 = System.nanoTime();
        checksum += TaskReplay.replay(taskArray, batch, row, warmup, batch.size(), o.prefetch(), latency, t0);
        long elapsedNs = System.nanoTime() - t0;
        if (profile != null) {
            profile.stopAndReport(o.label());
        }
        long[] sched1 = ProcessProbes.schedStat();
        long cpuNs = mx.getCurrentThreadCpuTime() - cpu0;
        long runQueueNs = sched0 == null || sched1 == null ? -1 : sched1[1] - sched0[1];
        long allocated = mx.getCurrentThreadAllocatedBytes() - alloc0;
        String load1 = ProcessProbes.loadAverage();
        long gcCount = GcWatchdog.gcCount() - gcCount0, gcMs = GcWatchdog.gcMillis() - gcMs0;
        ReservoirStats after = bench.reservoirStats();
        for (TaskProcessor t : taskArray) {
            if (t.durableState() != null) {
                t.durableState().awaitCheckpoint(); // counters written by the checkpoint thread
            }
        }
        DurableCounters durableAfter = DurableCounters.of(taskArray);
        long idPoolHeld = bench.stateMemory == null ? 0 : bench.stateMemory.hotIdPool().heldBytes();
        int timed = batch.size() - warmup;
        double evPerSec = timed / (elapsedNs / 1e9);
        double allocPerEvent = (double) allocated / timed;
        long liveHeapMb = ProcessProbes.liveHeapMb() - batch.bytes() / (1 << 20); // the pre-generated events are not the engine's
        long rssMb = ProcessProbes.rssMb();
        int cursors = bench.cursorCount();
        long chunkEntries = after == null ? 0 : after.chunkEntries() - before.chunkEntries();
        long stalls = after == null ? 0 : after.stalls() - before.stalls();
        double hitRate = chunkEntries == 0 ? 1.0 : 1.0 - (double) stalls / chunkEntries;
        long retained = bench.retainedEvents();
        double diskBytesPerEvent = after == null ? 0 : (double) after.bytesOnDisk() / Math.max(1, retained);
        String engine = "railgun-" + (o.durable() ? "durable" : o.disk() ? "disk" : "memory");
        System.out.printf("%-8s %-16s %,12.0f %,14.0f %10.1f %13d %9d %8d %10s %9s   (checksum %.6g)%n", o.query(), engine,
                evPerSec, evPerSec * windowCount, allocPerEvent, liveHeapMb, rssMb, cursors,
                after != null ? String.format(Locale.ROOT, "%.1f", diskBytesPerEvent) : "-",
                after != null ? String.format(Locale.ROOT, "%.4f", hitRate) : "-", checksum);
        if (after != null) {
            System.out.printf("         reservoir: %,d chunk entries, %,d stalls, %,d prefetches, %,d bytes on disk in %d files, %,d events held;"
                            + " %,d waits for the writer (%,.0f ms)%n",
                    chunkEntries, stalls, after.prefetches() - before.prefetches(), after.bytesOnDisk(), after.segments(),
                    retained, after.writeWaits() - before.writeWaits(), (after.writeWaitNanos() - before.writeWaitNanos()) / 1e6);
        }
        Histogram h = latency.perEvent;
        System.out.printf("         per event µs: p50 %.2f  p99 %.2f  p99.9 %.2f  p99.99 %.2f  max %,.0f  mean %.2f"
                        + "  (one nanoTime ≈ %d ns per event and task, included)%n",
                us(h, 50), us(h, 99), us(h, 99.9), us(h, 99.99), h.getMaxValue() / 1e3, h.getMean() / 1e3, timerNs);
        System.out.println("         " + TimeShares.of(h));
        if (taskArray.length > 1) {
            for (int k = 0; k < taskArray.length; k++) {
                Histogram th = latency.perTask[k];
                System.out.printf("         task %-8s µs: p50 %.2f  p99 %.2f  p99.9 %.2f  p99.99 %.2f  max %,.0f%n",
                        partitioners.get(k), us(th, 50), us(th, 99), us(th, 99.9), us(th, 99.99), th.getMaxValue() / 1e3);
            }
        }
        System.out.printf("         events over %d ms: %,d (%.1f%% of the timed time)%s; GC in the timed part: %d collections, %,d ms%n",
                ReplayLatency.SLOW_NS / 1_000_000, latency.slowTotal, 100.0 * latency.slowTotalNs / elapsedNs, latency.slowest(),
                gcCount, gcMs);
        System.out.printf("         replay thread over the timed %.1f s: on a CPU %.0f%%, runnable but waiting for one %s (other processes"
                        + " and threads), the rest off CPU (I/O, waits for other threads, GC); load average %s -> %s%n",
                elapsedNs / 1e9, 100.0 * cpuNs / elapsedNs,
                runQueueNs < 0 ? "?" : String.format(Locale.ROOT, "%.0f%%", 100.0 * runQueueNs / elapsedNs), load0, load1);
        Histogram ch = latency.checkpointing, nc = latency.notCheckpointing;
        if (o.durable()) {
            System.out.printf("         events that started a checkpoint (C; or waited for one): %,d, p50 %.1f ms, max %,.1f ms,"
                            + " %,.0f ms in all (%.1f%% of the timed time); the other events µs: p99 %.2f  p99.9 %.2f  p99.99 %.2f  max %,.0f%n",
                    ch.getTotalCount(), ch.getValueAtPercentile(50) / 1e6, ch.getMaxValue() / 1e6,
                    ch.getMean() * ch.getTotalCount() / 1e6, 100.0 * ch.getMean() * ch.getTotalCount() / elapsedNs,
                    us(nc, 99), us(nc, 99.9), us(nc, 99.99), nc.getMaxValue() / 1e3);
        }

        // durable: stats before close, then close (final checkpoint) and the store's size after
        long rocksBytes = ProcessProbes.sizeOf(bench.stateDirs);
        long sstBytes = 0, storedBytes = 0, wholes = 0, patches = 0, wholeBytes = 0, patchBytes = 0;
        for (TaskProcessor t : taskArray) {
            if (t.durableState() != null) {
                long[] sizes = t.durableState().storedBytes();
                sstBytes += sizes[0];
                storedBytes += sizes[1];
                long[] values = t.durableState().valuesStored();
                wholes += values[0];
                patches += values[1];
                wholeBytes += values[2];
                patchBytes += values[3];
            }
        }
        String durableJson = "";
        long closeStart = System.nanoTime();
        for (TaskProcessor t : taskArray) {
            t.close();
        }
        long closeNs = System.nanoTime() - closeStart;
        if (bench.stateMemory != null) {
            bench.stateMemory.close();
        }
        if (o.durable()) {
            long rocksAfterClose = ProcessProbes.sizeOf(bench.stateDirs);
            long finalBytes = 0, finalNanos = 0, filterBytes = 0, filterNegatives = 0, hotIds = 0, narrowings = 0;
            for (TaskProcessor t : taskArray) {
                finalBytes += t.durableState().lastCheckpointBytes();
                finalNanos = Math.max(finalNanos, t.durableState().lastCheckpointNanos());
                filterBytes += t.stats().dedupFilterBytes();
                filterNegatives += t.stats().dedupFilterNegatives();
                hotIds += t.stats().dedupHotIds();
                narrowings += t.stats().dedupNarrowings();
            }
            DurableCounters a = durableAfter, b = durableBefore;
            System.out.printf("         durable: %,d checkpoints in the timed part (%,d in all, every %,d ms), last %.1f MB in %,d ms;"
                            + " hot keys %,d (limit %,d in the largest key table, %s; %,d B per hot key measured)%n",
                    a.checkpoints() - b.checkpoints(), a.checkpoints(), o.checkpointIntervalMs(), a.lastCheckpointBytes() / 1048576.0,
                    a.lastCheckpointNanos() / 1_000_000, a.hotKeys(), a.hotLimit(), o.hotKeysText(), a.bytesPerHotKey());
            if (a.checkpoints() == b.checkpoints()) {
                // (FRAUD's 2 M events: a 4 s timed part, which a checkpoint every 10 s may miss; with its
                // first two, the same run was up to a third slower: see docs/benchmarks.md, 2026-12-03)
                System.out.printf("         durable: NO CHECKPOINT in the timed part (%.1f s, one every %.1f s): its events/s leave"
                                + " their cost out; a steady state pays one per interval%n", elapsedNs / 1e9, o.checkpointIntervalMs() / 1e3);
            }
            System.out.printf("         durable, timed part: %,d evictions (%.3f/event), %,d cold loads (%.3f/event), %,d RocksDB reads"
                            + " (%.3f/event); totals %,d / %,d / %,d%n",
                    a.evictions() - b.evictions(), (double) (a.evictions() - b.evictions()) / timed, a.coldLoads() - b.coldLoads(),
                    (double) (a.coldLoads() - b.coldLoads()) / timed, a.coldReads() - b.coldReads(),
                    (double) (a.coldReads() - b.coldReads()) / timed, a.evictions(), a.coldLoads(), a.coldReads());
            System.out.printf("         durable: dedup ids in memory %,d at the end (the pool of hot ids: %.1f of %.1f MiB),"
                            + " hot horizons narrowed %,d times; filter of the cold ids %.2f MiB, %,d RocksDB lookups ruled out in all%n",
                    hotIds, idPoolHeld / 1048576.0, bench.stateMemory == null ? 0 : bench.stateMemory.hotIdPool().limitBytes() / 1048576.0,
                    narrowings, filterBytes / 1048576.0, filterNegatives);
            System.out.printf("         durable: RocksDB %.1f MB on disk at the end of the timed part, %.1f MB after close;"
                            + " close() %,d ms (final checkpoint %.1f MB in %,d ms)%n",
                    rocksBytes / 1048576.0, rocksAfterClose / 1048576.0, closeNs / 1_000_000, finalBytes / 1048576.0,
                    finalNanos / 1_000_000);
            long timedCheckpoints = Math.max(1, a.checkpoints() - b.checkpoints());
            System.out.printf("         durable: checkpoints of the timed part wrote %.1f MB (%.1f MB per checkpoint); at its end"
                            + " RocksDB's SST files %.1f MB for %.1f MB of state as read back (keys and values): %.2fx;"
                            + " values stored in all: %,d whole (%.1f MB), %,d patches (%.1f MB)%n",
                    (a.bytesWritten() - b.bytesWritten()) / 1048576.0,
                    (a.bytesWritten() - b.bytesWritten()) / 1048576.0 / timedCheckpoints,
                    sstBytes / 1048576.0, storedBytes / 1048576.0, (double) sstBytes / Math.max(1, storedBytes), wholes,
                    wholeBytes / 1048576.0, patches, patchBytes / 1048576.0);
            durableJson = String.format(Locale.ROOT,
                    ",\"checkpointBytesTimed\":%d,\"sstBytes\":%d,\"storedBytes\":%d", a.bytesWritten() - b.bytesWritten(),
                    sstBytes, storedBytes) + String.format(Locale.ROOT,
                    ",\"hotKeysLimit\":%d,\"checkpointIntervalMs\":%d,\"checkpointsTimed\":%d,\"checkpoints\":%d,"
                            + "\"lastCheckpointBytes\":%d,\"lastCheckpointMs\":%.1f,\"hotKeys\":%d,\"evictions\":%d,\"evictionsTimed\":%d,"
                            + "\"coldLoads\":%d,\"coldLoadsTimed\":%d,\"coldReads\":%d,\"coldReadsTimed\":%d,\"rocksDbBytes\":%d,"
                            + "\"rocksDbBytesAfterClose\":%d,\"closeMs\":%.1f,\"finalCheckpointBytes\":%d,\"finalCheckpointMs\":%.1f",
                    a.hotLimit(), o.checkpointIntervalMs(), a.checkpoints() - b.checkpoints(), a.checkpoints(),
                    a.lastCheckpointBytes(), a.lastCheckpointNanos() / 1e6, a.hotKeys(), a.evictions(), a.evictions() - b.evictions(),
                    a.coldLoads(), a.coldLoads() - b.coldLoads(), a.coldReads(), a.coldReads() - b.coldReads(), rocksBytes,
                    rocksAfterClose, closeNs / 1e6, finalBytes, finalNanos / 1e6);
        }
        return String.format(Locale.ROOT,
                "{\"harness\":\"engine\",\"engine\":\"%s\",\"state\":\"%s\",\"reservoir\":\"%s\",\"query\":\"%s\",\"window\":\"%s\","
                        + "\"windows\":%d,\"events\":%d,\"cards\":%d,"
                        + "\"timedEvents\":%d,\"eventsPerSecond\":%.0f,\"windowUpdatesPerSecond\":%.0f,\"allocBytesPerEvent\":%.2f,"
                        + "\"liveHeapMb\":%d,\"rssMb\":%d,\"cursors\":%d,\"diskBytesPerEvent\":%.2f,\"chunkHitRate\":%.5f,\"chunkEntries\":%d,\"stalls\":%d,"
                        + "\"p50Us\":%.3f,\"p99Us\":%.3f,\"p999Us\":%.3f,\"p9999Us\":%.3f,\"maxUs\":%.1f,\"meanUs\":%.3f,"
                        + "\"timedSeconds\":%.2f,\"replayCpuShare\":%.3f,\"replayRunQueueShare\":%.3f,\"eventsOver1ms\":%d,\"gcCount\":%d,\"gcMs\":%d,\"timerOverheadNs\":%d,"
                        + "\"checkpointEvents\":%d,\"checkpointEventsMaxMs\":%.1f,\"checkpointEventsTotalMs\":%.1f,"
                        + "\"otherP999Us\":%.3f,\"otherP9999Us\":%.3f,\"checksum\":%s%s}",
                engine, o.durable() ? "durable" : "memory", o.disk() ? "disk" : "memory", o.query(), o.window(), windowCount,
                batch.size(), o.cards(), timed, evPerSec, evPerSec * windowCount, allocPerEvent,
                liveHeapMb, rssMb, cursors, diskBytesPerEvent, hitRate, chunkEntries, stalls,
                us(h, 50), us(h, 99), us(h, 99.9), us(h, 99.99), h.getMaxValue() / 1e3, h.getMean() / 1e3,
                elapsedNs / 1e9, (double) cpuNs / elapsedNs, (double) runQueueNs / elapsedNs, latency.slowTotal, gcCount, gcMs, timerNs, ch.getTotalCount(), ch.getMaxValue() / 1e6,
                ch.getMean() * ch.getTotalCount() / 1e6, us(nc, 99.9), us(nc, 99.99), Double.toString(checksum), durableJson);
    }

    /**
     * A full collection between the warm-up and the timed part, as JMH's {@code -gc true} does: the
     * warm-up's survivors (the generated events, the full window's state) are promoted now. Left to
     * the timed part's first young collection, they made it copy all of them: with {@code -Xms8g},
     * 1.6 GB in 0.78 s of a 6 s E1 run ({@code -Xlog:gc}). The timed part's own collections stay in
     * it, and are printed. (bench/run also fixes the heap and touches it at start: see there.)
     */
    private static void settleHeap() {
        System.gc();
    }

    private static String runNaive(String query, EventBatch batch, int warmup) {
        NaiveBaseline naive = new NaiveBaseline(3_600_000L);
        naive.run(batch, 0, warmup);
        settleHeap();
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long alloc0 = mx.getCurrentThreadAllocatedBytes();
        long t0 = System.nanoTime();
        naive.run(batch, warmup, batch.size());
        long elapsedNs = System.nanoTime() - t0;
        long allocated = mx.getCurrentThreadAllocatedBytes() - alloc0;
        int timed = batch.size() - warmup;
        double evPerSec = timed / (elapsedNs / 1e9);
        double allocPerEvent = (double) allocated / timed;
        long liveHeapMb = ProcessProbes.liveHeapMb() - batch.bytes() / (1 << 20);
        System.out.printf("%-8s %-16s %,12.0f %14s %10.1f %13d %9s %8s %10s %9s   (checksum %.6g)%n", query, "naive-heap",
                evPerSec, "-", allocPerEvent, liveHeapMb, "-", "-", "-", "-", naive.checksum);
        return String.format(Locale.ROOT,
                "{\"harness\":\"engine\",\"engine\":\"naive-heap\",\"query\":\"%s\",\"events\":%d,\"timedEvents\":%d,\"eventsPerSecond\":%.0f,\"allocBytesPerEvent\":%.2f,\"liveHeapMb\":%d}",
                query, batch.size(), timed, evPerSec, allocPerEvent, liveHeapMb);
    }
}
