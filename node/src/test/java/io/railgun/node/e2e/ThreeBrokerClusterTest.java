package io.railgun.node.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.client.EventReply;
import io.railgun.client.FieldType;
import io.railgun.client.RailgunClient;
import io.railgun.client.RetryPolicy;
import io.railgun.client.StreamSpec;
import io.railgun.node.Node;
import io.railgun.node.NodeConfig;
import io.railgun.node.messaging.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

/**
 * A real three-broker KRaft cluster, three broker processes started as {@code ./railgun broker
 * --broker-id I --cluster-size 3 --base-port P} does ({@link BrokerCluster}, P picked free at
 * runtime): internal topics with three copies and two in sync; a broker killed (SIGKILL) while
 * writes with {@code acks=all} go on, and started again; then a node over the cluster, whose topics
 * get three copies and {@code min.insync.replicas=2}, answering every event exactly (compared with a
 * brute-force sum) before, while and after a broker is killed. The cluster is started once for the class,
 * in a temporary directory deleted at the end. Tagged {@code kafka}.
 */
@Tag("kafka")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ThreeBrokerClusterTest {
    private static final long START_MS = 90_000;
    private static final Duration WAIT = Duration.ofSeconds(60);

    private Path home;
    private BrokerCluster cluster;
    private Admin admin;

    @BeforeAll
    void startCluster() throws Exception {
        home = Files.createTempDirectory("railgun-3-brokers");
        cluster = new BrokerCluster(home, 3);
        long t0 = System.nanoTime();
        cluster.startAll(START_MS);
        System.out.printf("3 brokers on base port %d listening after %d ms%n", cluster.basePort(),
                (System.nanoTime() - t0) / 1_000_000);
        admin = Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers()));
        awaitTrue("3 brokers registered", () -> brokers() == 3);
    }

    @AfterAll
    void stopCluster() throws Exception {
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
        }
        if (cluster != null) {
            cluster.close();
        }
        deleteTree(home);
    }

    @Test
    @Order(1)
    void internalTopicsHaveThreeCopiesAndWritesSurviveABrokerKill() throws Exception {
        admin.createTopics(List.of(new NewTopic("plain", Optional.of(2), Optional.empty()))).all().get();
        TopicDescription plain = describe("plain");
        assertThat(plain.partitions()).allSatisfy(p -> assertThat(p.replicas()).hasSize(3));
        assertThat(topicConfig("plain", "min.insync.replicas")).as("the brokers' default").isEqualTo("2");

        try (KafkaProducer<String, String> producer = producer()) {
            producer.send(new ProducerRecord<>("plain", 0, "k", "before")).get();
            // a consumer group creates __consumer_offsets
            assertThat(readWithGroup("plain", 0, 1)).containsExactly("before");
            TopicDescription offsets = describe("__consumer_offsets");
            assertThat(offsets.partitions()).allSatisfy(p -> assertThat(p.replicas()).hasSize(3));
            assertThat(topicConfig("__consumer_offsets", "min.insync.replicas")).isEqualTo("2");

            cluster.kill(3);
            long killed = System.nanoTime();
            for (int i = 0; i < 20; i++) {
                producer.send(new ProducerRecord<>("plain", 0, "k", "during-" + i)).get(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
            System.out.printf("20 acks=all writes with broker 3 killed in %d ms%n", (System.nanoTime() - killed) / 1_000_000);
            awaitTrue("broker 3 out of every ISR", () -> isrs("plain").stream().noneMatch(isr -> isr.contains(3)));

            cluster.start(3);
            cluster.awaitListening(3, START_MS);
            awaitTrue("broker 3 back in every ISR", () -> isrs("plain").stream().allMatch(isr -> isr.size() == 3));
            producer.send(new ProducerRecord<>("plain", 0, "k", "after")).get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
        List<String> expected = new ArrayList<>(List.of("before"));
        for (int i = 0; i < 20; i++) {
            expected.add("during-" + i);
        }
        expected.add("after");
        assertThat(readWithGroup("plain", 0, expected.size())).containsExactlyElementsOf(expected);
    }

    @Test
    @Order(2)
    void aNodeOverTheClusterAnswersExactlyWhileABrokerIsDown() throws Exception {
        NodeConfig config = NodeConfig.defaults().withHttp("127.0.0.1", 0).withDataDir(home.resolve("node"))
                .withKafka(cluster.bootstrapServers()).withProcessors(1).withLimits(1 << 20, 1000, 30_000);
        try (Node node = Node.start(config);
             RailgunClient client = RailgunClient.builder().baseUri(node.uri()).requestTimeout(Duration.ofSeconds(40))
                     .retry(RetryPolicy.exponential(20, Duration.ofMillis(100), Duration.ofSeconds(2))).build()) {
            client.createStream("pay", StreamSpec.builder().field("id", FieldType.STRING).field("ts", FieldType.TIMESTAMP)
                    .field("card", FieldType.STRING).field("amount", FieldType.DOUBLE).eventId("id").timestamp("ts")
                    .partitioners("card").partitions(3).build());
            client.addMetrics("pay", "SELECT SUM(amount) AS total, COUNT(*) AS n FROM pay GROUP BY card [RANGE UNBOUNDED]");

            List<String> railgunTopics = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
                    .filter(t -> t.startsWith(Topics.PREFIX)).sorted().toList();
            assertThat(railgunTopics).contains(Topics.CONTROL, Topics.replies(config.nodeId()), Topics.ingest("pay"))
                    .anyMatch(t -> t.startsWith(Topics.STREAM_PREFIX + "pay."));
            for (String topic : railgunTopics) {
                assertThat(describe(topic).partitions()).as(topic).allSatisfy(p -> assertThat(p.replicas()).hasSize(3));
                assertThat(topicConfig(topic, "min.insync.replicas")).as(topic).isEqualTo("2");
            }

            Oracle oracle = new Oracle();
            long maxPauseMs = 0;
            for (int round = 0; round < 3; round++) {
                if (round == 1) {
                    cluster.kill(2);
                } else if (round == 2) {
                    cluster.start(2);
                    cluster.awaitListening(2, START_MS);
                }
                for (int i = 0; i < 30; i++) {
                    long t0 = System.nanoTime();
                    oracle.sendAndCheck(client, "r" + round + "-e" + i, "c" + (i % 4), round * 100 + i * 0.25);
                    maxPauseMs = Math.max(maxPauseMs, (System.nanoTime() - t0) / 1_000_000);
                }
                System.out.printf("round %d (%s): 30 events answered exactly; longest reply so far %d ms%n", round,
                        List.of("3 brokers", "broker 2 killed", "broker 2 restarted").get(round), maxPauseMs);
            }
            String input = railgunTopics.stream().filter(t -> t.startsWith(Topics.STREAM_PREFIX + "pay.")).findFirst()
                    .orElseThrow();
            awaitTrue("broker 2 back in every ISR of " + input, () -> isrs(input).stream().allMatch(isr -> isr.size() == 3));
        }
    }

    /** The brute-force SUM and COUNT per card of every event accepted, checked against each reply. */
    private static final class Oracle {
        private final Map<String, double[]> perCard = new java.util.HashMap<>();
        private long ts = 1_700_000_000_000L;

        void sendAndCheck(RailgunClient client, String id, String card, double amount) {
            ts += 1_000;
            EventReply reply = client.send("pay", Map.of("id", id, "ts", ts, "card", card, "amount", amount));
            double[] sumAndCount = perCard.computeIfAbsent(card, c -> new double[2]);
            sumAndCount[0] += amount;
            sumAndCount[1]++;
            assertThat(reply.droppedLate()).as(id).isFalse();
            assertThat(((Number) reply.metric("total")).doubleValue()).as(id + " total").isCloseTo(sumAndCount[0],
                    org.assertj.core.data.Offset.offset(1e-9));
            assertThat(((Number) reply.metric("n")).longValue()).as(id + " n").isEqualTo((long) sumAndCount[1]);
        }
    }

    // ---------------------------------------------------------------- helpers

    private int brokers() {
        try {
            return admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).size();
        } catch (Exception e) {
            return -1;
        }
    }

    /** The topic's partitions; the broker answering may learn of a topic just created a moment later. */
    private TopicDescription describe(String topic) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (true) {
            try {
                return admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic);
            } catch (java.util.concurrent.ExecutionException e) {
                if (!(e.getCause() instanceof org.apache.kafka.common.errors.UnknownTopicOrPartitionException)
                        || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(100);
            }
        }
    }

    private String topicConfig(String topic, String key) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config config = admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource);
        return config.get(key).value();
    }

    /** Each partition's in-sync replica ids. */
    private List<Set<Integer>> isrs(String topic) {
        try {
            List<Set<Integer>> all = new ArrayList<>();
            for (TopicPartitionInfo p : describe(topic).partitions()) {
                all.add(new java.util.HashSet<>(p.isr().stream().map(n -> n.id()).toList()));
            }
            return all;
        } catch (Exception e) {
            return List.of(Set.of(-1));
        }
    }

    private KafkaProducer<String, String> producer() {
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 60_000);
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    private List<String> readWithGroup(String topic, int partition, int count) throws InterruptedException {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, cluster.bootstrapServers());
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "reader-" + UUID.randomUUID());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (values.size() < count && System.nanoTime() < deadline) {
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.partition() == partition) {
                        values.add(r.value());
                    }
                }
            }
            consumer.commitSync();
        }
        return values;
    }

    private static void awaitTrue(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + WAIT.toSeconds() + " s: " + what);
            }
            Thread.sleep(200);
        }
    }

    private static void deleteTree(Path dir) throws Exception {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
