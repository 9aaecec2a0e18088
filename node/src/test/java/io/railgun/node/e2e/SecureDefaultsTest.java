package io.railgun.node.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railgun.node.Node;
import io.railgun.node.NodeConfig;
import io.railgun.node.broker.BrokerCredentials;
import io.railgun.node.http.KafkaIngestion;
import io.railgun.node.messaging.Topics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The secure defaults of a node with tokens, on a real node: its embedded broker lets in only the
 * node's own clients (generated SASL/PLAIN credentials), its data directory and every file in it are
 * its owner's only, and a stream name Kafka would confuse with another's is refused before any topic
 * is created. One node for all (one embedded broker at a time in this JVM).
 */
@Tag("kafka")
@Timeout(value = 90, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SecureDefaultsTest {
    private static final String ADMIN = "admin-secret-3";
    private static final String INGEST = "ingest-secret-4";
    private static final String SPEC = "{\"fields\": {\"id\": \"string\", \"card\": \"string\"}, \"eventId\": \"id\","
            + " \"partitioners\": [\"card\"], \"partitions\": 2}";

    @TempDir
    static Path dir;
    static Path data;
    static Node node;
    static RawHttp raw;

    @BeforeAll
    @Timeout(value = 90, unit = TimeUnit.SECONDS)
    static void startNode() {
        data = dir.resolve("node");
        node = Node.start(NodeConfig.defaults().withDataDir(data).withHttp("127.0.0.1", 0).withProcessors(1)
                .withTokens(INGEST, ADMIN));
        raw = new RawHttp(node.uri());
        assertThat(raw.send("PUT", "/v1/streams/guarded", SPEC, auth(ADMIN)).status()).isEqualTo(201);
        assertThat(raw.send("POST", "/v1/streams/guarded/metrics", "{\"query\": \"SELECT COUNT(*) AS n FROM guarded"
                + " GROUP BY card [RANGE UNBOUNDED]\"}", auth(ADMIN)).status()).isEqualTo(201);
    }

    @AfterAll
    static void stopNode() {
        if (node != null) {
            node.close();
        }
    }

    @Test
    @Order(1)
    void theEmbeddedBrokerIsNoSideDoorWhileTheNodeServes() throws Exception {
        RawHttp.Response first = send("e1");
        long deadlineNs = System.nanoTime() + Duration.ofSeconds(45).toNanos();
        while (first.status() == 503 && System.nanoTime() < deadlineNs) {
            first = send("e1"); // the stream's tasks are still being assigned; the event id makes a retry count once
        }
        assertThat(first.status()).as(first.body()).isEqualTo(200);

        Map<String, Object> none = quick(Map.of());
        try (Admin intruder = Admin.create(none)) {
            assertThatThrownBy(() -> intruder.listTopics().names().get()).as("listing topics without credentials")
                    .isInstanceOf(ExecutionException.class);
        }
        Map<String, Object> pp = quick(Map.of());
        pp.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 3_000);
        try (KafkaProducer<String, String> intruder = new KafkaProducer<>(pp, new StringSerializer(), new StringSerializer())) {
            assertThatThrownBy(() -> intruder.send(new ProducerRecord<>(KafkaIngestion.inputTopic("guarded"), "c1",
                    "{\"id\": \"forged\", \"card\": \"c1\"}")).get()).as("producing an event without credentials")
                    .isInstanceOf(Exception.class);
        }
        Map<String, Object> cp = quick(Map.of());
        cp.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        cp.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        try (KafkaConsumer<String, String> intruder = new KafkaConsumer<>(cp)) {
            TopicPartition control = new TopicPartition(Topics.CONTROL, 0);
            intruder.assign(List.of(control));
            assertThatThrownBy(() -> intruder.beginningOffsets(List.of(control), Duration.ofSeconds(3)))
                    .as("reading the catalog without credentials").isInstanceOf(Exception.class);
        }

        // the node's own clients authenticate: events, replies, DDL all work; the forged event never counted
        RawHttp.Response second = send("e2");
        assertThat(second.status()).as(second.body()).isEqualTo(200);
        assertThat(second.json().get("metrics").get("n").asLong()).isEqualTo(2);

        // the credentials file is a Kafka client configuration, the owner's only
        Path credentials = data.resolve(BrokerCredentials.FILE);
        assertThat(mode(credentials)).isEqualTo("rw-------");
        java.util.Properties client = new java.util.Properties();
        try (var in = Files.newInputStream(credentials)) {
            client.load(in);
        }
        Map<String, Object> withFile = new HashMap<>();
        client.forEach((k, v) -> withFile.put((String) k, v));
        try (Admin admin = Admin.create(quick(withFile))) {
            assertThat(admin.listTopics().names().get()).contains(Topics.CONTROL, KafkaIngestion.inputTopic("guarded"));
        }
    }

    @Test
    @Order(2)
    void theDataDirectoryAndEveryFileInItAreTheOwnersOnly() throws IOException {
        // files of every writer: the node (.lock, credentials), Kafka (log segments), RocksDB and the reservoirs (tasks/)
        assertThat(send("e3").status()).isEqualTo(200);
        assertThat(mode(data)).isEqualTo("rwx------");
        List<String> open = new ArrayList<>();
        int files = 0;
        try (Stream<Path> walk = Files.walk(data)) {
            for (Path p : walk.toList()) {
                if (Files.isSymbolicLink(p)) {
                    continue;
                }
                files += Files.isRegularFile(p) ? 1 : 0;
                Set<PosixFilePermission> m;
                try {
                    m = Files.getPosixFilePermissions(p, LinkOption.NOFOLLOW_LINKS);
                } catch (java.nio.file.NoSuchFileException deletedMeanwhile) {
                    continue;
                }
                if (m.stream().anyMatch(b -> b.name().startsWith("GROUP") || b.name().startsWith("OTHERS"))) {
                    open.add(data.relativize(p) + " " + PosixFilePermissions.toString(m));
                }
            }
        }
        System.out.printf("data directory: %d files, none open to group or others: %s%n", files, open);
        assertThat(files).as("files under the data directory").isGreaterThan(20);
        assertThat(Files.exists(data.resolve("kafka"))).isTrue();
        assertThat(Files.exists(data.resolve("tasks"))).isTrue();
        assertThat(open).as("files and directories readable or writable by group or others").isEmpty();
    }

    @Test
    @Order(3)
    void streamNamesKafkaWouldConfuseAreRefusedBeforeAnyTopicIsCreated() throws Exception {
        assertThat(raw.send("PUT", "/v1/streams/col.x", SPEC, auth(ADMIN)).status()).isEqualTo(201);
        Set<String> before = topics();
        // before the fix: 503 kafka_unavailable "retry", and one more orphan input topic per attempt
        for (String name : List.of("col_x", "col_x", "guarded.replies")) {
            raw.send("PUT", "/v1/streams/" + name, SPEC, auth(ADMIN))
                    .assertError(409, "stream_name_clash", "'" + name + "'", "'" + (name.startsWith("col") ? "col.x" : "guarded") + "'");
        }
        assertThat(topics()).as("no topic left behind").isEqualTo(before);
        List<String> names = new ArrayList<>();
        raw.get("/v1/streams", auth(ADMIN)).json().get("streams").forEach(d -> names.add(d.get("name").asText()));
        assertThat(names).containsExactlyInAnyOrder("guarded", "col.x");
    }

    private static RawHttp.Response send(String id) {
        return raw.send("POST", "/v1/streams/guarded/events", "{\"id\": \"" + id + "\", \"card\": \"c1\"}", auth(INGEST));
    }

    private static String[] auth(String token) {
        return new String[] {"Authorization", "Bearer " + token};
    }

    /** Client settings that give up within seconds (an intruder would retry for a minute by default). */
    private static Map<String, Object> quick(Map<String, Object> security) {
        Map<String, Object> p = new HashMap<>(security);
        p.put("bootstrap.servers", node.bootstrapServers());
        p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 5_000);
        p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2_000);
        return p;
    }

    private static Set<String> topics() throws Exception {
        Map<String, Object> p = new HashMap<>();
        // the node's own credentials, from its data directory
        java.util.Properties client = new java.util.Properties();
        try (var in = Files.newInputStream(data.resolve(BrokerCredentials.FILE))) {
            client.load(in);
        }
        client.forEach((k, v) -> p.put((String) k, v));
        try (Admin admin = Admin.create(quick(p))) {
            return new TreeSet<>(admin.listTopics().names().get(30, TimeUnit.SECONDS));
        }
    }

    private static String mode(Path p) {
        try {
            return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
