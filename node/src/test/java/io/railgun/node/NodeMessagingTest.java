package io.railgun.node;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.reply.StreamReply;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.node.frontend.ApiException;
import io.railgun.node.frontend.FrontEnd;
import io.railgun.node.frontend.PointRead;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The messaging layer end to end, below HTTP: a node on an embedded broker, its front-end called directly. */
class NodeMessagingTest {

    static StreamDefinition payments(int partitions) {
        Map<String, FieldType> fields = new LinkedHashMap<>();
        fields.put("id", FieldType.STRING);
        fields.put("ts", FieldType.TIMESTAMP);
        fields.put("card", FieldType.STRING);
        fields.put("merchant", FieldType.STRING);
        fields.put("amount", FieldType.DOUBLE);
        return new StreamDefinition("payments", Schema.of(fields), "id", "ts", List.of("card", "merchant"), partitions, 2000,
                LateEventPolicy.DROP);
    }

    static byte[] event(StreamDefinition d, String id, long ts, String card, String merchant, Double amount) {
        EventRowWriter w = new EventRowWriter().begin(d.schema());
        w.setString(0, id).setLong(1, ts).setString(2, card).setString(3, merchant);
        if (amount == null) {
            w.setNull(4);
        } else {
            w.setDouble(4, amount);
        }
        w.finish();
        return Arrays.copyOf(w.buffer(), w.length());
    }

    @Test
    void streamsMetricsEventsAndReadsGoThroughKafka() throws Exception {
        Path dir = Files.createTempDirectory("railgun-node");
        NodeConfig config = NodeConfig.defaults().withDataDir(dir).withHttp("127.0.0.1", 0).withProcessors(2);
        long t0 = 1_000_000_000_000L;
        StreamDefinition d = payments(3);
        try (Node node = Node.start(config)) {
            FrontEnd fe = node.frontEnd();
            assertThat(fe.putStream(d)).isTrue();
            assertThat(fe.putStream(d)).isFalse();
            assertThat(fe.addStatement("payments", "SELECT COUNT(*) AS n, SUM(amount) AS total FROM payments GROUP BY card"
                    + " [RANGE 10 SECONDS]", false)).containsExactly("n", "total");
            assertThat(fe.addStatement("payments", "SELECT COUNT(*) AS m FROM payments GROUP BY merchant [RANGE 1 HOUR]", false))
                    .containsExactly("m");
            long start = System.nanoTime();
            StreamReply r1 = fe.send(d, event(d, "a", t0, "X", "M1", 2.5), event(d, "a", t0, "X", "M1", 2.5).length).get();
            System.out.println("first reply after " + (System.nanoTime() - start) / 1_000_000 + " ms: " + r1);
            assertThat(r1.metrics()).containsExactly(Map.entry("n", 1L), Map.entry("total", 2.5), Map.entry("m", 1L));
            byte[] b = event(d, "b", t0 + 10_000, "X", "M1", 1.0);
            StreamReply r2 = fe.send(d, b, b.length).get();
            assertThat(r2.metrics()).containsExactly(Map.entry("n", 1L), Map.entry("total", 1.0), Map.entry("m", 2L));
            StreamReply dup = fe.send(d, b, b.length).get();
            assertThat(dup.duplicate()).isTrue();
            start = System.nanoTime();
            for (int i = 0; i < 200; i++) {
                byte[] e = event(d, "e" + i, t0 + 10_000 + i, "C" + (i % 7), "M" + (i % 3), (double) i);
                fe.send(d, e, e.length).get();
            }
            System.out.println("200 sequential events: " + (System.nanoTime() - start) / 200_000 + " us each");
            EventRowWriter key = new EventRowWriter().begin(d.schema());
            key.setNull(0).setNull(1).setString(2, "X").setNull(3).setNull(4);
            key.finish();
            PointRead read = fe.read(d, "total", Arrays.copyOf(key.buffer(), key.length())).get();
            assertThat(read.value()).isEqualTo(1.0);
            assertThatThrownBy(() -> fe.addStatement("payments", "SELECT SUM(nope) FROM payments GROUP BY card [RANGE 1 SECOND]",
                    false)).isInstanceOf(ApiException.class).hasMessageContaining("nope");
            kafkaNativeIngestion(node, t0);
            fe.removeMetric("payments", "m");
            byte[] c = event(d, "c", t0 + 11_000, "X", "M1", 1.0);
            assertThat(fe.send(d, c, c.length).get().metrics()).containsOnlyKeys("n", "total");
        }
        // restart: catalog and task state come back (2 events of card X in (t0 + 1.5 s, t0 + 11.5 s] and z)
        try (Node node = Node.start(config)) {
            FrontEnd fe = node.frontEnd();
            byte[] e = event(d, "z", t0 + 11_500, "X", "M1", 4.0);
            StreamReply r = fe.send(d, e, e.length).get();
            assertThat(r.metrics()).containsExactly(Map.entry("n", 4L), Map.entry("total", 11.0));
            fe.deleteStream("payments");
        }
    }

    /**
     * Events sent the moment a stream exists are the first writes to its new partitions, and may reach
     * the broker before it has made itself their leader. An idempotent producer with several
     * requests in flight could then have a later request accepted before an earlier one's retry,
     * which the broker refuses for ever after (out-of-order sequence, KAFKA-15591, fixed only in
     * brokers from 4.5): the earlier events were never answered. Each stream here gets a batch at
     * once, with no metric (no DDL marker warmed its partitions), and every event must be answered.
     */
    @Test
    void eventsSentTheMomentAStreamExistsAreAllAnswered() throws Exception {
        Path dir = Files.createTempDirectory("railgun-node");
        NodeConfig config = NodeConfig.defaults().withDataDir(dir).withHttp("127.0.0.1", 0).withProcessors(2);
        long t0 = 1_000_000_000_000L;
        try (Node node = Node.start(config)) {
            FrontEnd fe = node.frontEnd();
            for (int s = 0; s < 8; s++) {
                StreamDefinition p = payments(4);
                StreamDefinition d = new StreamDefinition("fresh_" + s, p.schema(), "id", "ts", p.partitioners(), 4, 2000,
                        LateEventPolicy.DROP);
                assertThat(fe.putStream(d)).isTrue();
                List<byte[]> rows = new ArrayList<>();
                for (int i = 0; i < 400; i++) {
                    rows.add(event(d, "e" + i, t0 + i, "C" + (i % 13), "M" + (i % 11), 1.0));
                }
                long start = System.nanoTime();
                List<StreamReply> replies = fe.sendBatch(d, rows).get();
                assertThat(replies).hasSize(rows.size()).allSatisfy(r -> assertThat(r.duplicate()).isFalse());
                System.out.printf("stream %s: %d events sent at once answered in %d ms%n", d.name(), rows.size(),
                        (System.nanoTime() - start) / 1_000_000);
                fe.deleteStream(d.name());
            }
        }
    }

    /** Produces JSON events to the stream's ingest topic and reads the JSON replies, keyed and headed like the input. */
    private static void kafkaNativeIngestion(Node node, long t0) {
        Map<String, Object> common = Map.of("bootstrap.servers", node.bootstrapServers());
        Map<String, Object> pp = new java.util.HashMap<>(common);
        pp.put("key.serializer", org.apache.kafka.common.serialization.StringSerializer.class.getName());
        pp.put("value.serializer", org.apache.kafka.common.serialization.StringSerializer.class.getName());
        Map<String, Object> cp = new java.util.HashMap<>(common);
        cp.put("key.deserializer", org.apache.kafka.common.serialization.StringDeserializer.class.getName());
        cp.put("value.deserializer", org.apache.kafka.common.serialization.StringDeserializer.class.getName());
        cp.put("group.id", "test-replies");
        cp.put("auto.offset.reset", "earliest");
        try (var producer = new org.apache.kafka.clients.producer.KafkaProducer<String, String>(pp);
                var consumer = new org.apache.kafka.clients.consumer.KafkaConsumer<String, String>(cp)) {
            consumer.subscribe(List.of(io.railgun.node.http.KafkaIngestion.replyTopic("payments")));
            // an event time outside the accepted range: skipped, never counted, its id not remembered (k1 follows)
            producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(
                    io.railgun.node.http.KafkaIngestion.inputTopic("payments"), "X",
                    "{\"id\": \"k1\", \"ts\": " + Long.MIN_VALUE + ", \"card\": \"X\", \"merchant\": \"M1\", \"amount\": 5}"));
            var record = new org.apache.kafka.clients.producer.ProducerRecord<String, String>(
                    io.railgun.node.http.KafkaIngestion.inputTopic("payments"), "X",
                    "{\"id\": \"k1\", \"ts\": " + (t0 + 10_500) + ", \"card\": \"X\", \"merchant\": \"M1\", \"amount\": 5}");
            record.headers().add("correlation-id", "42".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            producer.send(record);
            producer.send(new org.apache.kafka.clients.producer.ProducerRecord<>(
                    io.railgun.node.http.KafkaIngestion.inputTopic("payments"), "Y", "{\"id\": \"k2\", \"card\": 3}"));
            producer.flush();
            List<org.apache.kafka.clients.consumer.ConsumerRecord<String, String>> got = new java.util.ArrayList<>();
            long deadline = System.currentTimeMillis() + 30_000;
            while (got.size() < 3 && System.currentTimeMillis() < deadline) {
                consumer.poll(java.time.Duration.ofMillis(200)).forEach(got::add);
            }
            assertThat(got).hasSize(3);
            // one partition per key keeps X's order: the refusal, then k1; Y's reply may come before or after
            List<org.apache.kafka.clients.consumer.ConsumerRecord<String, String>> x = got.stream()
                    .filter(r -> r.key().equals("X")).toList();
            assertThat(x).hasSize(2);
            assertThat(x.get(0).value()).contains("\"timestamp_out_of_range\"").contains("9999-12-31T23:59:59.999Z");
            got.remove(x.get(0));
            got.sort(java.util.Comparator.comparing(r -> r.key()));
            assertThat(got.get(0).key()).isEqualTo("X");
            // merchant M1 in the last hour: a, b, the 67 of e0..e199 with i % 3 == 1, and k1
            assertThat(got.get(0).value()).isEqualTo("{\"eventId\":\"k1\",\"metrics\":{\"n\":2,\"total\":6.0,\"m\":70}}");
            assertThat(new String(got.get(0).headers().lastHeader("correlation-id").value(),
                    java.nio.charset.StandardCharsets.UTF_8)).isEqualTo("42");
            assertThat(got.get(1).value()).contains("\"error\"").contains("card");
            // the skip is counted in the node's metrics
            var metrics = java.net.http.HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                    node.uri().resolve("/metrics")).build(), java.net.http.HttpResponse.BodyHandlers.ofString()).body();
            assertThat(metrics).contains("railgun_ingest_skipped_total{reason=\"timestamp_out_of_range\"} 1.0");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
