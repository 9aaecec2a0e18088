package io.railgun.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.reply.StreamReply;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.node.backend.UnitStats;
import io.railgun.node.broker.EmbeddedBroker;
import io.railgun.node.frontend.FrontEnd;
import io.railgun.node.frontend.PointRead;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Replica tasks end to end: two nodes on one broker with replication 2, so every task has an active
 * copy on one node and a hot replica on the other, both answering. Every reply is compared with a
 * brute-force recomputation (a task counted twice, or an event merged from two answers of one task,
 * would show). One node then stops as a crash looks to Kafka (its units do not leave the group):
 * the other's replicas keep answering before the session timeout, exact, and then are promoted in
 * place (no task reopened).
 */
@Tag("kafka")
class ReplicaTasksTest {
    private static final long T0 = 1_700_000_000_000L;
    private static final long WINDOW_MS = 600_000;
    private static final int PARTITIONS = 4;

    private record Sent(String id, long ts, String card, String merchant, double amount) {}

    private final List<Sent> history = new ArrayList<>();
    /** What the test waits on, printed while it waits. */
    private Supplier<String> state = () -> "";

    static StreamDefinition payments() {
        Map<String, FieldType> fields = new LinkedHashMap<>();
        fields.put("id", FieldType.STRING);
        fields.put("ts", FieldType.TIMESTAMP);
        fields.put("card", FieldType.STRING);
        fields.put("merchant", FieldType.STRING);
        fields.put("amount", FieldType.DOUBLE);
        return new StreamDefinition("payments", Schema.of(fields), "id", "ts", List.of("card", "merchant"), PARTITIONS, 0,
                LateEventPolicy.DROP);
    }

    private static NodeConfig config(Path dir, String id, String bootstrap) {
        return NodeConfig.defaults().withDataDir(dir).withHttp("127.0.0.1", 0).withProcessors(1).withKafka(bootstrap)
                .withNode(id, 2);
    }

    @Test
    @Timeout(value = 240, unit = TimeUnit.SECONDS)
    void replicasAnswerExactlyThroughACrashAndArePromotedInPlace() throws Exception {
        Path dir = Files.createTempDirectory("railgun-replicas");
        EmbeddedBroker broker = EmbeddedBroker.start(dir.resolve("broker"), 0, Map.of());
        Node a = null;
        Node b = null;
        try {
            a = Node.start(config(dir.resolve("a"), "node-a", broker.bootstrapServers()));
            StreamDefinition d = payments();
            FrontEnd fe = a.frontEnd();
            assertThat(fe.putStream(d)).isTrue();
            fe.addStatement("payments", "SELECT COUNT(*) AS card_n, SUM(amount) AS card_sum FROM payments GROUP BY card"
                    + " [RANGE 10 MINUTES]", false);
            fe.addStatement("payments", "SELECT COUNT(*) AS merchant_n FROM payments GROUP BY merchant [RANGE 10 MINUTES]",
                    false);
            int tasks = 2 * PARTITIONS;
            Node na = a;
            await(() -> actives(na) == tasks, 60_000);
            sendAndCheck(fe, d, 0, 100); // alone: no replica anywhere

            // a second node: the plan moves half the actives to it; each moving task is first its replica
            // (replaying from offset 0), then promoted in place when that replica has caught up (else it
            // opens as active from the peer copy), and the node it left keeps it as replica
            b = Node.start(config(dir.resolve("b"), "node-b", broker.bootstrapServers()));
            Node nb = b;
            state = () -> ("a " + actives(na) + "+" + replicas(na) + " opens " + sum(na, UnitStats::opens) + ", b "
                    + actives(nb) + "+" + replicas(nb) + " opens " + sum(nb, UnitStats::opens));
            await(() -> actives(na) + actives(nb) == tasks && actives(na) > 0 && actives(nb) > 0
                    && actives(na) + replicas(na) == tasks && actives(nb) + replicas(nb) == tasks, 90_000);
            System.out.printf("after node-b joined: actives %d + %d, %d promotion(s) on node-b, %d demotion(s) on node-a%n",
                    actives(a), actives(b), sum(b, UnitStats::promotions), sum(a, UnitStats::demotions));
            // a moving task is promoted in place when node-b's replica has caught up by the follow-up rebalance;
            // on a loaded machine the peer copy may still be running then, and the task opens as active from
            // that copy instead (seen in 2 of 8 runs at load 8): either way node-b opens each task once (below)
            assertThat(sum(b, UnitStats::promotions)).isBetween(0L, (long) actives(b));
            assertThat(sum(a, UnitStats::demotions)).isEqualTo(actives(b));
            // each node opened each task once: no task was opened twice on its way (node-a demoted in place)
            assertThat(sum(a, UnitStats::opens) + sum(b, UnitStats::opens)).isEqualTo(2 * tasks);
            Node victim = actives(a) >= actives(b) ? a : b;
            Node survivor = victim == a ? b : a;
            int victimActives = actives(victim);
            System.out.printf("before the crash: %s runs %d active(s), %s %d; each task has a replica on the other%n",
                    victim == a ? "node-a" : "node-b", victimActives, survivor == a ? "node-a" : "node-b", actives(survivor));
            long maxBefore = sendAndCheck(survivor.frontEnd(), d, 100, 100);
            long opensBefore = sum(survivor, UnitStats::opens);
            long promotionsBefore = sum(survivor, UnitStats::promotions);

            victim.stopWithoutLeaving();
            long crashed = System.nanoTime();
            // the replicas answer from the first event on: no wait for the 10 s session timeout
            long maxDuring = 0;
            int next = 200;
            while (System.nanoTime() - crashed < 6_000_000_000L) {
                maxDuring = Math.max(maxDuring, sendAndCheck(survivor.frontEnd(), d, next, 20));
                next += 20;
            }
            Node s = survivor;
            await(() -> actives(s) == tasks, 60_000);
            long promoted = (System.nanoTime() - crashed) / 1_000_000;
            long maxAfter = sendAndCheck(survivor.frontEnd(), d, next, 200);
            System.out.printf("slowest batch of 20 events: %d ms before the crash, %d ms in the 6 s after it, %d ms after"
                    + " the promotions (%d ms after the crash)%n", maxBefore, maxDuring, maxAfter, promoted);
            // without replicas answering, the first batches after the crash would wait for the promotions (the
            // 10 s session timeout); the bound leaves room for a loaded machine (figures in the output)
            assertThat(maxDuring).as("ms to answer a batch while the crashed node's session runs").isLessThan(4_000);
            assertThat(sum(survivor, UnitStats::promotions) - promotionsBefore).isEqualTo(victimActives);
            assertThat(sum(survivor, UnitStats::opens)).as("promotions reopen no task").isEqualTo(opensBefore);
            assertThat(replicas(survivor)).isZero();

            PointRead read = survivor.frontEnd().read(d, "card_sum", keyRow(d, "C3")).get(10, TimeUnit.SECONDS);
            // the value at the stream time of C3's task: the time of the latest event its partition got
            assertThat(read.streamTime()).isNotNull();
            assertThat(history).anyMatch(h -> h.ts == read.streamTime());
            assertThat(read.value()).isEqualTo(cardSum("C3", read.streamTime()));
        } finally {
            if (b != null) {
                b.close();
            }
            if (a != null) {
                a.close();
            }
            broker.close();
            deleteTree(dir);
        }
    }

    /**
     * Three nodes, replication 2: a crash takes actives and replicas; the survivors' replicas of its
     * actives answer at once and are promoted, and the survivors open new replicas of what it held.
     */
    @Test
    @Timeout(value = 300, unit = TimeUnit.SECONDS)
    void threeNodesKeepAnsweringAndRebuildTheLostCopies() throws Exception {
        Path dir = Files.createTempDirectory("railgun-replicas");
        EmbeddedBroker broker = EmbeddedBroker.start(dir.resolve("broker"), 0, Map.of());
        List<Node> nodes = new ArrayList<>();
        try {
            for (String id : List.of("node-a", "node-b", "node-c")) {
                nodes.add(Node.start(config(dir.resolve(id), id, broker.bootstrapServers())));
            }
            Node sender = nodes.get(2);
            StreamDefinition d = payments();
            FrontEnd fe = sender.frontEnd();
            assertThat(fe.putStream(d)).isTrue();
            fe.addStatement("payments", "SELECT COUNT(*) AS card_n, SUM(amount) AS card_sum FROM payments GROUP BY card"
                    + " [RANGE 10 MINUTES]", false);
            fe.addStatement("payments", "SELECT COUNT(*) AS merchant_n FROM payments GROUP BY merchant [RANGE 10 MINUTES]",
                    false);
            int tasks = 2 * PARTITIONS;
            List<Node> all = List.copyOf(nodes);
            state = () -> all.stream().map(n -> actives(n) + "+" + replicas(n)).toList().toString();
            await(() -> all.stream().mapToInt(ReplicaTasksTest::actives).sum() == tasks
                    && all.stream().mapToInt(ReplicaTasksTest::replicas).sum() == tasks, 90_000);
            sendAndCheck(fe, d, 0, 100);

            Node victim = actives(nodes.get(0)) >= actives(nodes.get(1)) ? nodes.get(0) : nodes.get(1);
            int victimActives = actives(victim);
            List<Node> survivors = nodes.stream().filter(n -> n != victim).toList();
            long promotionsBefore = survivors.stream().mapToLong(n -> sum(n, UnitStats::promotions)).sum();
            System.out.printf("3 nodes, copies (active+replica) %s; the crashed node ran %d active(s)%n", state.get(),
                    victimActives);
            victim.stopWithoutLeaving();
            nodes.remove(victim);
            long crashed = System.nanoTime();
            long maxDuring = 0;
            int next = 100;
            while (System.nanoTime() - crashed < 6_000_000_000L) {
                maxDuring = Math.max(maxDuring, sendAndCheck(fe, d, next, 20));
                next += 20;
            }
            state = () -> survivors.stream().map(n -> actives(n) + "+" + replicas(n)).toList().toString();
            await(() -> survivors.stream().mapToInt(ReplicaTasksTest::actives).sum() == tasks
                    && survivors.stream().mapToInt(ReplicaTasksTest::replicas).sum() == tasks, 90_000);
            long rebuilt = (System.nanoTime() - crashed) / 1_000_000;
            long maxAfter = sendAndCheck(fe, d, next, 100);
            System.out.printf("3 nodes: slowest batch of 20 in the 6 s after the crash %d ms; every task active and"
                    + " replicated again on the 2 survivors %d ms after it (%s); then %d ms%n", maxDuring, rebuilt,
                    state.get(), maxAfter);
            assertThat(maxDuring).as("ms to answer a batch while the crashed node's session runs").isLessThan(4_000);
            assertThat(survivors.stream().mapToLong(n -> sum(n, UnitStats::promotions)).sum() - promotionsBefore)
                    .isGreaterThanOrEqualTo(victimActives);
        } finally {
            for (Node n : nodes) {
                n.close();
            }
            broker.close();
            deleteTree(dir);
        }
    }

    /** Sends events {@code from..from+n} in one batch, checks each reply; returns the batch's latency in ms. */
    private long sendAndCheck(FrontEnd fe, StreamDefinition d, int from, int n) throws Exception {
        List<byte[]> rows = new ArrayList<>();
        List<Sent> sent = new ArrayList<>();
        for (int i = from; i < from + n; i++) {
            // 7 s apart: no event falls on a window's boundary (600 s is no multiple of 7 s)
            Sent e = new Sent("e" + i, T0 + i * 7_000L, "C" + (i % 7), "M" + (i % 5), (i % 11) * 0.5);
            sent.add(e);
            rows.add(row(d, e));
        }
        long start = System.nanoTime();
        List<StreamReply> replies = fe.sendBatch(d, rows).get(30, TimeUnit.SECONDS);
        long ms = (System.nanoTime() - start) / 1_000_000;
        for (int i = 0; i < n; i++) {
            Sent e = sent.get(i);
            history.add(e);
            StreamReply r = replies.get(i);
            assertThat(r.duplicate()).as(e.id).isFalse();
            assertThat(r.metrics()).as(e.id).containsExactly(
                    Map.entry("card_n", history.stream().filter(h -> inWindow(h, e) && h.card.equals(e.card)).count()),
                    Map.entry("card_sum", cardSum(e.card, e.ts)),
                    Map.entry("merchant_n",
                            history.stream().filter(h -> inWindow(h, e) && h.merchant.equals(e.merchant)).count()));
        }
        return ms;
    }

    private double cardSum(String card, long ts) {
        return history.stream().filter(h -> h.card.equals(card) && h.ts <= ts && h.ts > ts - WINDOW_MS)
                .mapToDouble(Sent::amount).sum();
    }

    private static boolean inWindow(Sent h, Sent e) {
        return h.ts <= e.ts && h.ts > e.ts - WINDOW_MS;
    }

    private static byte[] row(StreamDefinition d, Sent e) {
        EventRowWriter w = new EventRowWriter().begin(d.schema());
        w.setString(0, e.id).setLong(1, e.ts).setString(2, e.card).setString(3, e.merchant).setDouble(4, e.amount);
        w.finish();
        return Arrays.copyOf(w.buffer(), w.length());
    }

    private static byte[] keyRow(StreamDefinition d, String card) {
        EventRowWriter w = new EventRowWriter().begin(d.schema());
        w.setNull(0).setNull(1).setString(2, card).setNull(3).setNull(4);
        w.finish();
        return Arrays.copyOf(w.buffer(), w.length());
    }

    private static int actives(Node n) {
        return n.unitStats().stream().mapToInt(UnitStats::tasks).sum();
    }

    private static int replicas(Node n) {
        return n.unitStats().stream().mapToInt(UnitStats::replicaTasks).sum();
    }

    private static long sum(Node n, java.util.function.ToLongFunction<UnitStats> f) {
        return n.unitStats().stream().mapToLong(f).sum();
    }

    private void await(BooleanSupplier condition, long timeoutMs) throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMs;
        long report = System.currentTimeMillis();
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() - report > 5_000) {
                report = System.currentTimeMillis();
                System.out.println("waiting: " + state.get());
            }
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("condition not met within " + timeoutMs + " ms");
            }
            Thread.sleep(100);
        }
    }

    private static void deleteTree(Path dir) throws java.io.IOException {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
