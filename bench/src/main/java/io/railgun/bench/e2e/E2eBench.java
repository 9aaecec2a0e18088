package io.railgun.bench.e2e;

import io.railgun.bench.data.PaymentGenerator;
import io.railgun.client.RailgunClient;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The e2e harness of BENCHMARKS.md (L1, L2): a real node — started for the run in a child JVM or in
 * this one, with an embedded broker, or a running one given by {@code --url} — a payments stream
 * with the query's statements, then for each rate an open-loop warm-up and a measured part through
 * the HTTP API ({@link OpenLoopInjector}: latency from each event's intended send time to its reply,
 * corrected for coordinated omission). Prints a table with p50 … p99.99 and max, every kind of
 * error, the injector's lag, the machine's load and the node's busiest threads, lists the episodes
 * of slow replies with their wall-clock time (to find them in the node's log), the node's and the
 * injector's CPU time and the node's heap allocation per event ({@link NodeJvm}), checks the sums of
 * a few cards read back from the node against the injector's own at the end, and writes one JSON
 * object per rate to {@code bench-results/<name>.json} and the latency-by-percentile plot of every
 * rate to {@code <name>.png} ({@link E2eOptions#resultsName}). {@code --plot} plots earlier results
 * files together instead. Runs on the main thread.
 */
public final class E2eBench {
    /** Cards whose sums the end-of-run check reads back: the most active of the Zipf law. */
    private static final int CHECKED_CARDS = 5;

    private E2eBench() {}

    public static void main(String[] args) throws Exception {
        E2eOptions o;
        try {
            o = E2eOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("bench/run e2e: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (o == null) {
            System.out.print(E2eOptions.USAGE);
            return;
        }
        System.setProperty("java.awt.headless", "true"); // the plots: no display needed
        System.exit(o.plotFiles().isEmpty() ? run(o) : ResultsPlot.plotFiles(o.plotFiles(), Path.of(o.plotOut())));
    }

    private static int run(E2eOptions o) throws IOException, InterruptedException {
        String stream = o.stream() != null ? o.stream()
                : o.url() != null ? "payments_" + Long.toString(System.currentTimeMillis() / 1000, 36) : "payments";
        E2eWorkload workload = E2eWorkload.of(o.query(), stream);
        Path results = Path.of("bench-results");
        Files.createDirectories(results);
        String label = o.resultsName();
        Path nodeLog = results.resolve("e2e-" + o.query().toLowerCase(Locale.ROOT) + "-node.log");
        Path jfr = o.jfr() ? results.resolve("e2e-" + o.query().toLowerCase(Locale.ROOT) + "-node.jfr") : null;
        String loadBefore = loadAverages();
        System.out.printf(Locale.ROOT, "e2e %s: %d CPUs, load average %s, java %s, injector max heap %,d MB%n",
                o.query(), Runtime.getRuntime().availableProcessors(), loadBefore, Runtime.version(),
                Runtime.getRuntime().maxMemory() >> 20);
        if (o.url() != null) {
            System.out.println("node: " + o.url());
        } else if (o.floor()) {
            System.out.println("starting the HTTP floor (" + o.nodeMode() + ": the node's HTTP layer, no Kafka, no"
                    + " engine; child JVM), JVM options " + o.nodeJavaOpts() + ", log " + nodeLog + " ...");
        } else if (o.nodeMode().equals("child")) {
            System.out.println("starting a node (child JVM, embedded broker), JVM options " + o.nodeJavaOpts()
                    + (o.nodeArgs().isEmpty() ? "" : ", options " + String.join(" ", o.nodeArgs())) + ", log "
                    + nodeLog + " ...");
        } else {
            System.out.println("starting a node (in-process, embedded broker) ...");
        }
        NodeUnderTest node = NodeUnderTest.start(o, nodeLog, jfr);
        Thread hook = new Thread(node::close, "e2e-stop-node");
        Runtime.getRuntime().addShutdownHook(hook);
        try (node; RailgunClient client = RailgunClient.builder().baseUri(node.uri())
                .requestTimeout(Duration.ofMillis(o.timeoutMs()))
                .executor(o.clientExecutor().equals("direct") ? Runnable::run : null).build();
             NodeJvm jvm = node.inProcess() ? NodeJvm.local() : node.pid() < 0 ? NodeJvm.none("a node elsewhere")
                     : NodeJvm.attach(node.pid());
             Poster poster = poster(o, node.uri(), stream)) {
            System.out.println("node: " + node.describe() + ", serving " + node.uri() + (jvm.available()
                    ? "; its JVM's collectors: " + String.join(", ", jvm.collectorNames())
                    : "; its allocation is not measured: " + jvm.why()));
            if (!awaitHealth(client, 30_000)) {
                System.err.println("bench/run e2e: the node at " + node.uri() + " does not answer GET /health with 2xx"
                        + " (is its HTTP API served? is the URL right?)");
                return 1;
            }
            Set<String> metricNames = setUp(client, stream, workload, o);
            awaitTasks(client, stream);
            CardSums sums = new CardSums(CHECKED_CARDS);
            List<RunFigures> figures;
            try (MemorySampler memory = new MemorySampler(node.pid(), node.uri(), 5_000)) {
                figures = measure(new OpenLoopInjector(client, stream, o, node, jvm, poster), stream,
                        workload, o, node, metricNames, label, sums, loadBefore.split(" ")[0]);
                writeMemory(memory, results.resolve(label + "-memory"), o);
            }
            if (o.floor()) {
                System.out.println("values: not checked (the HTTP floor answers every event with the same reply)");
            } else {
                sums.check(client, stream, workload, figures);
            }
            if (o.url() != null && o.stream() == null) {
                client.deleteStream(stream);
                System.out.println("stream " + stream + " deleted from the node");
            }
            return 0;
        } finally {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running
            }
        }
    }

    /** The node's memory over the run: CSV, PNG, peaks, and whether it exited. */
    private static void writeMemory(MemorySampler memory, Path base, E2eOptions o) throws IOException {
        Path csv = Path.of(base + ".csv");
        Path png = Path.of(base + ".png");
        memory.write(csv, png, String.format(Locale.ROOT, "e2e %s: node memory (%s%s)", o.query(), o.nodeJavaOpts(),
                o.nodeArgs().isEmpty() ? "" : " " + String.join(" ", o.nodeArgs())));
        long[] peaks = memory.peaks();
        System.out.printf(Locale.ROOT, "node memory: peak RSS %,d MiB, heap in use %,d MiB, RocksDB %,d MiB; %s;"
                        + " %s, %s%n", peaks[0] >> 20, peaks[1] >> 20, peaks[2] >> 20,
                memory.nodeDied() ? "THE NODE EXITED" : "the node is alive", csv, png);
    }

    /**
     * The injector's sender: Netty's (every request), or, with the JDK client, a poster for batches
     * only (single events then go through the Railgun client's {@code sendJsonAsync}).
     */
    private static Poster poster(E2eOptions o, URI base, String stream) {
        Duration timeout = Duration.ofMillis(o.timeoutMs());
        if (o.clientExecutor().equals("netty")) {
            String path = "/v1/streams/" + URLEncoder.encode(stream, StandardCharsets.UTF_8).replace("+", "%20")
                    + (o.batch() > 1 ? "/events:batch" : "/events");
            return new NettyPoster(base, path, timeout);
        }
        return o.batch() > 1 ? new BatchPoster(base, stream, timeout, o.clientExecutor().equals("direct")) : null;
    }

    private static boolean awaitHealth(RailgunClient client, long timeoutMs) throws InterruptedException {
        long deadline = System.nanoTime() + timeoutMs * 1_000_000;
        while (System.nanoTime() < deadline) {
            if (client.health()) {
                return true;
            }
            Thread.sleep(250);
        }
        return false;
    }

    /** Creates the stream and adds the query's statements; returns every metric a reply carries. */
    private static Set<String> setUp(RailgunClient client, String stream, E2eWorkload workload, E2eOptions o) {
        client.createStream(stream, workload.streamSpec(o.partitions(), o.lateness()));
        Set<String> names = new LinkedHashSet<>();
        for (String statement : workload.statements()) {
            names.addAll(client.addMetrics(stream, statement));
        }
        System.out.printf("stream %s: partitioners %s, %d partitions each, lateness %s; metrics %s%n", stream,
                workload.partitioners(), o.partitions(), o.lateness(), names);
        return names;
    }

    /**
     * Waits until the stream's tasks answer: they are assigned to the processor units by a rebalance
     * after the stream is created, which takes seconds. Probe events (card and merchant {@code probe},
     * which the end-of-run check does not read; event time before the first payment's) are sent one
     * at a time until one is answered within a second.
     */
    private static void awaitTasks(RailgunClient client, String stream) throws InterruptedException {
        long started = System.nanoTime();
        long ts = PaymentGenerator.Options.defaults().startMs() - 1;
        for (int i = 0; System.nanoTime() - started < 120_000_000_000L; i++) {
            Map<String, Object> probe = new LinkedHashMap<>();
            probe.put("id", "probe-" + i);
            probe.put("ts", ts);
            probe.put("card", "probe");
            probe.put("merchant", "probe");
            probe.put("amount", 1.0);
            long t = System.nanoTime();
            try {
                client.sendAsync(stream, probe).get(1, TimeUnit.SECONDS);
                System.out.printf(Locale.ROOT, "tasks ready: probe event answered in %.1f ms, %.1f s after the metrics"
                        + " were added%n", (System.nanoTime() - t) / 1e6, (System.nanoTime() - started) / 1e9);
                return;
            } catch (ExecutionException | TimeoutException e) {
                Thread.sleep(200);
            }
        }
        System.out.println("tasks not ready after 120 s of probes: measuring anyway (expect slow warm-up replies)");
    }

    private static List<RunFigures> measure(OpenLoopInjector injector, String stream, E2eWorkload workload,
                                            E2eOptions o, NodeUnderTest node, Set<String> metricNames, String label,
                                            CardSums sums, String load1BeforeRun)
            throws IOException, InterruptedException {
        List<RunFigures> figures = new ArrayList<>();
        List<String> json = new ArrayList<>();
        Double highestPassing = null;
        long sweepStartMs = System.currentTimeMillis();
        long lastStepMs = 0;
        int batch = o.batch();
        for (int k = 0; k < o.rates().size(); k++) {
            double rate = o.rates().get(k);
            long elapsedMs = System.currentTimeMillis() - sweepStartMs;
            long warmupMs = k == 0 ? o.firstWarmupMs() : o.warmupMs();
            if (o.sweep() && k > 0 && !SweepRule.fits(elapsedMs, lastStepMs, warmupMs, o.durationMs(),
                    o.sweepMaxMs())) {
                System.out.printf(Locale.ROOT, "%nsweep stopped before %,.0f ev/s: %.0f s spent, the step would end past"
                        + " --sweep-max %.0f s%n", rate, elapsedMs / 1e3, o.sweepMaxMs() / 1e3);
                break;
            }
            long stepStartMs = System.currentTimeMillis();
            double eventRate = o.eventRate() > 0 ? o.eventRate() : rate;
            // each rate has its own generator; event time and ids go on from the previous rate's
            long startMs = sums.maxTs() == Long.MIN_VALUE ? PaymentGenerator.Options.defaults().startMs()
                    : sums.maxTs() + 1;
            PaymentGenerator generator = new PaymentGenerator(new PaymentGenerator.Options(o.seed() + k, o.cards(),
                    PaymentGenerator.Options.defaults().merchants(), eventRate, startMs, 0, 0, 0));
            // whole batches: the warm-up and the measured part each
            int warmupEvents = batch * (int) Math.round(rate * warmupMs / 1000.0 / batch);
            int measuredEvents = batch * (int) Math.max(1, Math.round(rate * o.durationMs() / 1000.0 / batch));
            System.out.printf(Locale.ROOT, "%nrate %,.0f ev/s%s: generating %,d payments (%,d warm-up over %.0f s, %,d"
                            + " measured over %.0f s), %,d cards, %,.0f ev/s of event time ...%n", rate,
                    batch > 1 ? String.format(Locale.ROOT, " in batches of %d (%,.1f requests/s)", batch, rate / batch)
                            : "", warmupEvents + measuredEvents, warmupEvents, warmupMs / 1000.0, measuredEvents,
                    o.durationMs() / 1000.0, o.cards(), eventRate);
            JsonPayments events = JsonPayments.generate(generator, warmupEvents + measuredEvents,
                    k == 0 ? "" : "r" + k + "-", sums);
            System.gc(); // the generation's garbage, not the run's
            RunFigures f = injector.run(rate, events, warmupEvents, metricNames);
            figures.add(f);
            RunReport.printRun(o, f);
            json.add(f.json(head(o, stream, workload, eventRate, node, load1BeforeRun)));
            lastStepMs = System.currentTimeMillis() - stepStartMs;
            String failure = SweepRule.failure(f, o.sloMs());
            if (failure == null) {
                highestPassing = rate;
            } else if (o.sweep()) {
                System.out.printf(Locale.ROOT, "sweep stopped at %,.0f ev/s: %s%n", rate, failure);
                break;
            }
        }
        RunReport.printTable(o, figures, highestPassing);
        Path out = Path.of("bench-results", label + ".json");
        Files.write(out, json);
        System.out.println("results: " + out.toAbsolutePath());
        Path png = Path.of("bench-results", label + ".png");
        try {
            ResultsPlot.plotRun(png, o, figures);
            System.out.println("latency by percentile: " + png.toAbsolutePath());
        } catch (IOException | RuntimeException | LinkageError e) {
            System.out.println("latency plot not written: " + e);
        }
        return figures;
    }

    private static String head(E2eOptions o, String stream, E2eWorkload w, double eventRate, NodeUnderTest node,
                               String load1BeforeRun) {
        return String.format(Locale.ROOT,
                "\"harness\":\"e2e\",\"time\":\"%s\",\"query\":\"%s\",\"node\":\"%s\",\"nodeJavaOpts\":\"%s\","
                        + "\"nodeArgs\":\"%s\",\"label\":\"%s\",\"stream\":\"%s\",\"partitioners\":\"%s\",\"partitions\":%d,"
                        + "\"processors\":%d,\"connections\":%d,\"clientExecutor\":\"%s\",\"cards\":%d,\"eventRate\":%.0f,"
                        + "\"lateness\":\"%s\",\"warmupS\":%.1f,\"firstWarmupS\":%.1f,\"durationS\":%.1f,\"java\":\"%s\",\"load1BeforeRun\":%s",
                Instant.now(), o.query(), o.mode(), o.url() != null || node.inProcess() ? "" : o.nodeJavaOpts(),
                String.join(" ", o.nodeArgs()), o.label(), stream, String.join(",", w.partitioners()), o.partitions(),
                o.processors(), o.connections(), o.clientExecutor(), o.cards(), eventRate, o.lateness(),
                o.warmupMs() / 1000.0, o.firstWarmupMs() / 1000.0, o.durationMs() / 1000.0, Runtime.version(),
                load1BeforeRun.matches("[0-9.]+") ? load1BeforeRun : "null");
    }

    private static String loadAverages() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }
}
