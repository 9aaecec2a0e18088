package io.railgun.bench.faults;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The fault-test suite ({@code bench/run faults [--short]}, docs/distribution.md § Fault tests):
 * a Kafka cluster and three nodes on this machine under steady open-loop load; a node SIGKILLed and
 * restarted, a fourth node added, one removed with SIGTERM, a broker SIGKILLed and restarted; the
 * pauses and latency of each window; then the {@link ExactnessChecker} over every 200 reply. Exits
 * 0 when every acknowledged event is in the input topic and every 200 reply equals the brute-force
 * recomputation, 1 when not, 2 when the run could not be made. Every process it starts is killed
 * and its temporary directory deleted when it ends, also on Ctrl-C.
 */
public final class FaultSuite {
    private FaultSuite() {}

    public static void main(String[] args) throws Exception {
        System.exit(execute(args, Path.of("").toAbsolutePath()));
    }

    /**
     * Runs the suite with the checkout at {@code root} (where {@code ./railgun} is) and returns the
     * exit code; every child process is gone and the temporary directory deleted when it returns.
     */
    static int execute(String[] args, Path root) throws Exception {
        // the checker's and the cluster probes' Kafka clients: their connection warnings while a broker
        // is down or starting are expected
        ((ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger("org.apache.kafka"))
                .setLevel(ch.qos.logback.classic.Level.ERROR);
        FaultOptions parsed;
        try {
            parsed = FaultOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            return args.length > 0 && (args[0].equals("--help") || args[0].equals("-h")) ? 0 : 2;
        }
        Path railgun = root.resolve("railgun");
        if (!Files.isExecutable(railgun)) {
            System.err.println("faults: no executable " + railgun + ": run from the repository root (bench/run faults)");
            return 2;
        }
        FaultOptions options = parsed;
        if (options.brokers() == 3 && !LocalCluster.brokerClusterSupported(railgun)) {
            System.out.println("faults: ./railgun broker has no --cluster-size in this checkout: one broker instead of 3");
            options = options.withBrokers(1);
        }
        Path dir = Files.createTempDirectory("railgun-faults-");
        LocalCluster cluster = new LocalCluster(railgun, dir, options);
        boolean[] keep = {options.keep()};
        Thread cleanup = new Thread(() -> {
            cluster.close();
            if (!keep[0]) {
                try {
                    LocalCluster.deleteTree(dir);
                } catch (Exception e) {
                    System.err.println("faults: could not delete " + dir + ": " + e);
                }
            }
        }, "faults-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanup); // Ctrl-C
        int exit;
        try {
            exit = run(options, cluster, dir);
        } catch (Exception e) {
            System.out.println("faults: the run failed: " + e);
            e.printStackTrace(System.out);
            exit = 2;
        } finally {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        }
        // a failed run keeps its evidence: the brokers' and nodes' logs and every request (requests.csv)
        keep[0] |= exit != 0;
        cleanup.run();
        if (keep[0]) {
            System.out.println("faults: logs, data and requests.csv kept in " + dir + " (delete it when done)");
        }
        return exit;
    }

    private static int run(FaultOptions o, LocalCluster cluster, Path dir) throws Exception {
        System.out.printf("faults: %s run: %d broker(s), %d nodes (--replication %d), %.0f ev/s over %d cards, %d partitions;"
                        + " data and logs in %s%nfaults: load before: %s%n", o.shortRun() ? "short" : "full", o.brokers(),
                o.nodes(), o.replication(), o.rate(), o.cards(), o.partitions(), dir, loadAverage());
        long setup = System.nanoTime();
        cluster.startBrokers();
        System.out.printf("faults: %d broker(s) up at %s in %.1f s%n", o.brokers(), cluster.bootstrap(),
                (System.nanoTime() - setup) / 1e9);
        List<String> nodes = new ArrayList<>();
        for (int i = 1; i <= o.nodes(); i++) {
            nodes.add("n" + i);
            cluster.startNode("n" + i);
        }
        for (String n : nodes) {
            cluster.awaitReady(n, 180);
        }
        StreamSetup setupApi = new StreamSetup();
        Map<String, Integer> fields = setupApi.create(cluster.nodeUri("n1"), o.partitions());
        for (String n : nodes) {
            setupApi.awaitKnown(cluster.nodeUri(n), 120);
        }
        System.out.printf("faults: %d nodes ready, stream '%s' and its metrics created in %.1f s%n", nodes.size(),
                StreamSetup.STREAM, (System.nanoTime() - setup) / 1e9);

        LoadGenerator load = new LoadGenerator(StreamSetup.STREAM, o.rate(), o.cards(), o.maxAttempts(), o.maxInFlight(), o.seed());
        for (String n : nodes) {
            load.addTarget(n, cluster.nodeUri(n));
        }
        long t0 = System.nanoTime();
        FaultScenarios faults = new FaultScenarios(cluster, load, o, t0);
        Thread progress = progressPrinter(load, faults);
        load.start();
        progress.start();
        List<FaultWindow> windows;
        long measured;
        try {
            measured = faults.warmup().endNs();
            faults.steady();
            faults.killAndRestartNode("n2");
            faults.addNode("n4");
            faults.removeNode("n3");
            faults.killAndRestartBroker(o.brokers() == 1 ? 1 : 2);
        } finally {
            int outstanding = load.stopAndDrain(40);
            progress.interrupt();
            faults.log("load stopped (%d request(s) still unanswered); %s", outstanding, load.progress());
        }
        windows = new ArrayList<>(faults.windows());
        long end = System.nanoTime();
        windows.add(new FaultWindow("overall (after warm-up)", measured, end));
        System.out.printf("faults: load during the run: %s%n", loadAverage());

        List<Attempt> attempts = load.attempts();
        List<SentEvent> events = load.events();
        load.close();
        writeRequests(dir.resolve("requests.csv"), t0, events, attempts);
        long[] okTimes = attempts.stream().filter(a -> a.status() == 200).mapToLong(Attempt::doneNs).sorted().toArray();
        System.out.println();
        System.out.println("Pauses and latency per fault window (requests by the time they were due; latency from then):");
        System.out.println(WindowStats.HEADER);
        for (FaultWindow w : windows) {
            System.out.println(WindowStats.of(w, attempts, okTimes).line());
        }
        long neverAcknowledged = events.size() - attempts.stream().filter(a -> a.status() == 200)
                .mapToInt(Attempt::event).distinct().count();
        System.out.printf("events: %d sent, %d never acknowledged after %d attempt(s) at most%n", events.size(),
                neverAcknowledged, o.maxAttempts());
        long lateSends = attempts.stream().filter(a -> a.sentNs() - a.dueNs() > 10_000_000L).count();
        System.out.printf("generator: %d request(s) sent over 10 ms after due (machine busy or %d in flight), the latest"
                + " by %.0f ms%n", lateSends, o.maxInFlight(),
                attempts.stream().mapToLong(a -> a.sentNs() - a.dueNs()).max().orElse(0) / 1e6);
        Map<String, Long> failures = attempts.stream().filter(a -> a.status() == Attempt.CONNECTION_ERROR)
                .collect(java.util.stream.Collectors.groupingBy(a -> a.body().split(":", 2)[0],
                        java.util.TreeMap::new, java.util.stream.Collectors.counting()));
        if (!failures.isEmpty()) {
            System.out.println("connection errors by kind: " + failures);
        }
        return check(cluster, fields, events, attempts);
    }

    private static int check(LocalCluster cluster, Map<String, Integer> fields, List<SentEvent> events,
                             List<Attempt> attempts) throws Exception {
        System.out.println();
        long start = System.nanoTime();
        InputTopicReader reader = new InputTopicReader(cluster.bootstrap());
        String topic = reader.findTopic(StreamSetup.STREAM, "card");
        Map<Integer, List<InputRecord>> partitions = reader.readAll(topic, fields);
        BruteForceOracle oracle = new BruteForceOracle(StreamSetup.WINDOW_MS, StreamSetup.LATENESS_MS,
                StreamSetup.HORIZON_MS, StreamSetup.SUM, StreamSetup.COUNT_ALL);
        List<Expected> expected = new ArrayList<>();
        int records = 0;
        for (List<InputRecord> p : partitions.values()) {
            records += p.size();
            expected.addAll(oracle.recompute(p));
        }
        ExactnessChecker.Result r = new ExactnessChecker(StreamSetup.SUM, StreamSetup.COUNT, StreamSetup.COUNT_ALL)
                .check(events, attempts, expected, partitions.size());
        System.out.printf("checker: read %s (%d partitions, %d records, %d events) and recomputed every value in %.1f s%n",
                topic, partitions.size(), records, r.inputEvents(), (System.nanoTime() - start) / 1e9);
        System.out.printf("checker: %d replies with 200 compared (%d said duplicate, %d dropped late); %d event(s) in the"
                        + " topic were never acknowledged (fine); %d event id(s) written more than once (retries)%n",
                r.checkedReplies(), r.duplicateReplies(), r.lateReplies(), r.unacknowledgedInTopic(), r.writtenMoreThanOnce());
        System.out.println("lost: " + r.lost());
        System.out.println("counted twice: " + r.countedTwice());
        System.out.println("not as sent: " + r.notAsSent());
        for (String line : r.offenders()) {
            System.out.println("  " + line);
        }
        System.out.println(r.exact() ? "faults: EXACT" : "faults: NOT EXACT" + (r.checkedReplies() == 0 ? " (no 200 reply at all)" : ""));
        return r.exact() ? 0 : 1;
    }

    /** Every request, for a post-mortem: times in ms since the load started. */
    private static void writeRequests(Path file, long t0, List<SentEvent> events, List<Attempt> attempts)
            throws java.io.IOException {
        try (var out = Files.newBufferedWriter(file)) {
            out.write("event_id,card,ts,amount,attempt,node,due_ms,sent_ms,done_ms,status,body\n");
            for (Attempt a : attempts) {
                SentEvent e = events.get(a.event());
                out.write(String.format("%s,%s,%d,%s,%d,%s,%.3f,%.3f,%.3f,%d,\"%s\"%n", e.id(), e.card(), e.ts(), e.amount(),
                        a.attempt(), a.node(), (a.dueNs() - t0) / 1e6, (a.sentNs() - t0) / 1e6, (a.doneNs() - t0) / 1e6,
                        a.status(), a.body().strip().replace("\"", "\"\"")));
            }
        }
    }

    private static Thread progressPrinter(LoadGenerator load, FaultScenarios faults) {
        Thread t = new Thread(() -> {
            try {
                while (true) {
                    Thread.sleep(5_000);
                    faults.log("%s", load.progress());
                }
            } catch (InterruptedException e) {
                // the run is over
            }
        }, "faults-progress");
        t.setDaemon(true);
        return t;
    }

    private static String loadAverage() {
        try {
            return "load average " + Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (Exception e) {
            return "load average unknown";
        }
    }
}
