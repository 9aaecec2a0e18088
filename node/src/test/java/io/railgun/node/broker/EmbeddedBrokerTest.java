package io.railgun.node.broker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real single-node KRaft broker: data kept across a restart, a SASL/PLAIN client listener, and
 * generated credentials that guard both listeners.
 */
@Tag("kafka")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class EmbeddedBrokerTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @TempDir
    Path dataDir;

    @Test
    void keepsTopicsAndRecordsAcrossARestart() throws Exception {
        Set<String> threadsBefore = liveThreads();
        String clusterId;
        try (EmbeddedBroker broker = timedStart("first start (formats)", Map.of())) {
            clusterId = broker.clusterId();
            assertThat(broker.bootstrapServers()).isEqualTo("127.0.0.1:" + broker.port());
            try (Admin admin = Admin.create(clientProps(broker, Map.of()))) {
                admin.createTopics(List.of(new NewTopic("events", 2, (short) 1))).all().get();
            }
            try (KafkaProducer<String, String> producer = producer(broker, Map.of())) {
                RecordMetadata sent = producer.send(new ProducerRecord<>("events", 1, "k", "kept")).get();
                assertThat(sent.offset()).isZero();
            }
            assertThat(readAll(broker, "events", 1, 1)).containsExactly("k=kept");
        }
        printThreadsLeft("after the first close", threadsBefore);

        try (EmbeddedBroker broker = timedStart("restart (same dir)", Map.of())) {
            assertThat(broker.clusterId()).isEqualTo(clusterId);
            try (Admin admin = Admin.create(clientProps(broker, Map.of()))) {
                assertThat(admin.listTopics().names().get()).contains("events");
            }
            assertThat(readAll(broker, "events", 1, 1)).containsExactly("k=kept");
            assertThat(readWithGroup(broker, "events")).containsExactly("k=kept");
        }
        printThreadsLeft("after the second close", threadsBefore);
    }

    @Test
    void saslPlainListenerAcceptsTheRightCredentialsOnly() throws Exception {
        try (EmbeddedBroker broker = timedStart("SASL_PLAINTEXT start", SaslPlain.brokerOverrides())) {
            Map<String, String> alice = SaslPlain.client(SaslPlain.USER, SaslPlain.PASSWORD);
            try (Admin admin = Admin.create(clientProps(broker, alice))) {
                admin.createTopics(List.of(new NewTopic("secured", 1, (short) 1))).all().get();
            }
            try (KafkaProducer<String, String> producer = producer(broker, alice)) {
                assertThat(producer.send(new ProducerRecord<>("secured", "k", "v")).get().offset()).isZero();
            }

            try (Admin intruder = Admin.create(clientProps(broker, SaslPlain.client(SaslPlain.USER, "wrong")))) {
                assertThatThrownBy(() -> intruder.createTopics(List.of(new NewTopic("nope", 1, (short) 1)))
                        .all().get())
                        .isInstanceOf(ExecutionException.class)
                        .hasCauseInstanceOf(SaslAuthenticationException.class);
            }
            try (Admin admin = Admin.create(clientProps(broker, alice))) {
                assertThat(admin.listTopics().names().get()).contains("secured").doesNotContain("nope");
            }
        }
    }

    @Test
    void generatedCredentialsGuardBothListenersAndAreKeptAcrossARestart() throws Exception {
        BrokerCredentials credentials = BrokerCredentials.loadOrCreate(dataDir);
        Path file = dataDir.resolve(BrokerCredentials.FILE);
        assertThat(credentials.file()).isEqualTo(file.toAbsolutePath());
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        Properties fromFile = new Properties();
        try (var in = Files.newInputStream(file)) {
            fromFile.load(in);
        }
        assertThat(fromFile).containsExactlyInAnyOrderEntriesOf(credentials.clientProperties());
        assertThat(credentials.toString()).doesNotContain(credentials.clientProperties().get("sasl.jaas.config"));

        try (EmbeddedBroker broker = timedStart("SASL on both listeners", credentials.brokerOverrides())) {
            // the file is a Kafka client configuration: its properties are all a client needs
            Map<String, Object> withFile = new HashMap<>();
            fromFile.forEach((k, v) -> withFile.put((String) k, v));
            try (Admin admin = Admin.create(clientProps(broker, withFile))) {
                admin.createTopics(List.of(new NewTopic("guarded", 1, (short) 1))).all().get();
            }
            try (KafkaProducer<String, String> producer = producer(broker, credentials.clientProperties())) {
                assertThat(producer.send(new ProducerRecord<>("guarded", "k", "v")).get().offset()).isZero();
            }
            assertNoAccess(broker, Map.of(), "without credentials");
            assertNoAccess(broker, SaslPlain.client(credentials.username(), "wrong"), "with a wrong password");
            try (Admin controller = Admin.create(controllerProps(broker, credentials.clientProperties()))) {
                assertThat(controller.describeCluster().nodes().get()).hasSize(1);
            }
        }
        // the same credentials on the next start: tools configured with the file keep working
        assertThat(BrokerCredentials.loadOrCreate(dataDir).clientProperties()).isEqualTo(credentials.clientProperties());
    }

    /** Neither listener lets this client list, create or produce; a producer does not even find the topic. */
    private void assertNoAccess(EmbeddedBroker broker, Map<String, ?> security, String how) {
        Map<String, Object> quick = new HashMap<>(security);
        quick.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000);
        quick.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2_000);
        Map<String, Object> client = clientProps(broker, Map.of());
        client.putAll(quick);
        try (Admin intruder = Admin.create(client)) {
            assertThatThrownBy(() -> intruder.listTopics().names().get()).as("listing topics " + how)
                    .isInstanceOf(ExecutionException.class);
            assertThatThrownBy(() -> intruder.createTopics(List.of(new NewTopic("intruded", 1, (short) 1))).all().get())
                    .as("creating a topic " + how).isInstanceOf(ExecutionException.class);
        }
        Map<String, Object> controller = controllerProps(broker, Map.of());
        controller.putAll(quick);
        try (Admin intruder = Admin.create(controller)) {
            assertThatThrownBy(() -> intruder.createTopics(List.of(new NewTopic("intruded", 1, (short) 1))).all().get())
                    .as("creating a topic through the controller listener " + how)
                    .isInstanceOf(ExecutionException.class);
        }
        Map<String, Object> producerSecurity = new HashMap<>(security);
        producerSecurity.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 3_000);
        try (KafkaProducer<String, String> producer = producer(broker, producerSecurity)) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>("guarded", "k", "intruder")).get())
                    .as("producing " + how).isInstanceOf(Exception.class);
        }
        System.out.printf("EmbeddedBroker with credentials: a client %s could not list, create or produce%n", how);
    }

    private static Map<String, Object> controllerProps(EmbeddedBroker broker, Map<String, ?> extra) {
        Map<String, Object> p = new HashMap<>(extra);
        p.put(AdminClientConfig.BOOTSTRAP_CONTROLLERS_CONFIG, "127.0.0.1:" + broker.controllerPort());
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) WAIT.toMillis());
        return p;
    }

    @Test
    void refusesAPortInUseWithAClearMessage() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            assertThatThrownBy(() -> EmbeddedBroker.start(dataDir, taken.getLocalPort(), Map.of()))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("127.0.0.1:" + taken.getLocalPort() + " is already in use");
        }
    }

    @Test
    void refusesOverridesOfTheListenersAndStorage() {
        assertThatThrownBy(() -> EmbeddedBroker.start(dataDir, 0, Map.of("listeners", "CLIENT://127.0.0.1:9092")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("[listeners]");
    }

    private EmbeddedBroker timedStart(String what, Map<String, String> overrides) {
        long startNs = System.nanoTime();
        EmbeddedBroker broker = EmbeddedBroker.start(dataDir, 0, overrides);
        System.out.printf("EmbeddedBroker %s: %d ms, %s, used heap %d MiB%n", what,
                (System.nanoTime() - startNs) / 1_000_000, broker.bootstrapServers(), usedHeapMiB());
        return broker;
    }

    private static Map<String, Object> clientProps(EmbeddedBroker broker, Map<String, ?> extra) {
        Map<String, Object> p = new HashMap<>(extra);
        p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) WAIT.toMillis());
        return p;
    }

    private static KafkaProducer<String, String> producer(EmbeddedBroker broker, Map<String, ?> extra) {
        Map<String, Object> p = new HashMap<>();
        p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, (int) WAIT.toMillis());
        p.putAll(extra);
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    private static Map<String, Object> consumerProps(EmbeddedBroker broker) {
        Map<String, Object> p = new HashMap<>();
        p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers());
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        return p;
    }

    /** Reads partition {@code partition} from the start until {@code count} records came, as key=value. */
    private static List<String> readAll(EmbeddedBroker broker, String topic, int partition, int count) {
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(consumerProps(broker), new StringDeserializer(), new StringDeserializer())) {
            TopicPartition tp = new TopicPartition(topic, partition);
            consumer.assign(List.of(tp));
            consumer.seekToBeginning(List.of(tp));
            return poll(consumer, count);
        }
    }

    /** Reads with a consumer group: needs {@code __consumer_offsets} (replication factor 1). */
    private static List<String> readWithGroup(EmbeddedBroker broker, String topic) {
        Map<String, Object> p = consumerProps(broker);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, "test-group");
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            consumer.subscribe(List.of(topic));
            List<String> read = poll(consumer, 1);
            consumer.commitSync();
            return read;
        }
    }

    private static List<String> poll(KafkaConsumer<String, String> consumer, int count) {
        List<String> read = new ArrayList<>();
        long deadlineNs = System.nanoTime() + WAIT.toNanos();
        while (read.size() < count && System.nanoTime() < deadlineNs) {
            for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                read.add(r.key() + "=" + r.value());
            }
        }
        return read;
    }

    private static Set<String> liveThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(Thread::isAlive)
                .map(t -> t.getName() + (t.isDaemon() ? " (daemon)" : ""))
                .collect(Collectors.toSet());
    }

    private static void printThreadsLeft(String when, Set<String> before) {
        Set<String> left = liveThreads();
        left.removeAll(before);
        System.out.printf("EmbeddedBroker threads left %s: %s%n", when, left);
    }

    private static long usedHeapMiB() {
        Runtime rt = Runtime.getRuntime();
        return (rt.totalMemory() - rt.freeMemory()) >> 20;
    }
}
