package io.railgun.node.e2e;

import static org.assertj.core.api.Assertions.assertThat;

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
 * writes with {@code acks=all} go on, and started again. The cluster is started once for the class,
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

    // ---------------------------------------------------------------- helpers

    private int brokers() {
        try {
            return admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).size();
        } catch (Exception e) {
            return -1;
        }
    }

    private TopicDescription describe(String topic) throws Exception {
        return admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS).get(topic);
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
