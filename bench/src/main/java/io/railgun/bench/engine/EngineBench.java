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
import io.railgun.engine.state.durable.DurableStateOptions;
import io.railgun.engine.state.durable.DurableStateStore;
import io.railgun.engine.state.durable.StateMemory;
import io.railgun.engine.task.Reply;
import io.railgun.engine.task.TaskOptions;
import io.railgun.engine.task.TaskProcessor;
import io.railgun.engine.task.TaskStorage;
import io.railgun.node.NodeConfig;
import java.io.IOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.HdrHistogram.Histogram;

/**
 * The engine harness of BENCHMARKS.md: replays pre-generated payments through the task processors
 * of one stream in one thread (one task per partitioner, no Kafka) and prints events/s and bytes
 * allocated per event in the timed part (after a warm-up that also pre-loads the windows), next to
 * the naive in-heap baseline on the same events in the same run (P51, E1). With
 * {@code --reservoir disk} the tasks keep their events in a {@link DiskReservoir}; live heap after
 * a GC, RSS, bytes on disk and the chunk cache's hit rate are printed too. With
 * {@code --state durable} each task is a durable one ({@link TaskProcessor#open}: RocksDB behind a
 * bounded hot tier, periodic checkpoints); {@code --compare-state} runs the in-memory and the
 * durable store on the same events, each in a fresh child JVM, and prints both and their ratio.
 * Every timed {@code process()} call is timed (HdrHistogram, no allocation). Writes one JSON object
 * per configuration to {@code bench-results/}.
 */
public final class EngineBench {
    private static final String USAGE = """
            usage: bench/run engine [options]
              --query P51|E1|EX1|FRAUD|P52A|P52B   workload (default E1)
              --window "7 DAYS"                   P52A: the window of P51 (default 60 MINUTES)
              --windows N                         P52B: misaligned windows (2N reservoir cursors; default 10)
              --events N                          payments generated (default 2000000)
              --cards N                           distinct cards (default 1000000; 10000000 for E2)
              --rate R                            simulated events per second of event time (default 500; FRAUD:
                                                  the warm-up's events over 180 days, so its longest window is
                                                  full and every window expires events in the timed part)
              --warmup-fraction F                 share of events replayed before timing (default 0.1)
              --reservoir memory|disk             where tasks keep events (default memory; disk with
                                                  --state durable or --compare-state)
              --state memory|durable              key states: in the heap (InMemoryStateStore), or durable
                                                  (TaskProcessor.open: RocksDB behind a hot tier, checkpoints,
                                                  reservoir on disk); default memory
              --compare-state                     run memory then durable state on the same events, each in a
                                                  fresh child JVM (same JVM flags), print both and the ratio
              --rounds N                          with --compare-state: alternate memory/durable N times (default 1);
                                                  the ratio is of the medians
              --hot-keys N                        durable: keys per GROUP BY held in memory, a fixed limit without a
                                                  memory budget. Default: the node's defaults, a state memory budget
                                                  (--state-memory) whose hot share holds as many keys as their
                                                  measured size fits, capped by the node's default --hot-keys
              --state-memory BYTES                durable without --hot-keys: the node's state memory budget
                                                  (default the node's, 1 GiB; e.g. 536870912)
              --checkpoint-interval-ms MS         durable: time between checkpoints (default 10000)
              --cache-chunks N                    disk: chunk cache size (default 220, as in the paper)
              --data-dir DIR                      disk/durable: task directories (default bench-results/reservoirs; wiped)
              --dedup-horizon-ms MS               least dedup horizon (default 0: the longest window decides)
              --no-baseline                       skip the naive in-heap baseline
            Per-event processing time (sum of the event's process() calls, System.nanoTime around each) is
            recorded in the timed part: p50/p99/p99.9/p99.99/max in µs, events over 1 ms (C: it started a
            checkpoint, G: a GC ended), GC, and the replay thread's time on a CPU and waiting for one (a busy
            machine shows there); durable runs also print checkpoints, hot keys, evictions, cold loads and reads,
            RocksDB bytes on disk and the time of close() (final checkpoint). A run that spends more than half
            of a minute in GC is ended (exit 3): the heap (BENCH_JAVA_OPTS) is too small for it.
            """;

    /** Highest per-event time recorded (longer ones are clamped): one minute, in ns. */
    private static final long HIGHEST_NS = 60_000_000_000L;
    /** Events slower than this are logged with their time in the run (checkpoint and GC pauses). */
    private static final long SLOW_NS = 1_000_000L;
    private static final List<GarbageCollectorMXBean> GCS = ManagementFactory.getGarbageCollectorMXBeans();
    /**
     * TaskProcessor's private {@code lastCheckpointMs}, set each time the task starts a checkpoint
     * (in process(), after the event): read before and after each timed call, it tells which events
     * paid for starting a checkpoint (or waited for the previous one). No public accessor; null
     * (no attribution) if the field goes.
     */
    private static final VarHandle LAST_CHECKPOINT_MS = lastCheckpointHandle();
    /** Replay progress for the GC watchdog's message: the event replayed last (every 65,536th is written). */
    private static volatile int progress = -1;
    private static volatile int progressEvents;
    private static volatile int progressWarmup;

    private static VarHandle lastCheckpointHandle() {
        try {
            return MethodHandles.privateLookupIn(TaskProcessor.class, MethodHandles.lookup())
                    .findVarHandle(TaskProcessor.class, "lastCheckpointMs", long.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private record Options(String query, String window, int windows, int events, int cards, double rate,
                           double warmupFraction, boolean disk, int cacheChunks, Path dataDir, long dedupHorizonMs,
                           boolean baseline, boolean durable, boolean compareState, int rounds, int hotKeys,
                           long checkpointIntervalMs, long stateMemoryBytes) {
        /** Whether durable tasks share a node-like memory budget (no --hot-keys given). */
        boolean budget() {
            return hotKeys == 0;
        }

        /** The hot-key limit given, or the cap of the node's defaults under the budget. */
        int hotKeyCap() {
            return budget() ? NodeConfig.defaults().hotKeys() : hotKeys;
        }
    }

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
        if (o.compareState()) {
            compareState(o, args);
            return;
        }
        startGcWatchdog();
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
        Path out = resultsDir().resolve("engine-" + label(o) + ".json");
        Files.write(out, results);
        System.out.println("results: " + out.toAbsolutePath());
    }

    /**
     * Ends the run (exit 3) when the JVM has spent more than half of the last minute in GC: a heap
     * too small for the workload thrashes instead of failing, and would run for hours.
     */
    private static void startGcWatchdog() {
        Thread t = new Thread(() -> {
            long[] ms = new long[13]; // GC time every 5 s over the last minute
            for (int i = 0; ; i++) {
                try {
                    Thread.sleep(5_000);
                } catch (InterruptedException e) {
                    return;
                }
                ms[i % ms.length] = gcMillis();
                if (i >= ms.length - 1) {
                    long inGc = ms[i % ms.length] - ms[(i + 1) % ms.length];
                    if (inGc > 0.5 * 60_000) {
                        Runtime rt = Runtime.getRuntime();
                        int at = progress;
                        System.out.printf("%nABORTED: %,d ms of the last 60 s in GC (%d collections so far; heap %,d of %,d MB used),"
                                        + " %s: the heap is too small for this workload%n", inGc, gcCount(),
                                (rt.totalMemory() - rt.freeMemory()) >> 20, rt.maxMemory() >> 20,
                                at < 0 ? "before the replay" : String.format(Locale.ROOT,
                                        "replaying event ~%,d of %,d (%s)", at, progressEvents,
                                        at < progressWarmup ? "warm-up" : "timed part"));
                        System.out.flush();
                        Runtime.getRuntime().halt(3);
                    }
                }
            }
        }, "gc-watchdog");
        t.setDaemon(true);
        t.start();
    }

    private static Path resultsDir() throws IOException {
        Path dir = Path.of("bench-results");
        Files.createDirectories(dir);
        return dir;
    }

    /** The configuration's name in result files, e.g. {@code e1-disk}, {@code fraud-disk-durable}. */
    private static String label(Options o) {
        return o.query().toLowerCase(Locale.ROOT)
                + (o.query().equals("P52A") ? "-" + o.window().toLowerCase(Locale.ROOT).replace(' ', '-') : "")
                + (o.query().equals("P52B") ? "-" + o.windows() : "") + "-" + (o.disk() ? "disk" : "memory")
                + (o.durable() ? "-durable" : "");
    }

    private static Options parse(String[] args) {
        String query = "E1";
        String window = "60 MINUTES";
        int windows = 10;
        int events = 2_000_000;
        int cards = 1_000_000;
        double rate = Double.NaN; // the default depends on the query
        double warmupFraction = 0.1;
        Boolean disk = null; // null: the default, which depends on the state
        int cacheChunks = 220;
        Path dataDir = Path.of("bench-results", "reservoirs");
        boolean baseline = true;
        long dedupHorizonMs = 0;
        boolean durable = false;
        boolean compareState = false;
        int rounds = 1;
        int hotKeys = 0; // 0: the node's defaults (budget-driven)
        long stateMemoryBytes = NodeConfig.DEFAULT_STATE_MEMORY_BYTES;
        long checkpointIntervalMs = TaskStorage.DEFAULT_CHECKPOINT_INTERVAL_MS;
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
                case "--state" -> durable = switch (args[++i]) {
                    case "durable" -> true;
                    case "memory" -> false;
                    default -> throw new IllegalArgumentException("--state is memory or durable");
                };
                case "--compare-state" -> compareState = true;
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--hot-keys" -> hotKeys = Integer.parseInt(args[++i]);
                case "--state-memory" -> stateMemoryBytes = Long.parseLong(args[++i]);
                case "--checkpoint-interval-ms" -> checkpointIntervalMs = Long.parseLong(args[++i]);
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
        if (durable && Boolean.FALSE.equals(disk)) {
            throw new IllegalArgumentException("--state durable keeps its reservoir on disk: drop --reservoir memory");
        }
        if (Double.isNaN(rate)) {
            rate = query.equals("FRAUD") ? fraudSteadyRate(events, warmupFraction) : 500;
        }
        // durable state implies the reservoir on disk; a comparison keeps it on disk for both runs
        // by default, so the only difference between them is the state store
        boolean onDisk = disk != null ? disk : durable || compareState;
        return new Options(query, window, windows, events, cards, rate, warmupFraction, onDisk, cacheChunks, dataDir,
                dedupHorizonMs, baseline, durable, compareState, rounds, hotKeys, checkpointIntervalMs, stateMemoryBytes);
    }

    /** The durable store's settings: the node's defaults within a budget, or a fixed hot-key limit. */
    private static DurableStateOptions stateOptions(Options o, StateMemory memory) {
        DurableStateOptions d = DurableStateOptions.defaults().withHotKeys(o.hotKeyCap());
        return memory == null ? d : d.withMemory(memory);
    }

    private static String hotKeysText(Options o) {
        return o.budget() ? String.format(Locale.ROOT, "from the node's %,d MiB state memory (capped at %,d)",
                o.stateMemoryBytes() >> 20, o.hotKeyCap()) : String.format(Locale.ROOT, "%,d (fixed)", o.hotKeys());
    }

    /** FRAUD's longest window, [RANGE 180 DAYS], in seconds. */
    private static final double FRAUD_LONGEST_WINDOW_S = 180 * 86_400.0;

    /**
     * FRAUD in steady state (E2): event time compressed so that the warm-up spans the longest
     * window (180 days) and a little more; from the first timed event on, every window of the
     * workload — 1 minute to 180 days — is full and expires events as new ones arrive, as it does
     * for a fraud team that has run for half a year. (At 500 ev/s the 180-day window would need
     * 7.8 billion events to fill: the timed part measured the fill phase.)
     */
    static double fraudSteadyRate(int events, double warmupFraction) {
        double warmup = Math.max(1, events * warmupFraction);
        return warmup / (FRAUD_LONGEST_WINDOW_S * 1.01);
    }

    // ------------------------------------------------------------------------------ compare-state

    /**
     * Runs the workload with the in-memory state store, then with the durable one, each in a fresh
     * JVM started with this JVM's flags and class path, and prints both rows and their ratio. Child
     * JVMs rather than two runs in this one: the second run in a shared JVM would inherit the
     * first's heap (old generation, GC ergonomics) and its JIT profiles, where the state store and
     * reservoir call sites have seen only the other implementation (deoptimisation, megamorphic
     * calls), which biases the comparison against whichever runs second.
     */
    private static void compareState(Options o, String[] args) throws Exception {
        List<String> common = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--compare-state" -> { }
                case "--state", "--reservoir", "--rounds" -> i++;
                default -> common.add(args[i]);
            }
        }
        common.add("--reservoir");
        common.add(o.disk() ? "disk" : "memory");
        String java = ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> jvm = new ArrayList<>();
        jvm.add(java);
        jvm.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        jvm.add("-cp");
        jvm.add(System.getProperty("java.class.path"));
        jvm.add(EngineBench.class.getName());

        List<String> rows = new ArrayList<>();
        List<String> memoryRows = new ArrayList<>();
        List<String> durableRows = new ArrayList<>();
        for (int round = 1; round <= o.rounds(); round++) {
            for (String state : List.of("memory", "durable")) {
                List<String> childArgs = new ArrayList<>(common);
                childArgs.add("--state");
                childArgs.add(state);
                if ((state.equals("durable") || round > 1) && !childArgs.contains("--no-baseline")) {
                    childArgs.add("--no-baseline"); // the baseline ran once, with the first memory run, on the same events
                }
                List<String> cmd = new ArrayList<>(jvm);
                cmd.addAll(childArgs);
                System.out.printf("%n=== round %d/%d, state %s: %s%n", round, o.rounds(), state, String.join(" ", childArgs));
                int rc = new ProcessBuilder(cmd).inheritIO().start().waitFor();
                if (rc != 0) {
                    String failure = String.format(Locale.ROOT, "{\"round\":%d,\"harness\":\"engine\",\"failed\":\"%s\",\"exit\":%d}",
                            round, state, rc);
                    rows.add(failure);
                    (state.equals("memory") ? memoryRows : durableRows).add(failure);
                    continue;
                }
                Options child = parse(childArgs.toArray(new String[0]));
                for (String line : Files.readAllLines(resultsDir().resolve("engine-" + label(child) + ".json"))) {
                    String tagged = line.replaceFirst("^\\{", "{\"round\":" + round + ",");
                    rows.add(tagged);
                    if (line.contains("\"state\":\"memory\"")) {
                        memoryRows.add(tagged);
                    } else if (line.contains("\"state\":\"durable\"")) {
                        durableRows.add(tagged);
                    }
                }
            }
        }

        System.out.printf("%n=== %s, state compared in the same run (%s reservoir; %,d events, %,d cards, hot keys %s; %d round%s)%n",
                o.query(), o.disk() ? "disk" : "memory", o.events(), o.cards(), hotKeysText(o), o.rounds(),
                o.rounds() == 1 ? "" : "s, alternated");
        System.out.printf("%-10s %12s %10s %9s %9s %9s %9s %10s %12s %10s %12s %6s %6s%n", "state", "events/s", "alloc B/ev",
                "p50 µs", "p99 µs", "p99.9 µs", "p99.99 µs", "max µs", "checkpoints", "evictions", "RocksDB MB", "CPU", "runq");
        for (int i = 0; i < o.rounds(); i++) {
            for (String r : List.of(memoryRows.get(i), durableRows.get(i))) {
                String name = r.contains("\"state\":\"durable\"") || r.contains("\"failed\":\"durable\"") ? "durable" : "memory";
                name += o.rounds() > 1 ? " " + (i + 1) : "";
                if (r.contains("\"failed\"")) {
                    System.out.printf("%-10s failed (exit %s; see its output above)%n", name, field(r, "exit"));
                    continue;
                }
                boolean d = r.contains("\"state\":\"durable\"");
                System.out.printf("%-10s %,12.0f %10.1f %9.2f %9.2f %9.2f %9.2f %,10.0f %12s %10s %12s %5.0f%% %5.0f%%%n",
                        name, num(r, "eventsPerSecond"),
                        num(r, "allocBytesPerEvent"), num(r, "p50Us"), num(r, "p99Us"), num(r, "p999Us"), num(r, "p9999Us"),
                        num(r, "maxUs"),
                        d ? String.format(Locale.ROOT, "%.0f", num(r, "checkpointsTimed")) : "-",
                        d ? String.format(Locale.ROOT, "%,.0f", num(r, "evictionsTimed")) : "-",
                        d ? String.format(Locale.ROOT, "%.1f", num(r, "rocksDbBytesAfterClose") / (1 << 20)) : "-",
                        100 * num(r, "replayCpuShare"), 100 * num(r, "replayRunQueueShare"));
            }
        }
        List<String> memoryOk = memoryRows.stream().filter(r -> !r.contains("\"failed\"")).toList();
        List<String> durableOk = durableRows.stream().filter(r -> !r.contains("\"failed\"")).toList();
        Set<String> checksums = new HashSet<>();
        for (String r : rows) {
            if (r.contains("\"state\":")) {
                checksums.add(field(r, "checksum"));
            }
        }
        boolean same = checksums.size() == 1;
        boolean failed = memoryOk.size() < o.rounds() || durableOk.size() < o.rounds();
        if (memoryOk.isEmpty() || durableOk.isEmpty()) {
            System.out.printf("no ratio: %s failed; checksums %s %s%n", memoryOk.isEmpty() ? "every memory run" : "every durable run",
                    same ? "equal" : "DIFFER", checksums);
        } else {
            double memoryRate = median(memoryOk, "eventsPerSecond");
            double durableRate = median(durableOk, "eventsPerSecond");
            double ratio = durableRate / memoryRate;
            System.out.printf("durable / memory throughput: %.3f%s; p99.9 durable / memory: %.2f; checksums %s %s%s%n",
                    ratio, o.rounds() > 1 ? String.format(Locale.ROOT, " (medians %,.0f / %,.0f ev/s)", durableRate, memoryRate) : "",
                    median(durableOk, "p999Us") / median(memoryOk, "p999Us"), same ? "equal" : "DIFFER", checksums,
                    failed ? " (over the runs that completed)" : "");
            rows.add(String.format(Locale.ROOT,
                    "{\"harness\":\"engine\",\"comparison\":\"state\",\"query\":\"%s\",\"cards\":%d,\"events\":%d,\"hotKeys\":%d,"
                            + "\"reservoir\":\"%s\",\"rounds\":%d,\"memoryEventsPerSecond\":%.0f,\"durableEventsPerSecond\":%.0f,"
                            + "\"durableOverMemoryThroughput\":%.4f,\"checksumsEqual\":%b,\"allCompleted\":%b}",
                    o.query(), o.cards(), o.events(), o.hotKeys(), o.disk() ? "disk" : "memory", o.rounds(), memoryRate,
                    durableRate, ratio, same, !failed));
        }
        Path out = resultsDir().resolve("engine-" + label(o) + "-compare-state.json");
        Files.write(out, rows);
        System.out.println("results: " + out.toAbsolutePath());
        if (failed || !same) {
            System.exit(1);
        }
    }

    private static double median(List<String> rows, String key) {
        double[] v = rows.stream().mapToDouble(r -> num(r, key)).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    private static String field(String json, String key) {
        Matcher m = Pattern.compile("\"" + Pattern.quote(key) + "\":\"?([^,\"}]*)").matcher(json);
        if (!m.find()) {
            throw new IllegalArgumentException("no " + key + " in " + json);
        }
        return m.group(1);
    }

    private static double num(String json, String key) {
        return Double.parseDouble(field(json, key));
    }

    // ------------------------------------------------------------------------------ one run

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
        if (o.disk() || o.durable()) {
            deleteTree(o.dataDir());
        }
        List<TaskProcessor> tasks = new ArrayList<>();
        // as a node: one budget shared by every durable task (closed after them)
        StateMemory stateMemory = o.durable() && o.budget() ? new StateMemory(o.stateMemoryBytes()) : null;
        List<DiskReservoir> disks = new ArrayList<>();
        List<Path> stateDirs = new ArrayList<>();
        DiskReservoirOptions reservoirOptions = DiskReservoirOptions.defaults().withCache(o.cacheChunks(), 1L << 30);
        TaskOptions taskOptions = TaskOptions.defaults().withMinDedupHorizonMs(o.dedupHorizonMs());
        for (String p : partitioners) {
            Path taskDir = o.dataDir().resolve(p + "-0");
            TaskProcessor t;
            if (o.durable()) {
                TaskStorage storage = TaskStorage.in(taskDir)
                        .withReservoir(reservoirOptions)
                        .withState(stateOptions(o, stateMemory))
                        .withCheckpointIntervalMs(o.checkpointIntervalMs());
                t = TaskProcessor.open(stream, taskOptions, storage);
                DiskReservoir d = diskReservoirOf(t);
                if (d != null) {
                    disks.add(d);
                }
                stateDirs.add(taskDir.resolve("state")); // TaskStorage: directory/state is RocksDB
            } else {
                EventReservoir reservoir;
                if (o.disk()) {
                    DiskReservoir d = DiskReservoir.open(taskDir, reservoirOptions);
                    disks.add(d);
                    reservoir = d;
                } else {
                    reservoir = new InMemoryReservoir();
                }
                t = new TaskProcessor(stream, taskOptions, reservoir, new InMemoryStateStore());
            }
            for (List<MetricDefinition> defs : bound) {
                if (defs.getFirst().partitioner().equals(p)) {
                    t.addMetrics(defs); // durable: takes a checkpoint and waits for it
                }
            }
            tasks.add(t);
        }
        TaskProcessor[] taskArray = tasks.toArray(new TaskProcessor[0]);
        EventRow row = new EventRow();
        double checksum = 0;
        progressEvents = batch.size();
        progressWarmup = warmup;
        for (int i = 0; i < warmup; i++) {
            if ((i & 0xFFFF) == 0) {
                progress = i;
            }
            checksum += replay(taskArray, batch.wrap(row, i));
        }

        Latency latency = new Latency(taskArray.length);
        long timerNs = timerOverheadNs();
        ReservoirStats before = total(disks);
        DurableCounters durableBefore = DurableCounters.of(taskArray);
        long gcCount0 = gcCount(), gcMs0 = gcMillis();
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        String load0 = loadAverage();
        long alloc0 = mx.getCurrentThreadAllocatedBytes();
        long cpu0 = mx.getCurrentThreadCpuTime();
        long[] sched0 = schedStat();
        long t0 = System.nanoTime();
        checksum += replayTimed(taskArray, batch, row, warmup, batch.size(), latency, t0);
        long elapsedNs = System.nanoTime() - t0;
        long[] sched1 = schedStat();
        long cpuNs = mx.getCurrentThreadCpuTime() - cpu0;
        long runQueueNs = sched0 == null || sched1 == null ? -1 : sched1[1] - sched0[1];
        long allocated = mx.getCurrentThreadAllocatedBytes() - alloc0;
        String load1 = loadAverage();
        long gcCount = gcCount() - gcCount0, gcMs = gcMillis() - gcMs0;
        ReservoirStats after = total(disks);
        for (TaskProcessor t : taskArray) {
            if (t.durableState() != null) {
                t.durableState().awaitCheckpoint(); // counters written by the checkpoint thread
            }
        }
        DurableCounters durableAfter = DurableCounters.of(taskArray);
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
        long retained = retainedEvents(taskArray);
        double diskBytesPerEvent = after == null ? 0 : (double) after.bytesOnDisk() / Math.max(1, retained);
        String engine = "railgun-" + (o.durable() ? "durable" : o.disk() ? "disk" : "memory");
        System.out.printf("%-8s %-16s %,12.0f %,14.0f %10.1f %13d %9d %8d %10s %9s   (checksum %.6g)%n", o.query(), engine,
                evPerSec, evPerSec * windowCount, allocPerEvent, liveHeapMb, rssMb, cursors,
                after != null ? String.format(Locale.ROOT, "%.1f", diskBytesPerEvent) : "-",
                after != null ? String.format(Locale.ROOT, "%.4f", hitRate) : "-", checksum);
        if (after != null) {
            System.out.printf("         reservoir: %,d chunk entries, %,d stalls, %,d prefetches, %,d bytes on disk in %d files, %,d events held%n",
                    chunkEntries, stalls, after.prefetches() - before.prefetches(), after.bytesOnDisk(), after.segments(),
                    retained);
        }
        Histogram h = latency.perEvent;
        System.out.printf("         per event µs: p50 %.2f  p99 %.2f  p99.9 %.2f  p99.99 %.2f  max %,.0f  mean %.2f"
                        + "  (nanoTime pair ≈ %d ns per process() call, included)%n",
                us(h, 50), us(h, 99), us(h, 99.9), us(h, 99.99), h.getMaxValue() / 1e3, h.getMean() / 1e3, timerNs);
        if (taskArray.length > 1) {
            for (int k = 0; k < taskArray.length; k++) {
                Histogram th = latency.perTask[k];
                System.out.printf("         task %-8s µs: p50 %.2f  p99 %.2f  p99.9 %.2f  p99.99 %.2f  max %,.0f%n",
                        partitioners.get(k), us(th, 50), us(th, 99), us(th, 99.9), us(th, 99.99), th.getMaxValue() / 1e3);
            }
        }
        System.out.printf("         events over %d ms: %,d (%.1f%% of the timed time)%s; GC in the timed part: %d collections, %,d ms%n",
                SLOW_NS / 1_000_000, latency.slowTotal, 100.0 * latency.slowTotalNs / elapsedNs, latency.slowest(),
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
        long rocksBytes = sizeOf(stateDirs);
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
        if (stateMemory != null) {
            stateMemory.close();
        }
        if (o.durable()) {
            long rocksAfterClose = sizeOf(stateDirs);
            long finalBytes = 0, finalNanos = 0;
            for (TaskProcessor t : taskArray) {
                finalBytes += t.durableState().lastCheckpointBytes();
                finalNanos = Math.max(finalNanos, t.durableState().lastCheckpointNanos());
            }
            DurableCounters a = durableAfter, b = durableBefore;
            System.out.printf("         durable: %,d checkpoints in the timed part (%,d in all, every %,d ms), last %.1f MB in %,d ms;"
                            + " hot keys %,d (limit %,d per key table, %s; %,d B per hot key measured)%n",
                    a.checkpoints - b.checkpoints, a.checkpoints, o.checkpointIntervalMs(), a.lastCheckpointBytes / 1048576.0,
                    a.lastCheckpointNanos / 1_000_000, a.hotKeys, a.hotLimit, hotKeysText(o), a.bytesPerHotKey);
            System.out.printf("         durable, timed part: %,d evictions (%.3f/event), %,d cold loads (%.3f/event), %,d RocksDB reads"
                            + " (%.3f/event); totals %,d / %,d / %,d%n",
                    a.evictions - b.evictions, (double) (a.evictions - b.evictions) / timed, a.coldLoads - b.coldLoads,
                    (double) (a.coldLoads - b.coldLoads) / timed, a.coldReads - b.coldReads,
                    (double) (a.coldReads - b.coldReads) / timed, a.evictions, a.coldLoads, a.coldReads);
            System.out.printf("         durable: RocksDB %.1f MB on disk at the end of the timed part, %.1f MB after close;"
                            + " close() %,d ms (final checkpoint %.1f MB in %,d ms)%n",
                    rocksBytes / 1048576.0, rocksAfterClose / 1048576.0, closeNs / 1_000_000, finalBytes / 1048576.0,
                    finalNanos / 1_000_000);
            long timedCheckpoints = Math.max(1, a.checkpoints - b.checkpoints);
            System.out.printf("         durable: checkpoints of the timed part wrote %.1f MB (%.1f MB per checkpoint); at its end"
                            + " RocksDB's SST files %.1f MB for %.1f MB of state as read back (keys and values): %.2fx;"
                            + " values stored in all: %,d whole (%.1f MB), %,d patches (%.1f MB)%n",
                    (a.bytesWritten - b.bytesWritten) / 1048576.0, (a.bytesWritten - b.bytesWritten) / 1048576.0 / timedCheckpoints,
                    sstBytes / 1048576.0, storedBytes / 1048576.0, (double) sstBytes / Math.max(1, storedBytes), wholes,
                    wholeBytes / 1048576.0, patches, patchBytes / 1048576.0);
            durableJson = String.format(Locale.ROOT,
                    ",\"checkpointBytesTimed\":%d,\"sstBytes\":%d,\"storedBytes\":%d", a.bytesWritten - b.bytesWritten,
                    sstBytes, storedBytes) + String.format(Locale.ROOT,
                    ",\"hotKeysLimit\":%d,\"checkpointIntervalMs\":%d,\"checkpointsTimed\":%d,\"checkpoints\":%d,"
                            + "\"lastCheckpointBytes\":%d,\"lastCheckpointMs\":%.1f,\"hotKeys\":%d,\"evictions\":%d,\"evictionsTimed\":%d,"
                            + "\"coldLoads\":%d,\"coldLoadsTimed\":%d,\"coldReads\":%d,\"coldReadsTimed\":%d,\"rocksDbBytes\":%d,"
                            + "\"rocksDbBytesAfterClose\":%d,\"closeMs\":%.1f,\"finalCheckpointBytes\":%d,\"finalCheckpointMs\":%.1f",
                    a.hotLimit, o.checkpointIntervalMs(), a.checkpoints - b.checkpoints, a.checkpoints,
                    a.lastCheckpointBytes, a.lastCheckpointNanos / 1e6, a.hotKeys, a.evictions, a.evictions - b.evictions,
                    a.coldLoads, a.coldLoads - b.coldLoads, a.coldReads, a.coldReads - b.coldReads, rocksBytes,
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

    /** Per-event processing times of the timed part; all preallocated, so recording allocates nothing. */
    private static final class Latency {
        final Histogram perEvent = new Histogram(HIGHEST_NS, 3);
        final Histogram[] perTask;
        /** Events during which a task started a checkpoint (or waited for the previous one), and the others. */
        final Histogram checkpointing = new Histogram(HIGHEST_NS, 3);
        final Histogram notCheckpointing = new Histogram(HIGHEST_NS, 3);
        final long[] slowAtNs = new long[1 << 16];
        final long[] slowNs = new long[1 << 16];
        final byte[] slowFlags = new byte[1 << 16];
        int slowLogged;
        long slowTotal;
        long slowTotalNs;
        long lastGcCount = gcCount();

        Latency(int tasks) {
            perTask = new Histogram[tasks];
            for (int i = 0; i < tasks; i++) {
                perTask[i] = new Histogram(HIGHEST_NS, 3);
            }
        }

        /** A slow event; flags: 1 it started a checkpoint, 2 a GC ended since the previous slow event. */
        void slow(long atNs, long ns, boolean checkpoint) {
            slowTotal++;
            slowTotalNs += ns;
            long gcs = gcCount();
            int flags = (checkpoint ? 1 : 0) | (gcs != lastGcCount ? 2 : 0);
            lastGcCount = gcs;
            if (slowLogged < slowNs.length) {
                slowAtNs[slowLogged] = atNs;
                slowFlags[slowLogged] = (byte) flags;
                slowNs[slowLogged++] = ns;
            }
        }

        /** The slowest events, in time order: "; slowest: 85 ms at 10.2 s, ...". */
        String slowest() {
            if (slowLogged == 0) {
                return "";
            }
            Integer[] order = new Integer[slowLogged];
            for (int i = 0; i < slowLogged; i++) {
                order[i] = i;
            }
            Arrays.sort(order, (a, b) -> Long.compare(slowNs[b], slowNs[a]));
            Integer[] top = Arrays.copyOf(order, Math.min(8, order.length));
            Arrays.sort(top);
            StringBuilder sb = new StringBuilder("; slowest:");
            for (int i : top) {
                String tag = (slowFlags[i] & 1) != 0 ? "C" : "";
                tag += (slowFlags[i] & 2) != 0 ? "G" : "";
                sb.append(String.format(Locale.ROOT, " %.1f ms at %.1f s%s,", slowNs[i] / 1e6, slowAtNs[i] / 1e9,
                        tag.isEmpty() ? "" : " (" + tag + ")"));
            }
            sb.setLength(sb.length() - 1);
            return sb.toString();
        }
    }

    private static double us(Histogram h, double percentile) {
        return h.getValueAtPercentile(percentile) / 1e3;
    }

    /**
     * The timed replay: System.nanoTime around every process() call, the event's total (over its
     * tasks) into {@code latency.perEvent}, each call into its task's histogram.
     */
    private static double replayTimed(TaskProcessor[] tasks, EventBatch batch, EventRow row, int from, int to,
                                      Latency latency, long t0) {
        Histogram perEvent = latency.perEvent;
        Histogram[] perTask = latency.perTask;
        VarHandle lastCheckpoint = LAST_CHECKPOINT_MS;
        double sum = 0;
        for (int i = from; i < to; i++) {
            if ((i & 0xFFFF) == 0) {
                progress = i;
            }
            batch.wrap(row, i);
            long eventNs = 0;
            long end = 0;
            boolean checkpoint = false;
            for (int k = 0; k < tasks.length; k++) {
                TaskProcessor t = tasks[k];
                long c0 = lastCheckpoint == null ? 0 : (long) lastCheckpoint.get(t);
                long start = System.nanoTime();
                Reply r = t.process(row);
                end = System.nanoTime();
                if (lastCheckpoint != null && (long) lastCheckpoint.get(t) != c0) {
                    checkpoint = true;
                }
                long ns = end - start;
                eventNs += ns;
                perTask[k].recordValue(Math.min(ns, HIGHEST_NS));
                sum += sum(r);
            }
            long v = Math.min(eventNs, HIGHEST_NS);
            perEvent.recordValue(v);
            (checkpoint ? latency.checkpointing : latency.notCheckpointing).recordValue(v);
            if (eventNs >= SLOW_NS) {
                latency.slow(end - t0, eventNs, checkpoint);
            }
        }
        return sum;
    }

    /** Cost of the two System.nanoTime calls around a call, on this machine (best of a few warm rounds). */
    private static long timerOverheadNs() {
        long best = Long.MAX_VALUE;
        long sink = 0;
        for (int round = 0; round < 5; round++) {
            int n = 1_000_000;
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                long a = System.nanoTime();
                sink += System.nanoTime() - a;
            }
            best = Math.min(best, (System.nanoTime() - t0) / n);
        }
        return sink == Long.MIN_VALUE ? -1 : best;
    }

    /** Durable stores' counters summed over the tasks (zero for in-memory tasks). */
    private record DurableCounters(long checkpoints, long lastCheckpointBytes, long lastCheckpointNanos, long hotKeys,
                                   long evictions, long coldLoads, long coldReads, long hotLimit, long bytesPerHotKey,
                                   long bytesWritten) {
        static DurableCounters of(TaskProcessor[] tasks) {
            long checkpoints = 0, bytes = 0, nanos = 0, hot = 0, evictions = 0, loads = 0, reads = 0, written = 0;
            long limit = 0, perKey = 0;
            for (TaskProcessor t : tasks) {
                DurableStateStore s = t.durableState();
                if (s == null) {
                    continue;
                }
                checkpoints += s.checkpoints();
                bytes += s.lastCheckpointBytes();
                written += s.checkpointBytesWritten();
                nanos = Math.max(nanos, s.lastCheckpointNanos());
                reads += s.coldReads();
                hot += t.hotKeys();
                evictions += t.evictions();
                loads += t.coldLoads();
                limit = limit == 0 ? s.hotKeyLimit() : Math.min(limit, s.hotKeyLimit());
                perKey = Math.max(perKey, s.hotBytesPerKey());
            }
            return new DurableCounters(checkpoints, bytes, nanos, hot, evictions, loads, reads, limit, perKey, written);
        }
    }

    /**
     * A durable task's reservoir, for its chunk statistics: TaskProcessor has no accessor for it,
     * so the harness reads the private field; null (no reservoir stats) if that changes.
     */
    private static DiskReservoir diskReservoirOf(TaskProcessor t) {
        try {
            java.lang.reflect.Field f = TaskProcessor.class.getDeclaredField("disk");
            f.setAccessible(true);
            return f.get(t) instanceof DiskReservoir d ? d : null;
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;
        }
    }

    private static long sizeOf(List<Path> dirs) throws IOException {
        long bytes = 0;
        for (Path dir : dirs) {
            if (!Files.exists(dir)) {
                continue;
            }
            try (Stream<Path> paths = Files.walk(dir)) {
                for (Path p : paths.filter(Files::isRegularFile).toList()) {
                    try {
                        bytes += Files.size(p);
                    } catch (IOException e) {
                        // a file RocksDB deleted while we walked
                    }
                }
            }
        }
        return bytes;
    }

    private static long gcCount() {
        long n = 0;
        for (GarbageCollectorMXBean gc : GCS) {
            n += Math.max(0, gc.getCollectionCount());
        }
        return n;
    }

    private static long gcMillis() {
        long n = 0;
        for (GarbageCollectorMXBean gc : GCS) {
            n += Math.max(0, gc.getCollectionTime());
        }
        return n;
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
            sum += sum(t.process(row));
        }
        return sum;
    }

    private static double sum(Reply r) {
        double sum = 0;
        for (int i = 0; i < r.size(); i++) {
            if (!r.isNull(i)) {
                sum += r.type(i) == ValueType.DOUBLE ? r.doubleValue(i) : r.longValue(i);
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
        System.out.printf("%-8s %-16s %,12.0f %14s %10.1f %13d %9s %8s %10s %9s   (checksum %.6g)%n", query, "naive-heap",
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

    /**
     * This thread's time on a CPU and time runnable but waiting for one, in ns
     * ({@code /proc/thread-self/schedstat}, Linux), or null.
     */
    private static long[] schedStat() {
        try {
            String[] f = Files.readString(Path.of("/proc/thread-self/schedstat")).trim().split(" ");
            return new long[] {Long.parseLong(f[0]), Long.parseLong(f[1])};
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The 1-minute load average (Linux), or "?". */
    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
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
