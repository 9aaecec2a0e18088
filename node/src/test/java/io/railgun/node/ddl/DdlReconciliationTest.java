package io.railgun.node.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.reply.StreamReply;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.node.Node;
import io.railgun.node.NodeConfig;
import io.railgun.node.frontend.ApiException;
import io.railgun.node.frontend.FrontEnd;
import io.railgun.node.frontend.MetricInfo;
import io.railgun.node.messaging.TaskInput;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A node that dies between a DDL change's control record and its markers (injected: the marker of
 * partition 1 fails, partition 0's was sent) leaves the metric listed but unknown to one task; the
 * same node started again finishes the change (it owned it), so both partitions get the marker,
 * partition 0 a second time, which its task ignores; then every task computes the metric, and each
 * reply equals a brute-force recomputation. Meanwhile another change to the stream is refused 503
 * {@code change_pending}.
 */
@Tag("kafka")
@Timeout(240)
class DdlReconciliationTest {
    static final long T0 = 1_700_000_000_000L;
    static final long HOUR = 3_600_000L;

    @AfterEach
    void noFaults() {
        DdlWriter.faults = DdlWriter.Faults.NONE;
    }

    static StreamDefinition payments() {
        Map<String, FieldType> fields = new LinkedHashMap<>();
        fields.put("id", FieldType.STRING);
        fields.put("ts", FieldType.TIMESTAMP);
        fields.put("card", FieldType.STRING);
        fields.put("amount", FieldType.DOUBLE);
        return new StreamDefinition("pay", Schema.of(fields), "id", "ts", List.of("card"), 2, 0, LateEventPolicy.DROP);
    }

    static byte[] event(StreamDefinition d, String id, long ts, String card, double amount) {
        EventRowWriter w = new EventRowWriter().begin(d.schema());
        w.setString(0, id).setLong(1, ts).setString(2, card).setDouble(3, amount);
        w.finish();
        return Arrays.copyOf(w.buffer(), w.length());
    }

    @Test
    void aRestartedNodeFinishesTheChangeItLeftHalfDoneAndEveryTaskComputesTheMetricExactly() throws Exception {
        Path dir = Files.createTempDirectory("railgun-ddl");
        NodeConfig config = NodeConfig.defaults().withDataDir(dir).withHttp("127.0.0.1", 0).withProcessors(1);
        StreamDefinition d = payments();
        String inputTopic;
        List<long[]> sent = new ArrayList<>(); // ts, card, amount, 1 when the task had the new metrics
        Map<Integer, Boolean> markedCards = new java.util.HashMap<>();
        try {
            try (Node node = Node.start(config)) {
                FrontEnd fe = node.frontEnd();
                fe.putStream(d);
                fe.addStatement("pay", "SELECT COUNT(*) AS n FROM pay GROUP BY card [RANGE 1 HOUR]", false);
                for (int i = 0; i < 20; i++) { // both partitions have events before the change
                    byte[] e = event(d, "pre" + i, T0 - 10 * HOUR + i, "c" + i % 6, 1.0);
                    assertThat(fe.send(d, e, e.length).get().metrics()).containsKey("n");
                }
                DdlWriter.faults = (topic, partition) -> {
                    if (partition == 1) {
                        throw new IllegalStateException("injected: the node dies before the marker of partition 1");
                    }
                };
                assertThatThrownBy(() -> fe.addStatement("pay", "SELECT SUM(amount) AS total, COUNT(*) AS c FROM pay"
                        + " GROUP BY card [RANGE 1 HOUR]", false)).hasMessageContaining("injected");
                DdlWriter.faults = DdlWriter.Faults.NONE;
                // the fault stops the writer after it sent partition 0's marker, before that marker's ack: wait
                // until it is in the topic, as it would be from a node that died there, so that every event below
                // reaches partition 0's task after it (else a card's first reply could precede the marker)
                inputTopic = io.railgun.node.messaging.Topics.input(d.name(), generationOf(node), "card");
                awaitMarkers(node.bootstrapServers(), inputTopic, Map.of(0, List.of(2L, 3L), 1, List.of(2L)));
                assertThat(fe.metrics("pay")).extracting(MetricInfo::name).containsExactly("n", "total", "c");
                // the change is pending, owned by this (live) node: another change waits for it
                assertThatThrownBy(() -> fe.addStatement("pay", "SELECT MAX(amount) AS m FROM pay GROUP BY card"
                        + " [RANGE 1 HOUR]", false)).isInstanceOfSatisfying(ApiException.class, e -> {
                            assertThat(e.status()).isEqualTo(503);
                            assertThat(e.code()).isEqualTo("change_pending");
                        });
                // events meanwhile: the task of partition 0 computes the new metrics, that of partition 1 does not
                for (int i = 0; i < 40; i++) {
                    long ts = T0 - HOUR / 2 + i * 1_000L;
                    int card = i % 8;
                    byte[] e = event(d, "mid" + i, ts, "c" + card, i);
                    StreamReply r = fe.send(d, e, e.length).get();
                    boolean marked = r.metrics().containsKey("total");
                    assertThat(markedCards.putIfAbsent(card, marked)).as("card c%d is on one partition", card)
                            .isIn(null, marked);
                    sent.add(new long[] {ts, card, i, marked ? 1 : 0});
                    assertThat(r.metrics().get("n")).isEqualTo(countAndSum(sent, ts, card, false)[0]);
                    if (marked) {
                        long[] expected = countAndSum(sent, ts, card, true);
                        assertThat(r.metrics()).containsEntry("c", expected[0]).containsEntry("total", (double) expected[1]);
                    }
                }
                assertThat(markedCards).containsValues(true, false); // both partitions have cards
            }
            try (Node node = Node.start(config)) {
                FrontEnd fe = node.frontEnd();
                // partition 0 got the marker twice (before the fault, then from the restart), partition 1 once
                assertThat(statementMarkers(node.bootstrapServers(), inputTopic)).containsExactly(
                        Map.entry(0, List.of(2L, 3L, 3L)), Map.entry(1, List.of(2L, 3L)));
                // every task computes the metric: compare each reply with a brute-force recomputation
                // (the events sent meanwhile are in the window: partition 0's count them in total and c, and
                // would not if the second marker had reset the metrics)
                Random random = new Random(12);
                for (int i = 0; i < 300; i++) {
                    long ts = T0 + i * 12_000L + random.nextInt(1_000);
                    int card = random.nextInt(8);
                    long amount = random.nextInt(100);
                    sent.add(new long[] {ts, card, amount, 1});
                    byte[] e = event(d, "e" + i, ts, "c" + card, amount);
                    StreamReply r = fe.send(d, e, e.length).get();
                    long[] all = countAndSum(sent, ts, card, false);
                    long[] counted = countAndSum(sent, ts, card, true);
                    assertThat(r.metrics()).as("event e%d of card c%d", i, card).containsExactly(Map.entry("n", all[0]),
                            Map.entry("total", (double) counted[1]), Map.entry("c", counted[0]));
                }
                assertThat(sent.stream().mapToLong(s -> s[1]).distinct().count()).isEqualTo(8);
                // settled: the next change goes through
                assertThat(fe.addStatement("pay", "SELECT MAX(amount) AS m FROM pay GROUP BY card [RANGE 1 HOUR]", false))
                        .containsExactly("m");
            }
        } finally {
            try (Stream<Path> walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /**
     * A change left half done by a live node's failed marker is finished by another node once it is
     * past the grace period (here: a reconciler of "node-b" whose clock is an hour ahead): it claims the
     * change, writes the markers, completes it; a second node then finds nothing to do; the writer's
     * node accepts changes again and its tasks compute the metric exactly.
     */
    @Test
    void anotherNodeFinishesAChangePastItsGracePeriod() throws Exception {
        Path dir = Files.createTempDirectory("railgun-ddl");
        NodeConfig config = NodeConfig.defaults().withDataDir(dir).withHttp("127.0.0.1", 0).withProcessors(1);
        StreamDefinition d = payments();
        try (Node node = Node.start(config)) {
            FrontEnd fe = node.frontEnd();
            fe.putStream(d);
            DdlWriter.faults = (topic, partition) -> {
                throw new IllegalStateException("injected: no marker is written");
            };
            assertThatThrownBy(() -> fe.addStatement("pay", "SELECT COUNT(*) AS n FROM pay GROUP BY card [RANGE 1 HOUR]",
                    false)).hasMessageContaining("injected");
            DdlWriter.faults = DdlWriter.Faults.NONE;
            byte[] first = event(d, "a", T0, "c1", 1.0);
            assertThat(fe.send(d, first, first.length).get().metrics()).isEmpty(); // listed, unknown to the task

            io.railgun.node.messaging.KafkaSettings kafka = new io.railgun.node.messaging.KafkaSettings(
                    node.bootstrapServers(), Map.of(), "node-b");
            io.railgun.node.catalog.Catalog catalog = new io.railgun.node.catalog.Catalog();
            long later = System.currentTimeMillis() + HOUR;
            try (io.railgun.node.catalog.ControlLog control = new io.railgun.node.catalog.ControlLog(catalog, kafka);
                    DdlWriter other = new DdlWriter(catalog, control, kafka, "node-b", 10_000, 65_000, () -> later);
                    DdlWriter third = new DdlWriter(catalog, control, kafka, "node-c", 10_000, 65_000, () -> later)) {
                control.start(30_000);
                assertThat(catalog.ddl().pending("pay").owner()).isEqualTo(NodeConfig.defaults().nodeId());
                // not yet past its grace period for a node with the right time
                DdlWriter now = new DdlWriter(catalog, control, kafka, "node-b", 10_000, 65_000, System::currentTimeMillis);
                try (now) {
                    assertThat(new DdlReconciler(catalog, now).finishAtStart()).isZero();
                }
                assertThat(new DdlReconciler(catalog, other).finishAtStart()).isEqualTo(1);
                assertThat(catalog.ddl().pending("pay")).isNull();
                assertThat(new DdlReconciler(catalog, third).finishAtStart()).isZero();
            }
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (true) { // the node's catalog follows the control topic: the change is settled there too
                try {
                    fe.addStatement("pay", "SELECT MAX(amount) AS m FROM pay GROUP BY card [RANGE 1 HOUR]", false);
                    break;
                } catch (ApiException e) {
                    assertThat(e.code()).isEqualTo("change_pending");
                    assertThat(System.nanoTime()).isLessThan(deadline);
                    Thread.sleep(100);
                }
            }
            byte[] second = event(d, "b", T0 + 1_000, "c1", 2.0);
            assertThat(fe.send(d, second, second.length).get().metrics()).containsExactly(Map.entry("n", 1L),
                    Map.entry("m", 2.0));
        } finally {
            try (Stream<Path> walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /**
     * Brute force: the count and sum of amounts of {@code card}'s events in {@code (ts - 1 h, ts]};
     * {@code marked}: only those its task received after the new metrics' marker.
     */
    static long[] countAndSum(List<long[]> sent, long ts, int card, boolean marked) {
        long count = 0;
        long sum = 0;
        for (long[] s : sent) {
            if (s[1] == card && s[0] > ts - HOUR && s[0] <= ts && (!marked || s[3] == 1)) {
                count++;
                sum += s[2];
            }
        }
        return new long[] {count, sum};
    }

    /** The generation of stream pay, from its topic's name. */
    static String generationOf(Node node) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, node.bootstrapServers()))) {
            for (String t : admin.listTopics().names().get()) {
                if (t.startsWith("railgun.s.pay.") && t.endsWith(".card")) {
                    String rest = t.substring("railgun.s.pay.".length());
                    return rest.substring(0, rest.length() - ".card".length());
                }
            }
        }
        throw new AssertionError("no input topic of stream pay");
    }

    /** Waits (up to 30 s) until the topic's STATEMENT markers are {@code expected}. */
    static void awaitMarkers(String bootstrap, String topic, Map<Integer, List<Long>> expected) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        Map<Integer, List<Long>> seen = statementMarkers(bootstrap, topic);
        while (!seen.equals(expected) && System.nanoTime() < deadline) {
            Thread.sleep(50);
            seen = statementMarkers(bootstrap, topic);
        }
        assertThat(seen).as("the markers in %s", topic).isEqualTo(expected);
    }

    /** Per partition, the statement ids of the STATEMENT markers in the topic, in order. */
    static Map<Integer, List<Long>> statementMarkers(String bootstrap, String topic) {
        Map<Integer, List<Long>> ids = new java.util.TreeMap<>();
        try (KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName()))) {
            List<TopicPartition> parts = List.of(new TopicPartition(topic, 0), new TopicPartition(topic, 1));
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts);
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (parts.stream().anyMatch(p -> c.position(p) < end.get(p)) && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : c.poll(Duration.ofMillis(200))) {
                    if (r.value() != null && r.value().length > 0 && r.value()[0] == TaskInput.STATEMENT) {
                        ids.computeIfAbsent(r.partition(), k -> new ArrayList<>()).add(TaskInput.decodeStatement(r.value()).id());
                    }
                }
            }
        }
        return ids;
    }
}
