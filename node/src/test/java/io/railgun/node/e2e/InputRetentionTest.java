package io.railgun.node.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.railgun.node.Node;
import io.railgun.node.NodeConfig;
import io.railgun.node.messaging.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
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
 * A stream's input retention through the HTTP API and on its Kafka topics (node default, a stream's
 * own, changed on an existing stream, refused below a minute), and a task rebuilt after retention
 * deleted the start of its input: it answers from what Kafka still holds, with the catalog's metrics
 * although their DDL markers were deleted too, and {@code railgun_task_history_incomplete} says how
 * many records it never saw. One node with its embedded broker, node default 3 days. Tagged {@code kafka}.
 */
@Tag("kafka")
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class InputRetentionTest {
    private static final long DAY = 86_400_000L;
    private static final String FIELDS = "\"fields\": {\"id\": \"string\", \"ts\": \"timestamp\", \"card\": \"string\"},"
            + " \"eventId\": \"id\", \"timestamp\": \"ts\", \"partitioners\": [\"card\"]";

    private Path home;
    private NodeConfig config;
    private Node node;
    private RawHttp raw;
    private Admin admin;

    @BeforeAll
    void start() throws Exception {
        home = Files.createTempDirectory("railgun-input-retention");
        config = NodeConfig.defaults().withDataDir(home.resolve("node")).withHttp("127.0.0.1", 0).withProcessors(1)
                .withTopics(NodeConfig.AUTO_TOPIC_REPLICATION, 3 * DAY);
        startNode();
    }

    private void startNode() {
        node = Node.start(config);
        raw = new RawHttp(node.uri());
        admin = Admin.create(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, node.bootstrapServers()));
    }

    private void stopNode() {
        admin.close();
        node.close();
    }

    @AfterAll
    void stop() throws Exception {
        if (node != null) {
            stopNode();
        }
        try (Stream<Path> walk = Files.walk(home)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    @Test
    @Order(1)
    void theNodeDefaultAStreamsOwnAndAChangeReachTheInputTopicsAndGet() throws Exception {
        assertThat(put("dflt", "").status()).isEqualTo(201);
        assertThat(inputRetentionShown("dflt")).isEqualTo("3d");
        assertThat(inputTopicConfig("dflt", "retention.ms")).isEqualTo(Long.toString(3 * DAY));
        assertThat(inputTopicConfig("dflt", "min.insync.replicas")).as("one broker: one copy").isEqualTo("1");

        RawHttp.Response created = put("kept", ", \"inputRetention\": \"14d\"");
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.body()).contains("\"inputRetention\":\"14d\"");
        assertThat(inputRetentionShown("kept")).isEqualTo("14d");
        assertThat(inputTopicConfig("kept", "retention.ms")).isEqualTo(Long.toString(14 * DAY));

        assertThat(put("kept", "").status()).as("left out: unchanged").isEqualTo(200);
        assertThat(inputRetentionShown("kept")).isEqualTo("14d");

        assertThat(put("kept", ", \"inputRetention\": \"forever\"").status()).isEqualTo(200);
        assertThat(inputRetentionShown("kept")).isEqualTo("forever");
        // the controller has the change when the PUT returns; the broker answering may learn it a moment later
        awaitInputTopicConfig("kept", "retention.ms", "-1");
        assertThat(inputTopicConfig("kept", "message.timestamp.type")).as("other settings stay").isEqualTo("CreateTime");

        RawHttp.Response tooShort = put("kept", ", \"inputRetention\": \"30s\"");
        assertThat(tooShort.status()).isEqualTo(400);
        assertThat(RawHttp.JSON.readTree(tooShort.body()).path("error").path("code").asText())
                .isEqualTo("invalid_input_retention");
        assertThat(tooShort.body()).contains("at least 1m");
        assertThat(inputRetentionShown("kept")).isEqualTo("forever");
        assertThat(put("never", ", \"inputRetention\": 5").status()).isEqualTo(400);
        assertThat(raw.get("/v1/streams/never").status()).as("nothing created").isEqualTo(404);
    }

    @Test
    @Order(2)
    void aTaskRebuiltAfterRetentionDeletedItsStartAnswersFromWhatIsLeftAndSaysSo() throws Exception {
        assertThat(put("gap", "").status()).isEqualTo(201);
        assertThat(raw.send("POST", "/v1/streams/gap/metrics",
                "{\"query\": \"SELECT COUNT(*) AS n FROM gap GROUP BY card [RANGE UNBOUNDED]\"}").status()).isEqualTo(201);
        for (int i = 0; i < 10; i++) {
            assertThat(count(send("e" + i, i))).isEqualTo(i + 1);
        }
        String topic = inputTopic("gap");
        TopicPartition tp = new TopicPartition(topic, 0);
        // offset 0 is the statement's marker, 1..10 the events: retention takes the marker and e0..e4
        admin.deleteRecords(Map.of(tp, RecordsToDelete.beforeOffset(6))).all().get(30, TimeUnit.SECONDS);

        stopNode();
        deleteTree(home.resolve("node").resolve("tasks")); // no copy of the task survives
        startNode();

        assertThat(count(send("e10", 10))).as("e5..e9 and e10; the metric known from the catalog").isEqualTo(6);
        String metrics = raw.get("/metrics").body();
        assertThat(metrics).contains("railgun_task_history_incomplete{partition=\"0\",partitioner=\"card\",stream=\"gap\"} 6.0");
    }

    // ---------------------------------------------------------------- helpers

    private RawHttp.Response put(String stream, String extra) {
        return raw.send("PUT", "/v1/streams/" + stream, "{" + FIELDS + extra + "}");
    }

    private String inputRetentionShown(String stream) throws Exception {
        RawHttp.Response r = raw.get("/v1/streams/" + stream);
        assertThat(r.status()).isEqualTo(200);
        return RawHttp.JSON.readTree(r.body()).path("inputRetention").asText();
    }

    private RawHttp.Response send(String id, int i) {
        RawHttp.Response r = raw.send("POST", "/v1/streams/gap/events",
                "{\"id\": \"" + id + "\", \"ts\": " + (1_700_000_000_000L + i * 1000L) + ", \"card\": \"c1\"}");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        return r;
    }

    private static long count(RawHttp.Response r) throws Exception {
        JsonNode n = RawHttp.JSON.readTree(r.body()).path("metrics").path("n");
        assertThat(n.isNumber()).as(r.body()).isTrue();
        return n.asLong();
    }

    /** The stream's input topic; the broker answering may learn of a topic just created a moment later. */
    private String inputTopic(String stream) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        List<String> topics;
        do {
            topics = admin.listTopics().names().get(30, TimeUnit.SECONDS).stream()
                    .filter(t -> t.startsWith(Topics.STREAM_PREFIX + stream + ".")).toList();
        } while (topics.isEmpty() && System.nanoTime() < deadline && sleep());
        assertThat(topics).hasSize(1);
        return topics.getFirst();
    }

    private String inputTopicConfig(String stream, String key) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, inputTopic(stream));
        Config c = admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource);
        return c.get(key).value();
    }

    private void awaitInputTopicConfig(String stream, String key, String expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (!inputTopicConfig(stream, key).equals(expected) && System.nanoTime() < deadline) {
            Thread.sleep(100);
        }
        assertThat(inputTopicConfig(stream, key)).as(key).isEqualTo(expected);
    }

    private static boolean sleep() throws InterruptedException {
        Thread.sleep(100);
        return true;
    }

    private static void deleteTree(Path dir) throws Exception {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
