package io.railgun.bench.engine;

import io.railgun.engine.state.durable.DurableStateOptions;
import io.railgun.engine.state.durable.StateMemory;
import io.railgun.engine.task.TaskStorage;
import io.railgun.node.NodeConfig;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The command line of {@link EngineBench} ({@code bench/run engine}): its usage text, the parsed
 * options with their defaults, and what follows from them (the configuration's label in result
 * files, the durable store's settings). Immutable; parsed on the main thread.
 */
record EngineBenchOptions(String query, String window, int windows, int events, int cards, double rate,
                          double warmupFraction, boolean disk, int cacheChunks, Path dataDir, long dedupHorizonMs,
                          boolean baseline, boolean durable, boolean compareState, int rounds, int hotKeys,
                          long checkpointIntervalMs, long stateMemoryBytes, int prefetch, boolean profile,
                          boolean profileAlloc) {
    static final String USAGE = """
            usage: bench/run engine [options]
              --query P51|E1|EX1|FRAUD|P52A|P52B   workload (default E1)
              --window "7 DAYS"                   P52A: the window of P51 (default 60 MINUTES)
              --windows N                         P52B: misaligned windows (2N reservoir cursors; default 10)
              --events N                          payments generated (default 2000000)
              --cards N                           distinct cards (default 1000000; 10000000 for E2)
              --rate R                            simulated events per second of event time (default 500; FRAUD:
                                                  the warm-up's events over 198 days, so its longest window is
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
              --prefetch N                        events whose lookups are prefetched together before they are
                                                  processed (TaskProcessor.prefetch; default 16, as the node; 0: none)
              --no-baseline                       skip the naive in-heap baseline
              --profile                           a CPU profile of the timed part (async-profiler, 1 ms): the replay
                                                  thread's top frames printed, a flame graph and collapsed stacks in
                                                  bench-results/engine-<run>-profile.html|.collapsed
              --profile-alloc                     the same of what every thread allocates in the timed part, in
                                                  bytes (sampled every 16 KiB): the allocating frames printed
            Per-event processing time (one System.nanoTime after each process() call: an event's time runs
            from the end of the one before, so it includes its group's prefetch) is recorded in the timed
            part: p50/p99/p99.9/p99.99/max in µs, the share of the time spent in events up to the median
            and up to 2/4/16/64 times it (a group's first event, which loads the group's prefetches, is
            4-16 times the median), events over 1 ms (C: it started a checkpoint, G: a GC
            ended), GC, and the replay thread's time on a CPU and waiting for one (a busy machine shows
            there); durable runs also print checkpoints, hot keys, evictions, cold loads and reads, RocksDB
            bytes on disk and the time of close() (final checkpoint). A run that spends more than half
            of a minute in GC is ended (exit 3): the heap (BENCH_JAVA_OPTS) is too small for it.
            A full GC runs between the warm-up and the timed part. bench/run's default heap is fixed and
            touched at start (-Xms8g -Xmx8g -XX:+AlwaysPreTouch), so RSS includes the whole 8 GiB heap
            (with --compare-state, in each child run; the parent waits with a small heap).
            """;

    /** Whether durable tasks share a node-like memory budget (no --hot-keys given). */
    boolean budget() {
        return hotKeys == 0;
    }

    /** The hot-key limit given, or the cap of the node's defaults under the budget. */
    int hotKeyCap() {
        return budget() ? NodeConfig.defaults().hotKeys() : hotKeys;
    }

    /** The options of {@code args}, or null when they ask for the usage ({@code --help}). */
    static EngineBenchOptions parse(String[] args) {
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
        int prefetch = 16;
        boolean profile = false;
        boolean profileAlloc = false;
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
                case "--profile" -> profile = true;
                case "--profile-alloc" -> {
                    profile = true;
                    profileAlloc = true;
                }
                case "--prefetch" -> prefetch = Integer.parseInt(args[++i]);
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
        return new EngineBenchOptions(query, window, windows, events, cards, rate, warmupFraction, onDisk, cacheChunks, dataDir,
                dedupHorizonMs, baseline, durable, compareState, rounds, hotKeys, checkpointIntervalMs, stateMemoryBytes, prefetch, profile,
                profileAlloc);
    }

    /** The configuration's name in result files, e.g. {@code e1-disk}, {@code fraud-disk-durable}. */
    String label() {
        return query.toLowerCase(Locale.ROOT)
                + (query.equals("P52A") ? "-" + window.toLowerCase(Locale.ROOT).replace(' ', '-') : "")
                + (query.equals("P52B") ? "-" + windows : "") + "-" + (disk ? "disk" : "memory")
                + (durable ? "-durable" : "");
    }

    /** The durable store's settings: the node's defaults within a budget, or a fixed hot-key limit. */
    DurableStateOptions stateOptions(StateMemory memory) {
        DurableStateOptions d = DurableStateOptions.defaults().withHotKeys(hotKeyCap());
        return memory == null ? d : d.withMemory(memory);
    }

    /** How the hot-key limit was chosen, for the printed reports. */
    String hotKeysText() {
        return budget() ? String.format(Locale.ROOT, "from the node's %,d MiB state memory (capped at %,d)",
                stateMemoryBytes >> 20, hotKeyCap()) : String.format(Locale.ROOT, "%,d (fixed)", hotKeys);
    }

    /** FRAUD's longest window, [RANGE 180 DAYS], in seconds. */
    private static final double FRAUD_LONGEST_WINDOW_S = 180 * 86_400.0;

    /**
     * FRAUD in steady state (E2): event time compressed so that the warm-up spans the longest
     * window (180 days) and a tenth more; from the first timed event on, every window of the
     * workload — 1 minute to 180 days — is full and expires events as new ones arrive, as it does
     * for a fraud team that has run for half a year. (At 500 ev/s the 180-day window would need
     * 7.8 billion events to fill: the timed part measured the fill phase.) The warm-up's last
     * tenth already expires 180-day-old events, so the JIT has compiled that path before timing
     * starts (with 1% it recompiled a dozen methods in the timed part's first half second).
     */
    static double fraudSteadyRate(int events, double warmupFraction) {
        double warmup = Math.max(1, events * warmupFraction);
        return warmup / (FRAUD_LONGEST_WINDOW_S * 1.1);
    }
}
