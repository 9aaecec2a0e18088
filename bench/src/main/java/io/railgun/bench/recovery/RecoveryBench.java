package io.railgun.bench.recovery;

import io.railgun.bench.data.EventBatch;
import io.railgun.bench.data.PaymentGenerator;
import io.railgun.engine.event.EventRow;
import io.railgun.engine.plan.MetricDefinition;
import io.railgun.engine.snapshot.SnapshotManifest;
import io.railgun.engine.plan.StatementBinder;
import io.railgun.engine.query.QueryParser;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.task.TaskOptions;
import io.railgun.engine.task.TaskProcessor;
import io.railgun.engine.task.TaskStorage;
import io.railgun.node.NodeConfig;
import io.railgun.node.assignment.CopyRole;
import io.railgun.node.assignment.MemberAssignment.PeerCopy;
import io.railgun.node.assignment.TaskId;
import io.railgun.node.http.HttpApi;
import io.railgun.node.ops.NodeMetrics;
import io.railgun.node.ops.Readiness;
import io.railgun.node.recovery.PeerRecovery;
import io.railgun.node.recovery.RecoverySettings;
import io.railgun.node.recovery.SnapshotInbox;
import io.railgun.node.recovery.SnapshotRequests;
import io.railgun.node.recovery.SnapshotServer;
import io.railgun.node.recovery.TaskRecovery.Outcome;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Recovery from a peer against replaying the input, for one task (issue 12's "Must show"):
 * {@code --events} payments (1M by default) over seven days of event time, 100,000 cards, a 7-day
 * COUNT/SUM/AVG per card. A source task processes them all (that run is the replay: a task rebuilt
 * from its input does exactly this work, plus reading the input from Kafka, which is not counted
 * here, so replay figures are a lower bound), checkpoints, and is served by the node's snapshot
 * server over the node's HTTP server on 127.0.0.1; a {@link PeerRecovery} then copies it into a
 * fresh directory at {@code --recovery-rate} (50 MiB/s by default) and unthrottled, and the copy
 * is opened (restore: reservoir scan, the 7 days of event ids for dedup). The snapshot is taken
 * (and timed) first; both copies reuse it. Bytes moved: the snapshot's
 * files against the event rows' bytes (Kafka adds record and batch headers to those).
 *
 * <pre>
 * bench/run recovery [--events N] [--dir PATH] [--rate BYTES_PER_SECOND]
 * </pre>
 */
public final class RecoveryBench {
    private static final TaskId TASK = new TaskId("railgun.s.payments.1.card", 0);

    private RecoveryBench() {}

    public static void main(String[] args) throws Exception {
        int events = 1_000_000;
        long rate = NodeConfig.DEFAULT_RECOVERY_RATE_BYTES;
        Path base = Path.of(System.getProperty("java.io.tmpdir"));
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--events" -> events = Integer.parseInt(args[++i]);
                case "--dir" -> base = Path.of(args[++i]);
                case "--rate" -> rate = Long.parseLong(args[++i]);
                default -> throw new IllegalArgumentException("usage: RecoveryBench [--events N] [--dir PATH] [--rate B/s]");
            }
        }
        Path root = Files.createTempDirectory(base, "railgun-recovery-bench");
        try {
            run(root, events, rate);
        } finally {
            deleteTree(root);
        }
    }

    private static void run(Path root, int events, long rate) throws Exception {
        double perSecond = events / (7 * 86_400.0);
        PaymentGenerator gen = new PaymentGenerator(PaymentGenerator.Options.defaults().withCards(100_000).withRate(perSecond));
        StreamDefinition stream = gen.stream("payments", 1, List.of("card"));
        System.out.printf(Locale.ROOT, "generating %,d payments over 7 days ...%n", events);
        EventBatch batch = EventBatch.generate(gen, events);
        EventRow row = new EventRow();
        long rowBytes = 0;
        for (int i = 0; i < events; i++) {
            rowBytes += batch.wrap(row, i).length();
        }
        ScheduledExecutorService unit = Executors.newSingleThreadScheduledExecutor();
        SnapshotInbox inbox = new SnapshotInbox();
        TaskProcessor[] source = new TaskProcessor[1];
        try {
            long replayNs = unit.submit(() -> {
                TaskProcessor t = TaskProcessor.open(stream, TaskOptions.defaults(), TaskStorage.in(root.resolve("source")));
                source[0] = t;
                addStatements(stream, t);
                EventRow r = new EventRow();
                long start = System.nanoTime();
                for (int i = 0; i < events; i++) {
                    t.process(batch.wrap(r, i), i + 1L);
                }
                t.checkpoint().join();
                return System.nanoTime() - start;
            }).get();
            System.out.printf(Locale.ROOT, "replay: %,d events processed into a fresh durable task in %.1f s (%,.0f events/s),"
                    + " %,d bytes of event rows read%n", events, replayNs / 1e9, events / (replayNs / 1e9), rowBytes);
            unit.scheduleWithFixedDelay(() -> inbox.drain(id -> id.equals(TASK) ? source[0] : null), 1, 1,
                    TimeUnit.MILLISECONDS);
            try (SnapshotServer server = new SnapshotServer(root.resolve("snapshots"), new SnapshotRequests(List.of(inbox)));
                 HttpApi http = HttpApi.start(NodeConfig.defaults().withDataDir(root).withHttp("127.0.0.1", 0), null,
                         new NodeMetrics(), Readiness.ALWAYS, server)) {
                PeerCopy peer = new PeerCopy("source", http.uri().toString(), CopyRole.ACTIVE, -1);
                // the snapshot alone (the copies below reuse it: the server hands it out for 10 s)
                long snapStart = System.nanoTime();
                HttpResponse<byte[]> manifest = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(http.uri() + "/internal/v1/tasks/" + TASK.topic() + "/0/snapshot")).build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                SnapshotManifest m = SnapshotManifest.decode(manifest.body());
                System.out.printf(Locale.ROOT, "snapshot on the source: %d files, %,d bytes, taken in %.2f s%n",
                        m.files().size(), m.totalBytes(), (System.nanoTime() - snapStart) / 1e9);
                copy("recovery at " + (rate >> 20) + " MiB/s", root.resolve("copy-throttled"), peer, rate, stream, rowBytes);
                copy("recovery unthrottled", root.resolve("copy-unthrottled"), peer, Integer.MAX_VALUE, stream, rowBytes);
            }
        } finally {
            unit.submit(() -> source[0].close()).get();
            unit.shutdown();
        }
    }

    private static void copy(String label, Path dir, PeerCopy peer, long rate, StreamDefinition stream, long rowBytes)
            throws Exception {
        try (PeerRecovery recovery = new PeerRecovery(RecoverySettings.defaults().withRate(rate), null)) {
            long start = System.nanoTime();
            Outcome o = recovery.recover(TASK, dir.resolve("task"), List.of(peer)).get();
            long copyNs = System.nanoTime() - start;
            if (!o.copied()) {
                throw new IllegalStateException("the copy failed: see the log");
            }
            long openStart = System.nanoTime();
            long size;
            try (TaskProcessor t = TaskProcessor.open(stream, TaskOptions.defaults(), TaskStorage.in(dir.resolve("task")))) {
                size = t.stats().reservoirSize();
                if (t.resumeOffset() != o.checkpointOffset()) {
                    throw new IllegalStateException("the copy resumes at " + t.resumeOffset() + ", not " + o.checkpointOffset());
                }
            }
            long openNs = System.nanoTime() - openStart;
            System.out.printf(Locale.ROOT, "%s: %,d bytes copied in %.2f s (%.1f MiB/s), opened in %.2f s (%,d events in"
                            + " the reservoir, resumes at offset %,d): %.2f s in all; %.2fx the bytes of the event rows%n",
                    label, o.bytesCopied(), copyNs / 1e9, o.bytesCopied() / 1048576.0 / (copyNs / 1e9), openNs / 1e9, size,
                    o.checkpointOffset(), (copyNs + openNs) / 1e9, o.bytesCopied() / (double) rowBytes);
        }
    }

    private static void addStatements(StreamDefinition stream, TaskProcessor t) throws Exception {
        String sql = "SELECT COUNT(*) AS n7d, SUM(amount) AS s7d, AVG(amount) AS a7d FROM payments GROUP BY card"
                + " [RANGE 7 DAYS]";
        Set<String> names = new HashSet<>();
        List<MetricDefinition> defs = StatementBinder.bind(stream, QueryParser.parse(sql), names);
        t.addMetrics(defs);
    }

    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
