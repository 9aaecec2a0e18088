package io.railgun.bench.faults;

import java.util.ArrayList;
import java.util.List;

/**
 * The settings of one fault-suite run ({@code bench/run faults --help}). {@code --short} is the
 * version sized for CI (under 3 minutes on a 2-core machine); the full one has longer fault windows
 * and a higher rate. Durations in seconds, rates in events per second.
 *
 * @param brokers        Kafka brokers: 3 (a KRaft cluster from {@code ./railgun broker --cluster-size 3})
 *                       or 1 (a single {@code ./railgun broker})
 * @param nodes          node processes at the start (a further one joins during the "add-node" window)
 * @param rate           events per second of the open-loop generator
 * @param cards          distinct card keys
 * @param partitions     partitions of the stream (tasks)
 * @param warmupS        the load's first seconds, while the nodes' JIT warms up (reported, not part of "overall")
 * @param steadyS        the fault-free window before the first fault
 * @param downS          how long a SIGKILLed node or broker stays down before it is started again
 * @param settleS        how long each window goes on after its fault has been repaired
 * @param maxAttempts    attempts per event (retries after 503 or a connection error, same event id)
 * @param maxInFlight    most requests outstanding at once (the generator then sends late, measured from due)
 * @param nodeJavaOpts   JVM options of every node and broker (RAILGUN_JAVA_OPTS)
 * @param replication    the nodes' {@code --replication}
 * @param keep           keep the run's temporary directory (logs, data) instead of deleting it
 * @param seed           seed of the generator's keys and amounts
 */
record FaultOptions(boolean shortRun, int brokers, int nodes, double rate, int cards, int partitions, int warmupS, int steadyS,
                    int downS, int settleS, int maxAttempts, int maxInFlight, String nodeJavaOpts, int replication, boolean keep,
                    long seed) {

    static final String USAGE = """
            bench/run faults [--short] [--brokers 1|3] [--rate EV_PER_S] [--cards N] [--partitions N]
                             [--warmup S] [--steady S] [--down S] [--settle S] [--attempts N] [--in-flight N] [--replication R]
                             [--java-opts OPTS] [--seed N] [--keep]
              Starts a Kafka cluster and 3 nodes on this machine under steady open-loop load, injects
              faults (SIGKILL a node and restart it, add a 4th node, SIGTERM one, SIGKILL a broker and
              restart it), prints pauses and latency per fault window, then checks every 200 reply
              against a brute-force recomputation from the input topics. Exit 0 only when exact.
              --short: the CI version (< 3 min): 150 ev/s, 6 s warm-up, 5 s steady, 5 s down, 6 s settle;
              the full one: 300 ev/s, 20 s warm-up, 30 s steady, 15 s down, 30 s settle.""";

    static FaultOptions parse(String[] args) {
        boolean shortRun = List.of(args).contains("--short");
        int brokers = 3;
        double rate = shortRun ? 150 : 300;
        int cards = shortRun ? 100 : 300;
        int partitions = 6;
        int warmup = shortRun ? 6 : 20;
        int steady = shortRun ? 5 : 30;
        int down = shortRun ? 5 : 15;
        int settle = shortRun ? 6 : 30;
        int attempts = 3;
        int maxInFlight = 900;
        int replication = 2;
        String javaOpts = "-Xms64m -Xmx320m -XX:+UseSerialGC -XX:+ExitOnOutOfMemoryError";
        boolean keep = false;
        long seed = 42;
        List<String> rest = new ArrayList<>(List.of(args));
        for (int i = 0; i < rest.size(); i++) {
            String a = rest.get(i);
            switch (a) {
                case "--short" -> { }
                case "--keep" -> keep = true;
                case "--brokers" -> brokers = Integer.parseInt(value(rest, ++i, a));
                case "--rate" -> rate = Double.parseDouble(value(rest, ++i, a));
                case "--cards" -> cards = Integer.parseInt(value(rest, ++i, a));
                case "--partitions" -> partitions = Integer.parseInt(value(rest, ++i, a));
                case "--warmup" -> warmup = Integer.parseInt(value(rest, ++i, a));
                case "--steady" -> steady = Integer.parseInt(value(rest, ++i, a));
                case "--down" -> down = Integer.parseInt(value(rest, ++i, a));
                case "--settle" -> settle = Integer.parseInt(value(rest, ++i, a));
                case "--attempts" -> attempts = Integer.parseInt(value(rest, ++i, a));
                case "--in-flight" -> maxInFlight = Integer.parseInt(value(rest, ++i, a));
                case "--replication" -> replication = Integer.parseInt(value(rest, ++i, a));
                case "--java-opts" -> javaOpts = value(rest, ++i, a);
                case "--seed" -> seed = Long.parseLong(value(rest, ++i, a));
                default -> throw new IllegalArgumentException("unknown option '" + a + "'\n" + USAGE);
            }
        }
        if (brokers != 1 && brokers != 3) {
            throw new IllegalArgumentException("--brokers must be 1 or 3");
        }
        if (rate <= 0 || cards < 1 || partitions < 1 || attempts < 1 || maxInFlight < 1 || warmup < 0 || steady < 1 || down < 0 || settle < 1) {
            throw new IllegalArgumentException("rates, counts and durations must be positive\n" + USAGE);
        }
        return new FaultOptions(shortRun, brokers, 3, rate, cards, partitions, warmup, steady, down, settle, attempts, maxInFlight, javaOpts,
                replication, keep, seed);
    }

    FaultOptions withBrokers(int n) {
        return new FaultOptions(shortRun, n, nodes, rate, cards, partitions, warmupS, steadyS, downS, settleS, maxAttempts, maxInFlight,
                nodeJavaOpts, replication, keep, seed);
    }

    private static String value(List<String> args, int i, String option) {
        if (i >= args.size()) {
            throw new IllegalArgumentException(option + " needs a value\n" + USAGE);
        }
        return args.get(i);
    }
}
