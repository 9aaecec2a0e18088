package io.railgun.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.reply.StreamReply;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.node.backend.UnitStats;
import io.railgun.node.broker.EmbeddedBroker;
import io.railgun.node.frontend.FrontEnd;
import io.railgun.node.recovery.PeerRecovery;
import io.railgun.node.recovery.RecoveryMetrics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Recovery from a peer between two real nodes (one broker, replication 2, the task group's real
 * assignor): a second node joining gets copies of tasks it has no data for, copies them from the
 * first node's snapshot endpoints instead of replaying their input, and every reply after that, from
 * either node, matches a brute-force recomputation of the windows.
 */
@Tag("kafka")
class PeerCopyBetweenNodesTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final long WINDOW_MS = 600_000;

    private record Sent(String id, long ts, String card, String merchant, double amount) {}

    private final List<Sent> history = new ArrayList<>();

    private static NodeConfig config(Path dir, String id, String bootstrap) {
        return NodeConfig.defaults().withDataDir(dir).withHttp("127.0.0.1", 0).withProcessors(1).withKafka(bootstrap)
                .withNode(id, 2).withEngine(200, 250_000, 3_600_000L);
    }

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void aJoiningNodeCopiesTasksFromItsPeerAndAnswersExactly() throws Exception {
        Path dir = Files.createTempDirectory("railgun-peer-copy");
        EmbeddedBroker broker = EmbeddedBroker.start(dir.resolve("broker"), 0, Map.of());
        Node a = null;
        Node b = null;
        try {
            a = Node.start(config(dir.resolve("a"), "node-a", broker.bootstrapServers()));
            StreamDefinition d = ReplicaTasksTest.payments();
            FrontEnd fe = a.frontEnd();
            assertThat(fe.putStream(d)).isTrue();
            fe.addStatement("payments", "SELECT COUNT(*) AS card_n, SUM(amount) AS card_sum FROM payments GROUP BY card"
                    + " [RANGE 10 MINUTES]", false);
            int tasks = 2 * d.partitions();
            Node na = a;
            await(() -> tasks(na) == tasks, 60_000);
            for (int i = 0; i < 10; i++) {
                sendAndCheck(fe, d, i * 100, 100);
            }
            Thread.sleep(1_000); // checkpoints (every 200 ms) cover the events: a peer copies them

            b = Node.start(config(dir.resolve("b"), "node-b", broker.bootstrapServers()));
            Node nb = b;
            await(() -> tasks(na) == tasks && tasks(nb) == tasks && actives(na) > 0 && actives(nb) > 0, 120_000);
            RecoveryMetrics copied = ((PeerRecovery) b.taskRecovery()).metrics();
            System.out.printf("node-b copied %d task(s) from node-a (%,d bytes; %d failed); actives %d + %d%n",
                    copied.completed(), copied.bytesCopied(), copied.failed(), actives(a), actives(b));
            assertThat(copied.completed()).as("tasks copied from the peer").isGreaterThan(0);
            assertThat(copied.failed()).isZero();
            assertThat(copied.bytesCopied()).isGreaterThan(0);
            for (int i = 10; i < 16; i++) {
                sendAndCheck((i % 2 == 0 ? a : b).frontEnd(), d, i * 100, 100);
            }
        } finally {
            if (b != null) {
                b.close();
            }
            if (a != null) {
                a.close();
            }
            broker.close();
            try (Stream<Path> walk = Files.walk(dir)) {
                for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    /** Sends events {@code from..from+n} in one batch and checks each reply against brute force. */
    private void sendAndCheck(FrontEnd fe, StreamDefinition d, int from, int n) throws Exception {
        List<byte[]> rows = new ArrayList<>();
        List<Sent> sent = new ArrayList<>();
        for (int i = from; i < from + n; i++) {
            Sent e = new Sent("e" + i, T0 + i * 7_000L, "C" + (i % 7), "M" + (i % 5), (i % 11) * 0.5);
            sent.add(e);
            EventRowWriter w = new EventRowWriter().begin(d.schema());
            w.setString(0, e.id).setLong(1, e.ts).setString(2, e.card).setString(3, e.merchant).setDouble(4, e.amount);
            w.finish();
            rows.add(Arrays.copyOf(w.buffer(), w.length()));
        }
        List<StreamReply> replies = fe.sendBatch(d, rows).get(30, TimeUnit.SECONDS);
        for (int i = 0; i < n; i++) {
            Sent e = sent.get(i);
            history.add(e);
            StreamReply r = replies.get(i);
            assertThat(r.duplicate()).as(e.id).isFalse();
            long count = history.stream().filter(h -> inWindow(h, e) && h.card.equals(e.card)).count();
            double sum = history.stream().filter(h -> inWindow(h, e) && h.card.equals(e.card)).mapToDouble(Sent::amount)
                    .sum();
            assertThat(r.metrics()).as(e.id).containsExactly(Map.entry("card_n", count), Map.entry("card_sum", sum));
        }
    }

    private static boolean inWindow(Sent h, Sent e) {
        return h.ts <= e.ts && h.ts > e.ts - WINDOW_MS;
    }

    private static int actives(Node n) {
        return n.unitStats().stream().mapToInt(UnitStats::tasks).sum();
    }

    private static int tasks(Node n) {
        return n.unitStats().stream().mapToInt(s -> s.tasks() + s.replicaTasks()).sum();
    }

    private static void await(BooleanSupplier condition, long timeoutMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("condition not met within " + timeoutMs + " ms");
            }
            Thread.sleep(100);
        }
    }
}
