package io.railgun.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the client sends: methods, paths, encodings, headers and bodies of SPEC §3. */
class RailgunClientRequestTest {
    private static final String REPLY = "{\"eventId\": \"e1\", \"metrics\": {}}";

    private StubNode node;
    private RailgunClient client;

    @BeforeEach
    void start() throws IOException {
        node = new StubNode();
        client = RailgunClient.builder().baseUri(node.baseUri()).token("s3cret").build();
    }

    @AfterEach
    void stop() {
        client.close();
        node.close();
    }

    static StreamSpec payments() {
        return StreamSpec.builder()
                .field("id", FieldType.STRING).field("ts", FieldType.TIMESTAMP).field("card", FieldType.STRING)
                .field("merchant", FieldType.STRING).field("amount", FieldType.DOUBLE).field("country", FieldType.STRING)
                .field("online", FieldType.BOOLEAN).field("mcc", FieldType.LONG)
                .eventId("id").timestamp("ts").partitioners("card", "merchant").partitions(8)
                .lateness("5s").lateEvents(LateEvents.DROP).build();
    }

    @Test
    void createStreamPutsTheSpecAsTheSpecWritesIt() {
        node.reply(201, "{}");

        assertThat(client.createStream("payments", payments())).isEqualTo(StreamPutResult.CREATED);

        StubNode.Recorded request = node.lastRequest();
        assertThat(request.method()).isEqualTo("PUT");
        assertThat(request.rawPath()).isEqualTo("/v1/streams/payments");
        assertThat(request.header("Content-Type")).isEqualTo("application/json");
        assertThat(request.header("Accept")).isEqualTo("application/json");
        // byte for byte: the fields object keeps the declaration order, unset attributes are left out
        assertThat(request.bodyText()).isEqualTo("{\"fields\":{\"id\":\"string\",\"ts\":\"timestamp\",\"card\":\"string\","
                + "\"merchant\":\"string\",\"amount\":\"double\",\"country\":\"string\",\"online\":\"boolean\","
                + "\"mcc\":\"long\"},\"eventId\":\"id\",\"timestamp\":\"ts\",\"partitioners\":[\"card\",\"merchant\"],"
                + "\"partitions\":8,\"lateness\":\"5s\",\"lateEvents\":\"drop\"}");
    }

    @Test
    void createStreamLeavesOutUnsetOptionsAndSendsRetention() {
        node.reply(200, "");
        StreamSpec spec = StreamSpec.builder().field("id", FieldType.LONG).field("k", FieldType.STRING).eventId("id")
                .partitioners("k").lateEvents(LateEvents.REWRITE).retention("30d").build();

        assertThat(client.createStream("s", spec)).isEqualTo(StreamPutResult.UPDATED);

        assertThat(node.lastRequest().bodyText()).isEqualTo("{\"fields\":{\"id\":\"long\",\"k\":\"string\"},"
                + "\"eventId\":\"id\",\"partitioners\":[\"k\"],\"lateEvents\":\"rewrite\",\"retention\":\"30d\"}");
    }

    @Test
    void createStreamSendsTheInputRetentionWhenSet() {
        node.reply(201, "");
        StreamSpec spec = StreamSpec.builder().field("id", FieldType.LONG).field("k", FieldType.STRING).eventId("id")
                .partitioners("k").inputRetention("14d").build();

        client.createStream("s", spec);

        assertThat(node.lastRequest().bodyText()).isEqualTo("{\"fields\":{\"id\":\"long\",\"k\":\"string\"},"
                + "\"eventId\":\"id\",\"partitioners\":[\"k\"],\"inputRetention\":\"14d\"}");
    }

    @Test
    void everyRequestCarriesTheBearerToken() {
        node.reply(200, "{\"streams\": []}").reply(200, "").reply(200, REPLY);

        client.streams();
        client.health();
        client.send("s", Map.of("id", "e1"));

        assertThat(node.requests()).hasSize(3)
                .allSatisfy(request -> assertThat(request.header("Authorization")).isEqualTo("Bearer s3cret"));
    }

    @Test
    void noTokenNoAuthorizationHeader() {
        node.reply(200, "");
        try (RailgunClient anonymous = RailgunClient.builder().baseUri(node.baseUri()).build()) {
            assertThat(anonymous.health()).isTrue();
        }
        assertThat(node.lastRequest().header("Authorization")).isNull();
        assertThat(node.lastRequest().rawPath()).isEqualTo("/health");
        assertThat(node.lastRequest().method()).isEqualTo("GET");
    }

    @Test
    void streamEndpointsUseTheirMethodsAndPaths() {
        node.reply(200, "{\"streams\": []}").reply(200, "{\"fields\": {\"id\": \"string\"}, \"eventId\": \"id\","
                + " \"partitioners\": [\"id\"]}").reply(204, "");

        client.streams();
        client.stream("payments");
        client.deleteStream("payments");

        assertThat(node.requests()).extracting(r -> r.method() + " " + r.rawPath()).containsExactly(
                "GET /v1/streams", "GET /v1/streams/payments", "DELETE /v1/streams/payments");
    }

    @Test
    void namesInPathsArePercentEncodedAsOneSegment() {
        node.reply(204, "").reply(204, "");

        client.deleteStream("pay ments/ü?x");
        client.deleteMetric("s", "sum:5m#a+b");

        assertThat(node.requests()).extracting(StubNode.Recorded::rawPath).containsExactly(
                "/v1/streams/pay%20ments%2F%C3%BC%3Fx", "/v1/streams/s/metrics/sum%3A5m%23a%2Bb");
    }

    @Test
    void aBaseUriWithAPathKeepsIt() {
        node.reply(200, "{\"streams\": []}");
        try (RailgunClient proxied = RailgunClient.builder().baseUri(node.baseUri() + "/railgun/").build()) {
            proxied.streams();
        }
        assertThat(node.lastRequest().rawPath()).isEqualTo("/railgun/v1/streams");
    }

    @Test
    void addMetricsPostsTheQueryWithOrWithoutBackfill() throws IOException {
        node.reply(201, "{\"metrics\": [\"n\"]}").reply(201, "{\"metrics\": [\"n\"]}").reply(201, "{\"metrics\": [\"n\"]}");
        String query = "SELECT COUNT(*) AS n FROM s GROUP BY card [RANGE 5 MINUTES]";

        client.addMetrics("s", query);
        client.addMetrics("s", query, true);
        client.addMetrics("s", query, false);

        assertThat(node.requests()).extracting(r -> r.method() + " " + r.rawPath())
                .containsOnly("POST /v1/streams/s/metrics");
        assertThat(node.requests()).extracting(StubNode.Recorded::bodyText).containsExactly(
                "{\"query\":\"" + query + "\"}",
                "{\"query\":\"" + query + "\",\"backfill\":true}",
                "{\"query\":\"" + query + "\",\"backfill\":false}");
        assertThat(node.lastRequest().header("Content-Type")).isEqualTo("application/json");
    }

    @Test
    void metricEndpointsUseTheirMethodsAndPaths() {
        node.reply(200, "{\"metrics\": []}").reply(200, "");

        client.metrics("s");
        client.deleteMetric("s", "n");

        assertThat(node.requests()).extracting(r -> r.method() + " " + r.rawPath()).containsExactly(
                "GET /v1/streams/s/metrics", "DELETE /v1/streams/s/metrics/n");
    }

    @Test
    void sendPostsTheEventAsAnObjectInTheMapsOrder() {
        node.reply(200, REPLY);
        Map<String, Object> event = new LinkedHashMap<>();
        event.put("id", "e1");
        event.put("ts", 1_700_000_000_000L);
        event.put("card", "c1");
        event.put("amount", 12.0);
        event.put("online", true);
        event.put("country", null);
        event.put("mcc", 5411);

        client.send("payments", event);

        StubNode.Recorded request = node.lastRequest();
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.rawPath()).isEqualTo("/v1/streams/payments/events");
        assertThat(request.header("Content-Type")).isEqualTo("application/json");
        assertThat(request.bodyText()).isEqualTo("{\"id\":\"e1\",\"ts\":1700000000000,\"card\":\"c1\",\"amount\":12.0,"
                + "\"online\":true,\"country\":null,\"mcc\":5411}");
    }

    @Test
    void anInstantIsSentAsAnIso8601String() {
        node.reply(200, REPLY);

        client.send("s", Map.of("ts", Instant.ofEpochMilli(1_700_000_000_123L)));

        assertThat(node.lastRequest().bodyText()).isEqualTo("{\"ts\":\"2023-11-14T22:13:20.123Z\"}");
    }

    @Test
    void sendBatchPostsAJsonArrayToEventsBatch() throws IOException {
        node.reply(200, "[" + REPLY + "," + REPLY + "]");
        List<Map<String, Object>> events = new ArrayList<>();
        events.add(Map.of("id", "a"));
        events.add(Map.of("id", "b"));

        client.sendBatch("payments", events);

        StubNode.Recorded request = node.lastRequest();
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.rawPath()).isEqualTo("/v1/streams/payments/events:batch");
        JsonNode body = JsonCodec.MAPPER.readTree(request.body());
        assertThat(body.isArray()).isTrue();
        assertThat(body).extracting(e -> e.get("id").asText()).containsExactly("a", "b");
    }

    @Test
    void sendJsonAsyncSendsTheBytesAsTheyAre() {
        node.reply(200, REPLY);
        byte[] json = "{\"id\": \"e1\",  \"amount\": 1.50}".getBytes(StandardCharsets.UTF_8);

        client.sendJsonAsync("payments", json).join();

        assertThat(node.lastRequest().body()).isEqualTo(json);
        assertThat(node.lastRequest().rawPath()).isEqualTo("/v1/streams/payments/events");
        assertThat(node.lastRequest().header("Authorization")).isEqualTo("Bearer s3cret");
    }

    @Test
    void pointReadKeysArePercentEncodedQueryParametersInTheKeysOrder() {
        node.reply(200, "{\"metric\": \"n\", \"key\": {}, \"value\": 1, \"streamTime\": 1}");
        Map<String, Object> key = new LinkedHashMap<>();
        key.put("card", "c 1&x=y+z");
        key.put("country", "Ürümqi/é");
        key.put("mcc", 5411L);
        key.put("online", true);

        client.read("pay ments", "sum 5m", key);

        StubNode.Recorded request = node.lastRequest();
        assertThat(request.method()).isEqualTo("GET");
        assertThat(request.rawPath()).isEqualTo("/v1/streams/pay%20ments/metrics/sum%205m");
        assertThat(request.rawQuery()).isEqualTo(
                "card=c%201%26x%3Dy%2Bz&country=%C3%9Cr%C3%BCmqi%2F%C3%A9&mcc=5411&online=true");
    }

    @Test
    void aNullPointReadKeyIsRefusedBeforeSending() {
        Map<String, Object> key = new LinkedHashMap<>();
        key.put("card", null);

        assertThatThrownBy(() -> client.read("s", "n", key)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("card");
        assertThat(node.requests()).isEmpty();
    }

    @Test
    void emptyNamesAreRefusedBeforeSending() {
        assertThatThrownBy(() -> client.stream("")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("stream name");
        assertThat(node.requests()).isEmpty();
    }
}
