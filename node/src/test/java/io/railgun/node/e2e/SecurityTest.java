package io.railgun.node.e2e;

import io.railgun.node.SelfSignedKeystore;
import static io.railgun.node.e2e.Refusals.refused;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.fail;

import io.railgun.client.EventReply;
import io.railgun.client.FieldType;
import io.railgun.client.MetricInfo;
import io.railgun.client.RailgunClient;
import io.railgun.client.StreamPutResult;
import io.railgun.client.StreamSpec;
import io.railgun.node.Node;
import io.railgun.node.NodeConfig;
import io.railgun.node.broker.EmbeddedBroker;
import io.railgun.node.broker.SaslPlain;
import io.railgun.node.http.KafkaIngestion;
import java.io.IOException;
import java.io.InputStream;
import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.security.KeyStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Security of a real node: bearer tokens on every endpoint (refused requests change nothing), the
 * loopback default bind, HTTPS from a PKCS12 keystore, and Kafka client security settings passed to
 * every Kafka client the node creates (a SASL/PLAIN broker), with a clear and prompt failure on
 * wrong credentials. Each node runs alone (one embedded broker at a time in this JVM). Nodes are
 * listed last in their try so they close before their clients: a client closing its connections
 * while the node stops can make the HTTP server wait its whole drain period.
 */
@Tag("kafka")
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class SecurityTest {
    private static final String INGEST = "ingest-secret-1";
    private static final String ADMIN = "admin-secret-2";
    private static final String PASSWORD = "changeit";
    private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);
    private final AtomicInteger ids = new AtomicInteger();

    // ------------------------------------------------------------------------------------------ (a) tokens, (b) bind

    @Test
    void tokensGuardEveryEndpointAndRefusedRequestsChangeNothing(@TempDir Path dir) throws Exception {
        NodeConfig config = NodeConfig.defaults().withDataDir(dir).withHttp(NodeConfig.defaults().host(), 0)
                .withProcessors(2).withTokens(INGEST, ADMIN);
        Node node = Node.start(config);
        try (RailgunClient admin = client(node.uri(), ADMIN, null);
                RailgunClient ingest = client(node.uri(), INGEST, null);
                RailgunClient anonymous = client(node.uri(), null, null);
                node) {
            // (b) the default host is loopback, and the node is not reachable on this machine's other addresses
            assertThat(node.uri().getHost()).isEqualTo("127.0.0.1");
            assertNotListeningOnOtherAddresses(node.uri().getPort());

            RawHttp raw = new RawHttp(node.uri());
            assertThat(raw.get("/health").status()).isEqualTo(200);
            assertThat(raw.get("/health", "Authorization", "Bearer not-the-token").status()).isEqualTo(200);
            assertThat(anonymous.health()).isTrue();

            assertThat(admin.createStream("secured", spec())).isEqualTo(StreamPutResult.CREATED);
            assertThat(admin.addMetrics("secured", "SELECT COUNT(*) AS n FROM secured GROUP BY card [RANGE UNBOUNDED]"))
                    .containsExactly("n");
            Refusals.firstEvent(admin, "secured", event("warm-up"));
            assertThat(ingest.send("secured", event("c1")).metric("n")).isEqualTo(1L);
            List<MetricInfo> metrics = admin.metrics("secured");
            StreamSpec stored = admin.stream("secured");

            // every request below would change something, or read, if it were let through
            String refusedEvent = RawHttp.JSON.writeValueAsString(eventWithId("refused-1", "refused"));
            List<String[]> adminOnly = List.of(
                    new String[] {"PUT", "/v1/streams/other", RawHttp.JSON.writeValueAsString(Map.of(
                            "fields", Map.of("id", "string", "card", "string"), "eventId", "id",
                            "partitioners", List.of("card")))},
                    // a compatible change: a new field at the end
                    new String[] {"PUT", "/v1/streams/secured", "{\"fields\": {\"id\": \"string\", \"ts\": \"timestamp\","
                            + " \"card\": \"string\", \"amount\": \"double\", \"extra\": \"string\"}, \"eventId\": \"id\","
                            + " \"timestamp\": \"ts\", \"partitioners\": [\"card\"], \"partitions\": 2}"},
                    new String[] {"POST", "/v1/streams/secured/metrics",
                            "{\"query\": \"SELECT COUNT(*) AS m FROM secured GROUP BY card [RANGE 1 MINUTE]\"}"},
                    new String[] {"DELETE", "/v1/streams/secured/metrics/n", null},
                    new String[] {"DELETE", "/v1/streams/secured", null});
            List<String[]> readsAndIngest = List.of(
                    new String[] {"GET", "/v1/streams", null},
                    new String[] {"GET", "/v1/streams/secured", null},
                    new String[] {"GET", "/v1/streams/secured/metrics", null},
                    new String[] {"POST", "/v1/streams/secured/events", refusedEvent},
                    new String[] {"POST", "/v1/streams/secured/events:batch", "[" + refusedEvent + "]"},
                    new String[] {"GET", "/v1/streams/secured/metrics/n?card=c1", null},
                    new String[] {"GET", "/metrics", null},
                    new String[] {"GET", "/no/such/path", null});
            List<String[]> all = new ArrayList<>(adminOnly);
            all.addAll(readsAndIngest);
            for (String[] call : all) {
                RawHttp.Response none = send(raw, call);
                none.assertError(401, "unauthorized", "token");
                assertThat(none.header("WWW-Authenticate")).as(call[0] + " " + call[1]).startsWith("Bearer");

                RawHttp.Response wrong = send(raw, call, "Authorization", "Bearer not-the-token");
                wrong.assertError(401, "unauthorized", "token");
                assertThat(wrong.header("WWW-Authenticate")).as(call[0] + " " + call[1]).startsWith("Bearer");

                send(raw, call, "Authorization", "Basic " + Base64.getEncoder().encodeToString(
                        ("admin:" + ADMIN).getBytes(StandardCharsets.UTF_8))).assertError(401, "unauthorized", "Bearer");
                // a token that merely starts like the right one
                send(raw, call, "Authorization", "Bearer " + ADMIN + "x").assertError(401, "unauthorized", "token");
            }
            for (String[] call : adminOnly) {
                RawHttp.Response forbidden = send(raw, call, "Authorization", "Bearer " + INGEST);
                forbidden.assertError(403, "forbidden", "admin");
            }
            refused(() -> ingest.createStream("other", spec()), 403, "forbidden", "admin");
            refused(() -> ingest.addMetrics("secured", "SELECT COUNT(*) AS m FROM secured GROUP BY card [RANGE 1 MINUTE]"),
                    403, "forbidden", "admin");
            refused(() -> ingest.deleteMetric("secured", "n"), 403, "forbidden", "admin");
            refused(() -> ingest.deleteStream("secured"), 403, "forbidden", "admin");
            refused(() -> anonymous.send("secured", event("refused")), 401, "unauthorized", "token");
            try (RailgunClient wrongToken = client(node.uri(), "wrong", null)) {
                refused(() -> wrongToken.send("secured", event("refused")), 401, "unauthorized", "token");
                refused(() -> wrongToken.sendBatch("secured", List.of(event("refused"))), 401, "unauthorized", "token");
            }

            // nothing of the refused requests happened
            assertThat(admin.streams().keySet()).containsExactly("secured");
            assertThat(admin.stream("secured")).isEqualTo(stored);
            assertThat(admin.metrics("secured")).isEqualTo(metrics);
            EventReply firstAccepted = ingest.send("secured", eventWithId("refused-1", "refused"));
            assertThat(firstAccepted.duplicate()).as("refused-1 was refused, never counted").isFalse();
            assertThat(firstAccepted.metric("n")).isEqualTo(1L);
            assertThat(admin.read("secured", "n", Map.of("card", "c1")).value()).isEqualTo(1L);

            // the ingest token sends events and batches, reads metrics and the Prometheus page
            assertThat(ingest.send("secured", event("c1")).metric("n")).isEqualTo(2L);
            List<EventReply> batch = ingest.sendBatch("secured", List.of(event("c1"), event("c1")));
            assertThat(batch).extracting(r -> r.metric("n")).containsExactly(3L, 4L);
            assertThat(ingest.read("secured", "n", Map.of("card", "c1")).value()).isEqualTo(4L);
            assertThat(raw.get("/metrics", "Authorization", "Bearer " + INGEST).status()).isEqualTo(200);

            // the admin token does everything
            assertThat(admin.streams()).containsKey("secured");
            assertThat(admin.createStream("secured", spec())).isEqualTo(StreamPutResult.UPDATED);
            assertThat(admin.addMetrics("secured", "SELECT SUM(amount) AS total FROM secured GROUP BY card"
                    + " [RANGE UNBOUNDED]")).containsExactly("total");
            EventReply r = admin.send("secured", event("c1"));
            assertThat(r.metrics()).containsExactly(Map.entry("n", 5L), Map.entry("total", 1.0));
            assertThat(admin.sendBatch("secured", List.of(event("c1"))).getFirst().metric("n")).isEqualTo(6L);
            assertThat(admin.read("secured", "total", Map.of("card", "c1")).value()).isEqualTo(2.0);
            admin.deleteMetric("secured", "total");
            assertThat(admin.metrics("secured")).extracting(MetricInfo::name).containsExactly("n");
            assertThat(raw.get("/metrics", "Authorization", "Bearer " + ADMIN).status()).isEqualTo(200);
            admin.deleteStream("secured");
            assertThat(admin.streams()).isEmpty();
            assertThat(raw.get("/health").status()).isEqualTo(200);
        }
    }

    @Test
    void theDefaultHttpHostIsLoopback() {
        assertThat(NodeConfig.defaults().host()).isEqualTo("127.0.0.1");
        assertThat(NodeConfig.DEFAULT_HOST).isEqualTo("127.0.0.1");
    }

    // ------------------------------------------------------------------------------------------ (c) TLS

    @Test
    void servesHttpsFromItsKeystoreAndNotPlainHttp(@TempDir Path dir) throws Exception {
        Path keystore = dir.resolve("https.p12");
        SelfSignedKeystore.create(keystore, PASSWORD);
        NodeConfig config = NodeConfig.defaults().withDataDir(dir.resolve("node")).withHttp("127.0.0.1", 0)
                .withProcessors(2).withTls(keystore, PASSWORD);
        Node node = Node.start(config);
        try (RailgunClient client = client(node.uri(), null, SelfSignedKeystore.trusting(keystore, PASSWORD)); node) {
            URI uri = node.uri();
            assertThat(uri.getScheme()).isEqualTo("https");
            assertThat(client.health()).isTrue();
            assertThat(client.createStream("tls", spec())).isEqualTo(StreamPutResult.CREATED);
            assertThat(client.addMetrics("tls", "SELECT COUNT(*) AS n FROM tls GROUP BY card [RANGE UNBOUNDED]"))
                    .containsExactly("n");
            Refusals.firstEvent(client, "tls", event("warm-up"));
            assertThat(client.send("tls", event("c1")).metric("n")).isEqualTo(1L);
            assertThat(client.read("tls", "n", Map.of("card", "c1")).value()).isEqualTo(1L);

            // plain HTTP to the same port gets no HTTP answer, and fails promptly rather than hanging
            HttpClient plain = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(5)).build();
            URI plainUri = URI.create("http://127.0.0.1:" + uri.getPort() + "/health");
            long startNs = System.nanoTime();
            Throwable failure = catchThrowable(() -> plain.send(HttpRequest.newBuilder(plainUri)
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()));
            long tookMs = (System.nanoTime() - startNs) / 1_000_000;
            assertThat(failure).as("plain HTTP to the HTTPS port after %d ms", tookMs).isInstanceOf(IOException.class)
                    .isNotInstanceOf(HttpTimeoutException.class);
            try (RailgunClient plainClient = client(URI.create("http://127.0.0.1:" + uri.getPort()), null, null)) {
                assertThat(plainClient.health()).isFalse();
                refused(() -> plainClient.streams(), 0, "unreachable");
            }
            // a client that does not trust the self-signed certificate cannot talk to it
            try (RailgunClient untrusting = client(uri, null, null)) {
                refused(untrusting::streams, 0, "unreachable");
            }
            assertThat(client.send("tls", event("c1")).metric("n")).isEqualTo(2L);
        }
    }

    // ------------------------------------------------------------------------------------------ (d) Kafka security

    /** Nodes over an external broker whose only client listener is SASL_PLAINTEXT with PLAIN. */
    @Nested
    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    class KafkaSecurityPassthrough {
        EmbeddedBroker broker;

        @BeforeAll
        @Timeout(value = 60, unit = TimeUnit.SECONDS)
        void startSaslBroker(@TempDir Path brokerDir) {
            broker = EmbeddedBroker.start(brokerDir, 0, SaslPlain.brokerOverrides());
        }

        @AfterAll
        void stopBroker() {
            if (broker != null) {
                broker.close();
            }
        }

        @Test
        void aNodeWithTheSaslPropertiesServesEventsEndToEnd(@TempDir Path dir) throws Exception {
            NodeConfig config = NodeConfig.defaults().withDataDir(dir).withHttp("127.0.0.1", 0).withProcessors(2)
                    .withKafka(broker.bootstrapServers())
                    .withKafkaProperties(SaslPlain.client(SaslPlain.USER, SaslPlain.PASSWORD));
            Node node = Node.start(config);
            try (RailgunClient client = client(node.uri(), null, null); node) {
                assertThat(node.bootstrapServers()).isEqualTo(broker.bootstrapServers());
                // admin (topics), control producer and reader (DDL), front-end producer, units, reply reader
                assertThat(client.createStream("sasl", spec())).isEqualTo(StreamPutResult.CREATED);
                assertThat(client.addMetrics("sasl", "SELECT COUNT(*) AS n, SUM(amount) AS total FROM sasl GROUP BY card"
                        + " [RANGE UNBOUNDED]")).containsExactly("n", "total");
                Refusals.firstEvent(client, "sasl", event("warm-up"));
                assertThat(client.send("sasl", event("c1")).metrics())
                        .containsExactly(Map.entry("n", 1L), Map.entry("total", 1.0));
                assertThat(client.sendBatch("sasl", List.of(event("c1"), event("c1"))))
                        .extracting(r -> r.metric("n")).containsExactly(2L, 3L);
                assertThat(client.read("sasl", "n", Map.of("card", "c1")).value()).isEqualTo(3L);
                client.deleteMetric("sasl", "total");
                assertThat(client.send("sasl", event("c1")).metrics()).containsExactly(Map.entry("n", 4L));
                // Kafka-native ingestion: the node's ingestion consumer and producer authenticate too
                assertThat(kafkaNativeRoundTrip(eventWithId("k1", "c1"))).isEqualTo(
                        "{\"eventId\":\"k1\",\"metrics\":{\"n\":5}}");
                assertThat(client.read("sasl", "n", Map.of("card", "c1")).value()).isEqualTo(5L);
            }
        }

        /** Produces one JSON event to the stream's ingest topic as alice and returns the JSON reply. */
        private String kafkaNativeRoundTrip(Map<String, Object> event) throws Exception {
            Map<String, Object> common = new HashMap<>(SaslPlain.client(SaslPlain.USER, SaslPlain.PASSWORD));
            common.put("bootstrap.servers", broker.bootstrapServers());
            Map<String, Object> pp = new HashMap<>(common);
            pp.put("key.serializer", StringSerializer.class.getName());
            pp.put("value.serializer", StringSerializer.class.getName());
            pp.put("max.block.ms", 30_000);
            Map<String, Object> cp = new HashMap<>(common);
            cp.put("key.deserializer", StringDeserializer.class.getName());
            cp.put("value.deserializer", StringDeserializer.class.getName());
            cp.put("group.id", "security-test-replies");
            cp.put("auto.offset.reset", "earliest");
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(pp);
                    KafkaConsumer<String, String> consumer = new KafkaConsumer<>(cp)) {
                consumer.subscribe(List.of(KafkaIngestion.replyTopic("sasl")));
                producer.send(new ProducerRecord<>(KafkaIngestion.inputTopic("sasl"), (String) event.get("card"),
                        RawHttp.JSON.writeValueAsString(event))).get(30, TimeUnit.SECONDS);
                long deadlineNs = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (System.nanoTime() < deadlineNs) {
                    for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                        return r.value();
                    }
                }
                throw new AssertionError("no reply on " + KafkaIngestion.replyTopic("sasl") + " within 30 s");
            }
        }

        @Test
        @Timeout(value = 60, unit = TimeUnit.SECONDS)
        void wrongCredentialsFailTheStartClearlyAndPromptly(@TempDir Path dir) throws Exception {
            NodeConfig config = NodeConfig.defaults().withDataDir(dir).withHttp("127.0.0.1", 0).withProcessors(2)
                    .withKafka(broker.bootstrapServers())
                    .withKafkaProperties(SaslPlain.client(SaslPlain.USER, "not-her-password"));
            ExecutorService starter = Executors.newSingleThreadExecutor(r -> Thread.ofPlatform().daemon()
                    .name("wrong-credentials-start").unstarted(r));
            long startNs = System.nanoTime();
            Future<Node> start = starter.submit(() -> Node.start(config));
            Throwable failure = null;
            try {
                Node started = start.get(30, TimeUnit.SECONDS);
                started.close();
                fail("Node.start succeeded with wrong Kafka credentials");
            } catch (ExecutionException e) {
                failure = e.getCause();
            } catch (TimeoutException e) {
                start.cancel(true);
                fail("Node.start with wrong Kafka credentials neither failed nor returned within 30 s: it hangs");
            } finally {
                starter.shutdownNow();
            }
            long tookMs = (System.nanoTime() - startNs) / 1_000_000;
            System.out.printf("Node.start with wrong SASL credentials failed after %d ms: %s%n", tookMs, failure);
            assertThat(failure).isInstanceOf(RuntimeException.class);
            assertThat(failure.getMessage()).as("the start-up failure should say Kafka refused the credentials")
                    .containsIgnoringCase("kafka").containsIgnoringCase("authentication");
            // the failed start released the data directory
            try (FileChannel channel = FileChannel.open(dir.resolve(".lock"), StandardOpenOption.CREATE,
                    StandardOpenOption.WRITE); FileLock lock = channel.tryLock()) {
                assertThat(lock).as("the data directory is still locked after the failed start").isNotNull();
            }
        }
    }

    // ------------------------------------------------------------------------------------------ helpers

    private static RailgunClient client(URI uri, String token, SSLContext ssl) {
        return RailgunClient.builder().baseUri(uri).token(token).sslContext(ssl).requestTimeout(Duration.ofSeconds(30))
                .build();
    }

    private static RawHttp.Response send(RawHttp raw, String[] call, String... headers) {
        return switch (call[0]) {
            case "GET" -> raw.get(call[1], headers);
            case "DELETE" -> raw.delete(call[1], headers);
            default -> raw.send(call[0], call[1], call[2], headers);
        };
    }

    private static StreamSpec spec() {
        return StreamSpec.builder().field("id", FieldType.STRING).field("ts", FieldType.TIMESTAMP)
                .field("card", FieldType.STRING).field("amount", FieldType.DOUBLE)
                .eventId("id").timestamp("ts").partitioners("card").partitions(2).build();
    }

    private Map<String, Object> event(String card) {
        return eventWithId("e" + ids.incrementAndGet(), card);
    }

    private Map<String, Object> eventWithId(String id, String card) {
        Map<String, Object> e = new LinkedHashMap<>();
        e.put("id", id);
        e.put("ts", clock.addAndGet(1000));
        e.put("card", card);
        e.put("amount", 1.0);
        return e;
    }

    /** Connecting to {@code port} on any non-loopback address of this machine is refused. */
    private static void assertNotListeningOnOtherAddresses(int port) throws SocketException {
        List<InetAddress> others = new ArrayList<>();
        for (NetworkInterface nif : NetworkInterface.networkInterfaces().toList()) {
            if (!nif.isUp() || nif.isLoopback()) {
                continue;
            }
            for (InetAddress a : nif.inetAddresses().toList()) {
                if (a instanceof Inet4Address || a instanceof Inet6Address && !a.isLinkLocalAddress()) {
                    others.add(a);
                }
            }
        }
        System.out.println("checking that port " + port + " is closed on " + others);
        for (InetAddress a : others) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(a, port), 2000);
                fail("the node bound to 127.0.0.1 accepts connections on " + a.getHostAddress() + ":" + port);
            } catch (IOException expected) {
                // refused: the node listens on loopback only
            }
        }
    }
}
