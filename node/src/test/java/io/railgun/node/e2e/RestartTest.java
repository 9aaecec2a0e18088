package io.railgun.node.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.client.RailgunClient;
import io.railgun.engine.oracle.AggregateSpec;
import io.railgun.engine.oracle.MetricQuery;
import io.railgun.engine.schema.LateEventPolicy;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The node stopped under load and started again, results continuing exactly (SPEC §2 clean
 * shutdown, §6: an event that got a 200 reply is counted exactly once across crashes and
 * restarts).
 *
 * <p>The node runs as a child JVM ({@link NodeProcess}: {@code Main start} with its embedded broker,
 * 2 processor units, 200 ms checkpoints, fixed ports and data directory). {@value #STREAMS} streams
 * ({@link PaymentSlice}: card and merchant partitioners, 4 partitions, lateness, one dropping late
 * events and one rewriting them; COUNT, SUM, COUNT(DISTINCT), AVG, MAX over 1-minute and 10-minute
 * windows; duplicates and late events) are fed by {@value #SENDERS_PER_STREAM} client threads each
 * ({@link RestartSender}), each on its own slice of the partitions, sending one event at a time and
 * comparing every reply with the brute-force {@link io.railgun.engine.oracle.OracleStream} of its
 * slice. While they do, the node is stopped at a random moment (0 to 3 s after the first reply of
 * an incarnation, with requests in flight), {@value #TERMS} times by SIGTERM and {@value #KILLS}
 * times by SIGKILL in a random order, and started again on the same ports and data directory; at
 * the end it is stopped once more by SIGTERM, idle. A request that got no reply is sent again until
 * it gets one (see {@link RestartSender}); after each restart the senders also read every metric
 * for some keys and compare those with the oracle.
 *
 * <p>Checked: every reply and point read, before and after each restart, equals the oracle's; a
 * SIGTERM stops the node with exit code 0 or 143 within {@value #TERM_TIMEOUT_MS} ms and answers
 * the requests it had received (an attempt started {@value #IN_FLIGHT_MARGIN_MS} ms or more before
 * the signal must not fail); every restart serves again within {@value #START_TIMEOUT_MS} ms, and
 * answers an event within {@value #RETRY_BUDGET_MS} ms. The output gives, per sender, events,
 * replies compared, events sent again and how many of those the node had counted before it died,
 * point reads; per incarnation, the time to serve and to the first reply, the requests in flight at
 * its stop and how long it took to exit. On a failure the tail of the child's log is printed; the
 * logs of every incarnation are kept in {@code target/restart-test}. {@code
 * -Drailgun.restart.seed=N} replays a seed's events and stop order (the stop moments depend on
 * timing). Tagged {@code kafka}: about two minutes on two cores, most of it the embedded broker
 * starting.
 */
@Tag("kafka")
class RestartTest {
    static final int STREAMS = 2;
    static final int SENDERS_PER_STREAM = 2;
    static final int TERMS = 2;
    static final int KILLS = 3;
    static final long START_TIMEOUT_MS = 60_000;
    static final long TERM_TIMEOUT_MS = 30_000;
    static final long IN_FLIGHT_MARGIN_MS = 250;
    static final long RETRY_BUDGET_MS = 60_000;

    private enum Stop { SIGTERM, SIGKILL }

    /** One incarnation of the node, for the report: how it came up and how it was stopped. */
    private static final class Run {
        final int number;
        final Path log;
        long healthyMs = -1;
        long firstReplyMs = -1;
        Stop stop;
        long loadMs;
        int repliesBefore;
        int inFlight;
        long[] inFlightStarts = new long[0]; // nanoTime of the attempts in flight when the signal was sent
        long signalNanos;
        int inFlightAnswered = -1; // after SIGTERM: how many of those got their reply
        int exitCode = -1;
        long exitMs = -1;

        Run(int number, Path log) {
            this.number = number;
            this.log = log;
        }
    }

    private volatile RestartSender.Incarnation incarnation;

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void resultsContinueExactlyAcrossSigtermAndSigkill(@TempDir Path dir) throws Exception {
        long seed = Long.getLong("railgun.restart.seed", new Random().nextLong());
        Random random = new Random(seed);
        long testStart = System.nanoTime();
        int[] ports = freePorts(2);
        List<String> flags = List.of("--processors", "2", "--checkpoint-interval", "200ms", "--request-timeout", "5s",
                "--min-dedup-horizon", "1h");
        List<Stop> plan = new ArrayList<>();
        for (int i = 0; i < TERMS; i++) {
            plan.add(Stop.SIGTERM);
        }
        for (int i = 0; i < KILLS; i++) {
            plan.add(Stop.SIGKILL);
        }
        Collections.shuffle(plan, random);
        System.out.printf(Locale.ROOT, "[restart] seed %d (-Drailgun.restart.seed=%d), HTTP port %d, broker port %d, stops %s%n",
                seed, seed, ports[0], ports[1], plan);

        List<Run> runs = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        List<RestartSender> senders = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        boolean passed = false;
        try (NodeProcess node = new NodeProcess(dir, ports[0], ports[1], flags);
             RailgunClient client = RailgunClient.builder().baseUri(node.baseUri()).requestTimeout(Duration.ofSeconds(20)).build()) {
            try {
                node.start();
                Run run = new Run(0, node.log());
                runs.add(run);
                run.healthyMs = node.awaitHealthy(client, START_TIMEOUT_MS);
                incarnation = new RestartSender.Incarnation(0, node.startedNanos());
                System.out.printf(Locale.ROOT, "[restart] incarnation 0 (pid %d) serving after %d ms%n", node.pid(), run.healthyMs);

                for (int s = 0; s < STREAMS; s++) {
                    String name = "pay" + s;
                    LateEventPolicy late = s % 2 == 0 ? LateEventPolicy.DROP : LateEventPolicy.REWRITE;
                    List<PaymentSlice> slices = new ArrayList<>();
                    for (int k = 0; k < SENDERS_PER_STREAM; k++) {
                        slices.add(new PaymentSlice(name, late, random.nextLong(), k, SENDERS_PER_STREAM));
                    }
                    PaymentSlice stream = slices.getFirst();
                    client.createStream(name, stream.spec());
                    for (MetricQuery q : stream.statements()) {
                        List<String> names = client.addMetrics(name, q.sql(name), false);
                        assertThat(names).as("metrics of %s", q.sql(name))
                                .containsExactlyElementsOf(q.aggregates().stream().map(AggregateSpec::alias).toList());
                    }
                    for (int k = 0; k < SENDERS_PER_STREAM; k++) {
                        senders.add(new RestartSender(slices.get(k), name + "/" + k, client, RETRY_BUDGET_MS, () -> incarnation));
                    }
                }
                for (RestartSender sender : senders) {
                    threads.add(Thread.ofPlatform().name("sender-" + sender.label()).daemon().start(sender));
                }

                for (Stop stop : plan) {
                    run.firstReplyMs = awaitFirstReply(incarnation, senders, node);
                    run.loadMs = random.nextInt(3_000); // short ones land while tasks may still be restoring
                    Thread.sleep(run.loadMs);
                    checkSenders(senders, problems);
                    if (!problems.isEmpty()) {
                        break;
                    }
                    run.inFlightStarts = new long[senders.size()];
                    for (int i = 0; i < senders.size(); i++) {
                        run.inFlightStarts[i] = senders.get(i).inFlightSinceNanos();
                        run.inFlight += run.inFlightStarts[i] != 0 ? 1 : 0;
                    }
                    run.repliesBefore = replies(senders);
                    run.stop = stop;
                    long signalNanos = System.nanoTime();
                    run.signalNanos = signalNanos;
                    NodeProcess.Exit exit = stop == Stop.SIGTERM ? node.terminate(TERM_TIMEOUT_MS) : node.kill();
                    run.exitCode = exit.code();
                    run.exitMs = exit.millis();
                    if (stop == Stop.SIGTERM) {
                        if (exit.code() != 0 && exit.code() != 143) {
                            problems.add("incarnation " + run.number + " exited with " + exit.code() + " after SIGTERM, not 0 or 143\n"
                                    + node.tail(60));
                        }
                    }
                    System.out.printf(Locale.ROOT, "[restart] %s to incarnation %d after %d ms of load (%d request(s) in flight):"
                            + " gone in %d ms, exit code %d%n", stop, run.number, run.loadMs, run.inFlight, exit.millis(), exit.code());
                    if (!problems.isEmpty()) {
                        break;
                    }
                    node.start();
                    run = new Run(run.number + 1, node.log());
                    runs.add(run);
                    run.healthyMs = node.awaitHealthy(client, START_TIMEOUT_MS);
                    incarnation = new RestartSender.Incarnation(run.number, node.startedNanos());
                    Run stopped = runs.get(runs.size() - 2);
                    if (stopped.stop == Stop.SIGTERM) {
                        // judged now: by the time the next incarnation serves, every attempt at the old one has ended
                        unansweredAtSigterm(senders, stopped, problems);
                    }
                    System.out.printf(Locale.ROOT, "[restart] incarnation %d (pid %d) serving after %d ms%n", run.number, node.pid(),
                            run.healthyMs);
                }

                if (problems.isEmpty()) {
                    run.firstReplyMs = awaitFirstReply(incarnation, senders, node);
                    run.loadMs = 1_000;
                    Thread.sleep(run.loadMs);
                }
                senders.forEach(RestartSender::stop);
                for (Thread t : threads) {
                    t.join(RETRY_BUDGET_MS + 10_000);
                    if (t.isAlive()) {
                        problems.add(t.getName() + " still running after it was stopped");
                    }
                }
                checkSenders(senders, problems);
                if (problems.isEmpty()) {
                    // a clean stop at the end as well, with nothing in flight
                    run.repliesBefore = replies(senders);
                    NodeProcess.Exit exit = node.terminate(TERM_TIMEOUT_MS);
                    run.stop = Stop.SIGTERM;
                    run.exitCode = exit.code();
                    run.exitMs = exit.millis();
                    if (exit.code() != 0 && exit.code() != 143) {
                        problems.add("the last incarnation exited with " + exit.code() + " after SIGTERM, not 0 or 143\n" + node.tail(60));
                    }
                }
                if (!problems.isEmpty()) {
                    problems.add(node.tail(80));
                }
                assertThat(problems).as("seed %d", seed).isEmpty();
                assertThat(runs).hasSize(plan.size() + 1);
                passed = true;
            } finally {
                senders.forEach(RestartSender::stop);
                try {
                    report(seed, senders, runs, (System.nanoTime() - testStart) / 1_000_000);
                } catch (IOException | RuntimeException e) {
                    System.out.println("[restart] no report: " + e);
                }
                if (!passed) {
                    System.out.println("[restart] FAILED with seed " + seed + "; " + node.tail(100));
                }
            }
        }
    }

    /** Waits until a sender got a reply from {@code current}; ms from its start. */
    private static long awaitFirstReply(RestartSender.Incarnation current, List<RestartSender> senders, NodeProcess node)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RETRY_BUDGET_MS);
        while (current.firstReplyNanos.get() == 0) {
            for (RestartSender s : senders) {
                if (s.problem() != null) {
                    throw new AssertionError(s.problem() + "\n" + node.tail(80));
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no event was answered within " + RETRY_BUDGET_MS + " ms of incarnation " + current.number
                        + "'s start\n" + node.tail(80));
            }
            Thread.sleep(10);
        }
        return (current.firstReplyNanos.get() - current.startedNanos) / 1_000_000;
    }

    /**
     * After SIGTERM the node finishes the requests it has received: an attempt that started well before
     * the signal (so it reached the node) and got no reply is a failure. Counts the attempts in flight
     * at the signal that were answered.
     */
    private static void unansweredAtSigterm(List<RestartSender> senders, Run run, List<String> problems) {
        long margin = TimeUnit.MILLISECONDS.toNanos(IN_FLIGHT_MARGIN_MS);
        run.inFlightAnswered = 0;
        for (int i = 0; i < senders.size(); i++) {
            RestartSender s = senders.get(i);
            long inFlight = run.inFlightStarts[i];
            boolean inFlightFailed = false;
            for (RestartSender.Failure f : s.failures()) {
                if (f.incarnation() != run.number || f.endNanos() < run.signalNanos) {
                    continue;
                }
                inFlightFailed |= f.startNanos() == inFlight;
                if (f.startNanos() <= run.signalNanos - margin) {
                    problems.add("[" + s.label() + "] a request sent " + (run.signalNanos - f.startNanos()) / 1_000_000
                            + " ms before SIGTERM to incarnation " + run.number + " got no reply (" + f.why()
                            + "): the node must finish the requests in flight");
                }
            }
            if (inFlight != 0 && !inFlightFailed) {
                run.inFlightAnswered++;
            }
        }
    }

    private static void checkSenders(List<RestartSender> senders, List<String> problems) {
        for (RestartSender s : senders) {
            if (s.problem() != null && !problems.contains(s.problem())) {
                problems.add(s.problem());
            }
        }
    }

    private static int replies(List<RestartSender> senders) {
        int n = 0;
        for (RestartSender s : senders) {
            n += s.replies;
        }
        return n;
    }

    private static final Pattern STARTED = Pattern.compile("node \\S+ started in ([\\d,]+) ms");
    private static final Pattern TASK_READY = Pattern.compile("task \\S+ ready in ([\\d,]+) ms");
    private static final Pattern STOPPED = Pattern.compile("node \\S+ stopped in ([\\d,]+) ms");

    private static void report(long seed, List<RestartSender> senders, List<Run> runs, long totalMs) throws IOException {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "[restart] seed %d: %d incarnations, %d SIGTERM, %d SIGKILL, %d ms in all%n", seed,
                runs.size(), runs.stream().filter(r -> r.stop == Stop.SIGTERM).count(),
                runs.stream().filter(r -> r.stop == Stop.SIGKILL).count(), totalMs));
        for (RestartSender s : senders) {
            sb.append(String.format(Locale.ROOT, "  %s: %d events, %d replies equal to the oracle's (%d duplicates, %d dropped late),"
                            + " %d sent again after no reply (%d of them counted before: answered duplicate), %d failed attempts,"
                            + " longest wait for a reply across a restart %d ms; %d point reads equal (%d skipped: partition empty)%n",
                    s.label(), s.events, s.replies, s.duplicates, s.dropped, s.retriedEvents, s.retriedAnsweredDuplicate,
                    s.failures().size(), s.maxRetryMs, s.pointReads, s.pointReadsSkipped));
        }
        for (Run r : runs) {
            List<String> lines = Files.exists(r.log) ? Files.readAllLines(r.log) : List.of();
            long started = -1;
            long stopped = -1;
            int tasks = 0;
            long slowestTask = 0;
            List<String> warnings = new ArrayList<>();
            for (String line : lines) {
                Matcher m;
                if ((m = STARTED.matcher(line)).find()) {
                    started = millis(m.group(1));
                } else if ((m = TASK_READY.matcher(line)).find()) {
                    tasks++;
                    slowestTask = Math.max(slowestTask, millis(m.group(1)));
                } else if ((m = STOPPED.matcher(line)).find()) {
                    stopped = millis(m.group(1));
                }
                if (line.contains(" WARN ") || line.contains(" ERROR ")) {
                    warnings.add(line);
                }
            }
            sb.append(String.format(Locale.ROOT, "  incarnation %d: serving %d ms after its start (node log: started in %d ms), first reply"
                            + " after %d ms, %d task(s) opened (slowest %d ms); %s after %d ms of load with %d request(s) in flight%s"
                            + " and %d replies so far: gone in %d ms, exit code %d%s; %d warning/error lines in its log%n",
                    r.number, r.healthyMs, started, r.firstReplyMs, tasks, slowestTask, r.stop, r.loadMs, r.inFlight,
                    r.inFlightAnswered < 0 ? "" : " (" + r.inFlightAnswered + " answered)", r.repliesBefore, r.exitMs, r.exitCode,
                    stopped < 0 ? "" : " (node log: stopped in " + stopped + " ms)", warnings.size()));
            for (String w : warnings.subList(0, Math.min(5, warnings.size()))) {
                sb.append("      ").append(w.length() > 300 ? w.substring(0, 300) + "..." : w).append('\n');
            }
        }
        Path kept = Path.of("target", "restart-test");
        Files.createDirectories(kept);
        for (Run r : runs) {
            if (Files.exists(r.log)) {
                Files.copy(r.log, kept.resolve(r.log.getFileName()), StandardCopyOption.REPLACE_EXISTING);
            }
        }
        sb.append("  the node's logs are kept in ").append(kept.toAbsolutePath()).append('\n');
        System.out.print(sb);
    }

    /** A number of milliseconds as the node logs it ({@code MessageFormat}: {@code 12,345}). */
    private static long millis(String text) {
        return Long.parseLong(text.replace(",", ""));
    }

    /** Free ports on 127.0.0.1, found by binding port 0 (and released for the node). */
    private static int[] freePorts(int n) throws IOException {
        int[] ports = new int[n];
        List<ServerSocket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < n; i++) {
                ServerSocket socket = new ServerSocket();
                sockets.add(socket);
                socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                ports[i] = socket.getLocalPort();
            }
        } finally {
            for (ServerSocket s : sockets) {
                s.close();
            }
        }
        return ports;
    }
}
