package io.railgun.bench.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The command line of {@code bench/run e2e}, parsed once at start-up; {@link #USAGE} documents every
 * option. Immutable.
 *
 * @param url            a running node's base URI, or null to start one ({@link #nodeMode})
 * @param nodeMode       {@code child} (a node in its own JVM, the default) or {@code in-process}
 * @param nodeJavaOpts   JVM options of a child node
 * @param nodeArgs       more arguments of a child node's {@code railgun start}
 * @param processors     the node's processor units, or 0 for its default (the machine's cores but one)
 * @param jfr            record the child node with Java Flight Recorder
 * @param query          P51 or EX1
 * @param stream         the stream's name, or null for the default (see USAGE)
 * @param partitions     partitions per partitioner topic
 * @param rates          the rates to measure, in order
 * @param eventRate      events per second of event time, or 0 to follow each rate (event time keeps
 *                       pace with the wall clock)
 * @param warmupMs       warm-up at each rate, excluded from the figures
 * @param firstWarmupMs  warm-up at the first rate (the node's JIT warms up then): {@code warmupMs} but in a
 *                       {@code --sweep}
 * @param durationMs     the measured part at each rate
 * @param connections    most requests in flight
 * @param clientExecutor the injector's HTTP client: {@code netty} (a Netty HTTP/1.1 client, one event loop),
 *                       {@code direct} (the JDK's HttpClient through the Railgun client, replies completed on
 *                       its selector thread) or {@code pool} (the same, completed on its default pool)
 * @param timeoutMs      the client's request timeout
 * @param lateness       the stream's lateness
 * @param cards          distinct cards of the generator
 * @param seed           the generator's seed
 * @param checkEvery     every N-th reply is decoded and checked (0: none)
 * @param slowMs         replies slower than this are listed as episodes with their time in the run
 * @param sloMs          the p99.9 bound a sweep looks for (L2: 250 ms)
 * @param batch          events per request: 1 ({@code POST .../events}) or a batch ({@code .../events:batch})
 * @param sweepAsked     {@code --sweep}: raise the rate step by step (the default ladder unless {@code --rates})
 *                       until a step fails ({@link SweepRule})
 * @param sweepMaxMs     a sweep starts no step that would end later than this after its start
 * @param label          a part of the results' file names (e.g. the node's GC), or empty
 * @param plotFiles      results files to plot together instead of running ({@code --plot}), or empty
 * @param plotOut        the PNG of {@code --plot}
 */
record E2eOptions(String url, String nodeMode, String nodeJavaOpts, List<String> nodeArgs, int processors, boolean jfr,
                  String query, String stream, int partitions, List<Double> rates, double eventRate, long warmupMs,
                  long firstWarmupMs, long durationMs, int connections, String clientExecutor, long timeoutMs, String lateness, int cards,
                  long seed, int checkEvery, double slowMs, double sloMs, int batch, boolean sweepAsked,
                  long sweepMaxMs, String label, List<String> plotFiles, String plotOut) {

    /** The rates of {@code --sweep} without {@code --rates} (L2: the highest with p99.9 < 250 ms, ≥ 50,000 wanted). */
    static final List<Double> SWEEP_RATES = List.of(5_000.0, 10_000.0, 20_000.0, 30_000.0, 40_000.0, 50_000.0,
            60_000.0, 80_000.0, 100_000.0);

    /** The railgun script's default JVM options (RAILGUN_JAVA_OPTS), so the node runs as a user's would. */
    static final String DEFAULT_NODE_JAVA_OPTS = "-XX:MaxRAMPercentage=50 -XX:MaxGCPauseMillis=10"
            + " -XX:-ClassUnloadingWithConcurrentMark -XX:+UseCompactObjectHeaders -XX:+ExitOnOutOfMemoryError";

    static final String USAGE = """
            usage: bench/run e2e [options]
                   bench/run e2e --plot FILE.json[,FILE.json...] [--out FILE.png]
            Latency through the HTTP API (BENCHMARKS.md L1, L2): an open-loop injector sends pre-serialised
            payments (POST /v1/streams/{stream}/events, one event per request, or batches with --batch) on a
            fixed schedule at --rate events/s; each latency is reply time - intended send time (corrected for
            coordinated omission: a reply that comes late, or a send the injector could not make on time,
            counts from when the event was due). Warm-up at the same rate, then the measured part. Prints
            p50/p90/p99/p99.9/p99.99/max, errors by kind, the injector's own lag, the machine's CPU use, the
            node's and the injector's CPU time per event and the node's heap allocation per event (JMX), and
            writes one JSON object per rate to bench-results/e2e-<query>-<node>[-<label>][-batch<N>][-sweep].json
            and the latency-by-percentile plot of every rate next to it (.png).
            Node:
              --url URL                  measure a running node (./railgun start), e.g. http://127.0.0.1:7070;
                                         the stream is created there (and deleted at the end)
              --node child|in-process    without --url: start a node with an embedded broker in a temporary data
                                         directory, in a child JVM (default: its GC and CPU are its own, as in
                                         production; run from node/target/classes + node/target/classpath.txt)
                                         or in this JVM (Node.start: shares the heap and GC with the injector,
                                         and its CPU figures are the node's and the injector's together)
              --node http-floor|http-floor-hop
                                         the floor under the node instead: the node's HTTP layer in a child JVM
                                         over a stand-in that answers every event at once, with no Kafka and no
                                         engine (node/src/test/.../HttpFloor), on the event loop or, with -hop,
                                         from one other thread as a processor unit does; replies not checked
              --node-java-opts "OPTS"    child node's JVM options (default: the railgun script's, "%s")
              --node-args "ARGS"         more options of the child node's 'railgun start' (space-separated), e.g.
                                         "--kafka-property linger.ms=1 --checkpoint-interval 30s"
              --processors N             the node's processor units (default: its own, the machine's cores but one)
              --jfr                      record the child node with JFR: bench-results/e2e-<query>-node.jfr
            Workload:
              --query P51|EX1            P51: SUM(amount) by card [60 MINUTES], partitioner card; EX1: SUM and COUNT
                                         by card, AVG by merchant [5 MINUTES], partitioners card and merchant
                                         (default P51); FRAUD: BENCHMARKS.md's fraud profile, 11 statements,
                                         windows of 1 minute to 180 days, partitioners card and merchant
              --stream NAME              stream name (default payments; payments_<time> with --url)
              --partitions N             partitions per partitioner topic (default 4)
              --cards N                  distinct cards, Zipf-skewed (default 1000000)
              --event-rate R             events per second of event time (default: the send rate, so event time
                                         keeps pace with the wall clock, and P51's 60-minute window never fills in
                                         a short run; --event-rate 500, the paper's, at --rate 5000 runs event time
                                         10x faster and fills it in 6 min)
              --lateness D               the stream's lateness (default 5s: requests in flight at once can reach
                                         a partition out of order by their latency; late drops are counted)
              --seed N                   generator seed (default 42)
            Load:
              --rate R                   events per second (default 5000)
              --rates R1,R2,...          each rate in turn on the same node and stream, each with its own warm-up
                                         (the first with --first-warmup), e.g. L1's --rates 5000,20000; one table,
                                         one JSON and one plot for all
              --sweep                    L2: raise the rate step by step, %s (or --rates),
                                         and stop at the first rate whose p99.9 is not under --slo-ms, or with
                                         errors, or whose achieved rate is under 95%% of the asked one; prints the
                                         highest rate that passed. Short steps unless told otherwise (--first-warmup
                                         60s --warmup 10s --duration 20s), bounded by --sweep-max
              --first-warmup D           warm-up at the first rate, when the node's JIT warms up too (default: as
                                         --warmup; 60s with --sweep)
              --sweep-max D              a sweep starts no step that would end later than this (default 10m)
              --batch N                  N events per request: POST /v1/streams/{stream}/events:batch at rate/N
                                         requests/s (default 1: POST .../events). Each event's latency is its
                                         batch's reply time - the batch's intended send time (when its first event
                                         is due; the batch is sent whole then, no event waits for it to fill)
              --warmup D                 warm-up at each rate, excluded (default 20s)
              --duration D               measured part at each rate (default 60s)
              --connections N            most requests in flight (default 128); the injector waits for a free one,
                                         and that wait counts in the latency. Keep it under the node's
                                         --max-connections-per-address (1000 by default)
              --client netty|jdk|jdk-pool  the injector's HTTP client (default netty: Netty's HTTP/1.1 codec on one
                                         event loop, keep-alive connections pooled up to --connections: the injector's
                                         CPU per event at 5,000 ev/s 51 µs against the JDK client's 70-80,
                                         CPU taken from the node on a 2-core machine);
                                         jdk: java.net.http through the Railgun Java client, replies completed on
                                         its selector thread (the injector of the runs before 2026-11-24);
                                         jdk-pool: the same, completed on the JDK client's cached pool
              --client-executor direct|pool   the older name of --client jdk and --client jdk-pool
              --timeout D                the client's request timeout (default 30s; the node answers 503 after its
                                         own --request-timeout, 10s by default)
            Report:
              (always, for a child node) its RSS, heap in use and RocksDB memory every 5 s, with its state
              memory budget: bench-results/<name>-memory.csv and <name>-memory.png, and whether it exited.
              A node memory run (issue 13): --query FRAUD --cards 10000000 --partitions 4 (8 tasks)
              --node-java-opts "-Xmx2g -XX:+ExitOnOutOfMemoryError" --node-args "--state-memory 2GiB"
              --rate 1000 --batch 100 --event-rate 0.1 --lateness 6h --warmup 10s --duration 30m --check-every 0
              (event time 10,000x the wall clock: 208 days in 30 min, so 180-day windows fill and expire;
              --check-every 0: FRAUD's STDDEV_SAMP of one value is NULL, which the reply check refuses)
              --check-every N            decode every N-th reply and check its eventId, metric names and values
                                         (default 100; 0: none); every reply is scanned for "dropped" and
                                         "duplicate"
              --slow-ms MS               list the episodes with replies slower than this (default 20, L1's bound)
              --slo-ms MS                the p99.9 bound of a sweep (default 250, L2's)
              --label TEXT               put TEXT in the results' file names (default: the GC named in
                                         --node-java-opts, e.g. zgc, g1, parallel; else nothing)
              --plot F1.json,F2.json     no run: plot every rate of these results files in one PNG (--out, default
                                         bench-results/e2e-plot.png), e.g. the same command on three GCs
              --out FILE.png             the PNG of --plot
            Durations: 500ms, 20s, 2m, 1h. Injector JVM options: BENCH_JAVA_OPTS (default -Xmx4g).
            """.formatted(DEFAULT_NODE_JAVA_OPTS, SWEEP_RATES.stream().map(r -> String.format(Locale.ROOT, "%.0fk",
            r / 1000)).collect(java.util.stream.Collectors.joining(",")));

    /** The parsed options, or null when help was asked for. */
    static E2eOptions parse(String[] args) {
        String url = null;
        String nodeMode = "child";
        String nodeJavaOpts = DEFAULT_NODE_JAVA_OPTS;
        List<String> nodeArgs = List.of();
        int processors = 0;
        boolean jfr = false;
        String query = "P51";
        String stream = null;
        int partitions = 4;
        List<Double> rates = List.of(5000.0);
        double eventRate = 0;
        long warmupMs = 20_000;
        long durationMs = 60_000;
        int connections = 128;
        String clientExecutor = "netty";
        long timeoutMs = 30_000;
        String lateness = "5s";
        int cards = 1_000_000;
        long seed = 42;
        int checkEvery = 100;
        double slowMs = 20;
        double sloMs = 250;
        int batch = 1;
        boolean sweepAsked = false;
        boolean ratesGiven = false;
        boolean warmupGiven = false;
        boolean durationGiven = false;
        long firstWarmupMs = -1;
        long sweepMaxMs = 600_000;
        String label = null;
        List<String> plotFiles = List.of();
        String plotOut = "bench-results/e2e-plot.png";
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--help", "-h" -> {
                    return null;
                }
                case "--jfr" -> jfr = true;
                case "--sweep" -> sweepAsked = true;
                default -> {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException(a.startsWith("--") ? a + " needs a value (see --help)"
                                : "unexpected argument " + a + " (see --help)");
                    }
                    String v = args[++i];
                    switch (a) {
                        case "--url" -> url = v.endsWith("/") ? v.substring(0, v.length() - 1) : v;
                        case "--node" -> nodeMode = oneOf(a, v, "child", "in-process", "http-floor", "http-floor-hop");
                        case "--node-java-opts" -> nodeJavaOpts = v;
                        case "--node-args" -> nodeArgs = v.isBlank() ? List.of() : List.of(v.strip().split("\\s+"));
                        case "--processors" -> processors = positive(a, Integer.parseInt(v));
                        case "--query" -> query = oneOf(a, v.toUpperCase(Locale.ROOT), "P51", "EX1", "FRAUD");
                        case "--stream" -> stream = v;
                        case "--partitions" -> partitions = positive(a, Integer.parseInt(v));
                        case "--rate" -> rates = List.of(positiveRate(a, v));
                        case "--rates" -> {
                            List<Double> list = new ArrayList<>();
                            for (String r : v.split(",")) {
                                list.add(positiveRate(a, r.strip()));
                            }
                            rates = List.copyOf(list);
                            ratesGiven = true;
                        }
                        case "--event-rate" -> eventRate = positiveRate(a, v);
                        case "--warmup" -> {
                            warmupMs = durationMs(a, v, true);
                            warmupGiven = true;
                        }
                        case "--duration" -> {
                            durationMs = durationMs(a, v, false);
                            durationGiven = true;
                        }
                        case "--first-warmup" -> firstWarmupMs = durationMs(a, v, true);
                        case "--batch" -> batch = positive(a, Integer.parseInt(v));
                        case "--sweep-max" -> sweepMaxMs = durationMs(a, v, false);
                        case "--label" -> label = v.strip().replaceAll("[^A-Za-z0-9_.-]+", "-");
                        case "--plot" -> plotFiles = List.of(v.split(","));
                        case "--out" -> plotOut = v;
                        case "--connections" -> connections = positive(a, Integer.parseInt(v));
                        case "--client" -> clientExecutor = switch (oneOf(a, v, "netty", "jdk", "jdk-pool")) {
                            case "jdk" -> "direct";
                            case "jdk-pool" -> "pool";
                            default -> "netty";
                        };
                        case "--client-executor" -> clientExecutor = oneOf(a, v, "direct", "pool");
                        case "--timeout" -> timeoutMs = durationMs(a, v, false);
                        case "--lateness" -> lateness = v;
                        case "--cards" -> cards = positive(a, Integer.parseInt(v));
                        case "--seed" -> seed = Long.parseLong(v);
                        case "--check-every" -> checkEvery = Math.max(0, Integer.parseInt(v));
                        case "--slow-ms" -> slowMs = Double.parseDouble(v);
                        case "--slo-ms" -> sloMs = Double.parseDouble(v);
                        default -> throw new IllegalArgumentException("unknown option " + a + " (see --help)");
                    }
                }
            }
        }
        boolean floor = nodeMode.startsWith("http-floor");
        if (floor && url != null) {
            throw new IllegalArgumentException("--node " + nodeMode + " starts its own floor: drop --url");
        }
        if (floor) {
            checkEvery = 0; // the floor answers every event with the same reply
        }
        if (jfr && (url != null || nodeMode.equals("in-process"))) {
            throw new IllegalArgumentException("--jfr records a child node: drop --url / --node in-process, or give "
                    + "-XX:StartFlightRecording=... in BENCH_JAVA_OPTS");
        }
        if (!nodeArgs.isEmpty() && (url != null || !nodeMode.equals("child"))) {
            throw new IllegalArgumentException("--node-args are for a child node: drop --url / --node in-process");
        }
        if (sweepAsked) {
            rates = ratesGiven ? rates : SWEEP_RATES;
            warmupMs = warmupGiven ? warmupMs : 10_000;
            durationMs = durationGiven ? durationMs : 20_000;
            firstWarmupMs = firstWarmupMs >= 0 ? firstWarmupMs : 60_000;
        }
        if (firstWarmupMs < 0) {
            firstWarmupMs = warmupMs;
        }
        if (label == null) {
            label = url == null && !nodeMode.equals("in-process") ? gcLabel(nodeJavaOpts) : "";
        }
        return new E2eOptions(url, nodeMode, nodeJavaOpts, nodeArgs, processors, jfr, query, stream, partitions, rates,
                eventRate, warmupMs, firstWarmupMs, durationMs, connections, clientExecutor, timeoutMs, lateness, cards, seed, checkEvery,
                slowMs, sloMs, batch, sweepAsked, sweepMaxMs, label, plotFiles, plotOut);
    }

    /** The collector a JVM's options select ({@code -XX:+UseZGC} → {@code zgc}), or empty (the JVM's default). */
    static String gcLabel(String javaOpts) {
        if (javaOpts.strip().equals(DEFAULT_NODE_JAVA_OPTS)) {
            return ""; // the node's own options: results keep their plain name
        }
        String gc = "";
        for (String opt : javaOpts.strip().split("\\s+")) {
            switch (opt) {
                case "-XX:+UseZGC" -> gc = "zgc";
                case "-XX:+UseG1GC" -> gc = "g1";
                case "-XX:+UseParallelGC" -> gc = "parallel";
                case "-XX:+UseSerialGC" -> gc = "serial";
                case "-XX:+UseShenandoahGC" -> gc = "shenandoah";
                case "-XX:+UseEpsilonGC" -> gc = "epsilon";
                default -> { }
            }
        }
        return gc;
    }

    /**
     * The results' base name: {@code e2e-<query>-<node>[-<label>][-batch<N>][-sweep]}, to which
     * {@code .json} and {@code .png} are added.
     */
    String resultsName() {
        return "e2e-" + query.toLowerCase(Locale.ROOT) + "-" + mode() + (label.isEmpty() ? "" : "-" + label)
                + (batch > 1 ? "-batch" + batch : "") + (sweep() ? "-sweep" : "");
    }

    /** How the node is reached, for labels: {@code url}, {@code child}, {@code in-process} or a floor's name. */
    String mode() {
        return url != null ? "url" : nodeMode;
    }

    /** Whether the node is a floor ({@code --node http-floor...}), which computes nothing. */
    boolean floor() {
        return url == null && nodeMode.startsWith("http-floor");
    }

    /** Whether the rates are a sweep (L2), which stops at the first failing step. */
    boolean sweep() {
        return sweepAsked;
    }

    private static String oneOf(String option, String value, String... allowed) {
        for (String s : allowed) {
            if (s.equals(value)) {
                return s;
            }
        }
        throw new IllegalArgumentException(option + " is one of " + String.join(", ", allowed) + ", not " + value);
    }

    private static int positive(String option, int value) {
        if (value < 1) {
            throw new IllegalArgumentException(option + " must be at least 1");
        }
        return value;
    }

    private static double positiveRate(String option, String value) {
        double r = Double.parseDouble(value);
        if (!(r > 0)) {
            throw new IllegalArgumentException(option + " must be a positive number of events per second");
        }
        return r;
    }

    /** {@code 500ms}, {@code 20s}, {@code 2m}, {@code 1h} in ms. */
    static long durationMs(String option, String value, boolean zeroAllowed) {
        String v = value.strip().toLowerCase(Locale.ROOT);
        long unit;
        String digits;
        if (v.endsWith("ms")) {
            unit = 1;
            digits = v.substring(0, v.length() - 2);
        } else if (v.endsWith("s")) {
            unit = 1_000;
            digits = v.substring(0, v.length() - 1);
        } else if (v.endsWith("m")) {
            unit = 60_000;
            digits = v.substring(0, v.length() - 1);
        } else if (v.endsWith("h")) {
            unit = 3_600_000;
            digits = v.substring(0, v.length() - 1);
        } else {
            throw new IllegalArgumentException(option + " takes a duration with a unit (500ms, 20s, 2m, 1h), not "
                    + value);
        }
        long ms = Math.round(Double.parseDouble(digits) * unit);
        if (ms < 0 || (ms == 0 && !zeroAllowed)) {
            throw new IllegalArgumentException(option + " must be " + (zeroAllowed ? "0 or more" : "positive"));
        }
        return ms;
    }
}
