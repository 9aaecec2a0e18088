package io.railgun.node.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.railgun.engine.event.EventRow;
import io.railgun.engine.reply.StreamReply;
import io.railgun.node.NodeConfig;
import io.railgun.node.frontend.ApiException;
import io.railgun.node.frontend.PointRead;
import io.railgun.node.http.TestHttp.Response;
import io.railgun.node.ops.NodeMetrics;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Every endpoint over real HTTP, with a fake front-end behind (no tokens configured). */
@Timeout(60)
class HttpApiEndpointsTest {
    static final String PAYMENTS = """
            {"fields": {"id": "string", "ts": "timestamp", "card": "string", "amount": "double", "mcc": "long"},
             "eventId": "id", "timestamp": "ts", "partitioners": ["card"], "lateness": "2s"}""";

    FakeBackend backend;
    NodeMetrics metrics;
    HttpApi api;
    TestHttp http;

    @BeforeEach
    void start() throws Exception {
        backend = new FakeBackend();
        metrics = new NodeMetrics();
        NodeConfig config = NodeConfig.defaults().withHttp("127.0.0.1", 0).withLimits(64 * 1024, 100, 500);
        api = HttpApi.start(config, backend, metrics);
        http = new TestHttp(api.uri());
        // replies echo the id and count, and "sum" the amount
        backend.onSend = row -> CompletableFuture.completedFuture(reply(row, false, false));
    }

    @AfterEach
    void stop() {
        api.close();
    }

    static StreamReply reply(EventRow row, boolean duplicate, boolean late) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("n", 1L);
        m.put("total", row.isNull(3) ? null : row.getDouble(3));
        return new StreamReply(row.getString(0), duplicate, late, m);
    }

    private void createPayments() {
        assertThat(http.call("PUT", "/v1/streams/payments", PAYMENTS).status()).isEqualTo(201);
    }

    @Test
    void streamsLifecycle() {
        Response created = http.call("PUT", "/v1/streams/payments", PAYMENTS, "Content-Type", "application/json");
        assertThat(created.status()).isEqualTo(201);
        assertThat(created.header("Content-Type")).isEqualTo("application/json; charset=utf-8");
        JsonNode body = created.json();
        assertThat(body.path("name").asText()).isEqualTo("payments");
        assertThat(body.path("lateness").asText()).isEqualTo("2s");
        assertThat(body.path("partitions").asInt()).isEqualTo(1);
        assertThat(body.path("lateEvents").asText()).isEqualTo("drop");
        assertThat(names(body.path("fields").fieldNames())).containsExactly("id", "ts", "card", "amount", "mcc");

        assertThat(http.call("PUT", "/v1/streams/payments", PAYMENTS).status()).isEqualTo(200);
        // what GET returns can be PUT back
        Response got = http.get("/v1/streams/payments");
        assertThat(got.status()).isEqualTo(200);
        assertThat(got.json()).isEqualTo(body);
        assertThat(http.call("PUT", "/v1/streams/payments", got.body()).status()).isEqualTo(200);

        Response list = http.get("/v1/streams");
        assertThat(list.json().path("streams")).hasSize(1);
        assertThat(list.json().path("streams").get(0)).isEqualTo(body);

        Response deleted = http.call("DELETE", "/v1/streams/payments", null);
        assertThat(deleted.status()).isEqualTo(204);
        assertThat(deleted.body()).isEmpty();
        Response again = http.call("DELETE", "/v1/streams/payments", null);
        assertThat(again.status()).isEqualTo(404);
        assertThat(again.errorCode()).isEqualTo("unknown_stream");
        assertThat(http.get("/v1/streams/payments").status()).isEqualTo(404);
    }

    @Test
    void metricsLifecycle() {
        createPayments();
        Response added = http.post("/v1/streams/payments/metrics", "{\"query\": \"SELECT ...\", \"backfill\": true}");
        assertThat(added.status()).isEqualTo(201);
        assertThat(added.body()).isEqualTo("{\"metrics\":[\"n\",\"total\"]}");
        assertThat(backend.calls).contains("addStatement payments SELECT ... true");

        Response bad = http.post("/v1/streams/payments/metrics", "{\"query\": \"SELECT BAD\"}");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.errorCode()).isEqualTo("query_syntax");
        assertThat(bad.errorMessage()).contains("at 1:8");

        Response list = http.get("/v1/streams/payments/metrics");
        assertThat(list.status()).isEqualTo(200);
        assertThat(list.json().path("metrics").get(0).path("name").asText()).isEqualTo("n");
        assertThat(list.json().path("metrics").get(0).path("groupBy").get(0).asText()).isEqualTo("card");

        Response unknown = http.call("DELETE", "/v1/streams/payments/metrics/totl", null);
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.errorCode()).isEqualTo("unknown_metric");
        assertThat(unknown.errorMessage()).contains("total");
        assertThat(http.get("/v1/streams/payments/metrics").json().path("metrics")).hasSize(2);

        // names resolve as for point reads: exact, else ignoring case
        assertThat(http.call("DELETE", "/v1/streams/payments/metrics/N", null).status()).isEqualTo(204);
        assertThat(backend.calls).contains("removeMetric payments n");
        assertThat(http.get("/v1/streams/payments/metrics").json().path("metrics")).hasSize(1);
    }

    @Test
    void sendsOneEventAndEchoesTheReply() {
        createPayments();
        Response r = http.post("/v1/streams/payments/events", "{\"id\": \"e1\", \"ts\": 1000, \"card\": \"c\", \"amount\": 12}");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("{\"eventId\":\"e1\",\"metrics\":{\"n\":1,\"total\":12.0}}");
        EventRow sent = new EventRow().wrap(backend.sentRows.get(0), 0);
        assertThat(sent.getLong(1)).isEqualTo(1000);
        assertThat(sent.length()).isEqualTo(backend.sentRows.get(0).length);

        backend.onSend = row -> CompletableFuture.completedFuture(reply(row, true, true));
        Response flags = http.post("/v1/streams/payments/events", "{\"id\": \"e1\", \"ts\": 1000}");
        assertThat(flags.body()).isEqualTo("{\"eventId\":\"e1\",\"metrics\":{\"n\":1,\"total\":null},\"duplicate\":true,"
                + "\"dropped\":\"late\"}");
    }

    @Test
    void invalidEventsAreNeverSent() {
        createPayments();
        Response r = http.post("/v1/streams/payments/events", "{\"id\": \"e1\", \"ts\": 1000, \"amount\": \"x\"}");
        assertThat(r.status()).isEqualTo(400);
        assertThat(r.errorCode()).isEqualTo("invalid_value");
        assertThat(r.errorMessage()).startsWith("amount: ");
        assertThat(http.post("/v1/streams/payments/events", "{\"ts\": 1}").errorCode()).isEqualTo("missing_event_id");
        assertThat(http.post("/v1/streams/payments/events", "{\"id\": \"a\"}").errorCode()).isEqualTo("missing_timestamp");
        assertThat(http.post("/v1/streams/payments/events", "{\"id\": \"a\", \"ts\": 1, \"x\": 1}").errorCode())
                .isEqualTo("unknown_field");
        Response unknown = http.post("/v1/streams/nope/events", "{\"id\": \"a\"}");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.errorCode()).isEqualTo("unknown_stream");
        assertThat(backend.sentRows).isEmpty();
    }

    @Test
    void batchesAreAllOrNothingAndRepliesKeepTheOrder() {
        createPayments();
        Response bad = http.post("/v1/streams/payments/events:batch",
                "[{\"id\": \"a\", \"ts\": 1}, {\"id\": \"b\", \"ts\": 2, \"mcc\": 1.5}]");
        assertThat(bad.status()).isEqualTo(400);
        assertThat(bad.errorMessage()).startsWith("events[1].mcc: 1.5 is not a whole number");
        assertThat(backend.sentRows).isEmpty();

        Response ok = http.post("/v1/streams/payments/events:batch",
                "[{\"id\": \"b\", \"ts\": 2, \"amount\": 1.5}, {\"id\": \"a\", \"ts\": \"1970-01-01T00:00:00.001Z\"}]");
        assertThat(ok.status()).as(ok.body()).isEqualTo(200);
        assertThat(ok.body()).isEqualTo("[{\"eventId\":\"b\",\"metrics\":{\"n\":1,\"total\":1.5}},"
                + "{\"eventId\":\"a\",\"metrics\":{\"n\":1,\"total\":null}}]");
        assertThat(backend.calls).contains("sendBatch payments 2");

        Response empty = http.post("/v1/streams/payments/events:batch", "[]");
        assertThat(empty.status()).isEqualTo(200);
        assertThat(empty.body()).isEqualTo("[]");
        assertThat(backend.calls).doesNotContain("sendBatch payments 0");
    }

    @Test
    void longEventIdsAreEchoedAsNumbers() {
        assertThat(http.call("PUT", "/v1/streams/counts", "{\"fields\": {\"n\": \"long\", \"card\": \"string\", "
                + "\"amount\": \"double\", \"x\": \"double\"}, \"eventId\": \"n\", \"partitioners\": [\"card\"]}").status())
                .isEqualTo(201);
        backend.onSend = row -> CompletableFuture.completedFuture(
                new StreamReply(Long.toString(row.getLong(0)), false, false, Map.of()));
        assertThat(http.post("/v1/streams/counts/events", "{\"n\": 42}").body()).isEqualTo("{\"eventId\":42,\"metrics\":{}}");
    }

    @Test
    void pointReads() {
        createPayments();
        http.post("/v1/streams/payments/metrics", "{\"query\": \"SELECT ...\"}");
        List<byte[]> keys = new ArrayList<>();
        backend.onRead = key -> {
            keys.add(key);
            return CompletableFuture.completedFuture(new PointRead("total", 6.0, 1_000_000_011_000L));
        };
        Response r = http.get("/v1/streams/payments/metrics/total?card=X");
        assertThat(r.status()).as(r.body()).isEqualTo(200);
        assertThat(r.body()).isEqualTo("{\"metric\":\"total\",\"key\":{\"card\":\"X\"},\"value\":6.0,"
                + "\"streamTime\":1000000011000}");
        assertThat(new EventRow().wrap(keys.get(0), 0).getString(2)).isEqualTo("X");

        Response missing = http.get("/v1/streams/payments/metrics/total");
        assertThat(missing.status()).isEqualTo(400);
        assertThat(missing.errorCode()).isEqualTo("missing_key");
        assertThat(missing.errorMessage()).contains("?card=...");
        assertThat(http.get("/v1/streams/payments/metrics/total?card=X&mcc=1").errorCode()).isEqualTo("unknown_parameter");
        Response unknown = http.get("/v1/streams/payments/metrics/totl?card=X");
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.errorCode()).isEqualTo("unknown_metric");
        assertThat(unknown.errorMessage()).contains("did you mean total?");
    }

    @Test
    void slowRepliesAre503WithRetryAfter() {
        createPayments();
        backend.onSend = row -> new CompletableFuture<>();
        Response r = http.post("/v1/streams/payments/events", "{\"id\": \"a\", \"ts\": 1}");
        assertThat(r.status()).isEqualTo(503);
        assertThat(r.errorCode()).isEqualTo("timeout");
        assertThat(r.header("Retry-After")).isEqualTo("1");
        Response batch = http.post("/v1/streams/payments/events:batch", "[{\"id\": \"a\", \"ts\": 1}]");
        assertThat(batch.status()).isEqualTo(503);
        backend.onRead = key -> new CompletableFuture<>();
        http.post("/v1/streams/payments/metrics", "{\"query\": \"SELECT ...\"}");
        assertThat(http.get("/v1/streams/payments/metrics/n?card=c").status()).isEqualTo(503);
    }

    @Test
    void refusalsFromTheFrontEndKeepTheirStatusCodeAndRetryAfter() {
        createPayments();
        backend.onSend = row -> CompletableFuture.failedFuture(ApiException.unavailable("rebalancing", "tasks moving", 7));
        Response r = http.post("/v1/streams/payments/events", "{\"id\": \"a\", \"ts\": 1}");
        assertThat(r.status()).isEqualTo(503);
        assertThat(r.errorCode()).isEqualTo("rebalancing");
        assertThat(r.errorMessage()).isEqualTo("tasks moving");
        assertThat(r.header("Retry-After")).isEqualTo("7");
        backend.onRead = key -> CompletableFuture.failedFuture(ApiException.conflict("backfilling", "wait for it"));
        http.post("/v1/streams/payments/metrics", "{\"query\": \"SELECT ...\"}");
        Response read = http.get("/v1/streams/payments/metrics/n?card=c");
        assertThat(read.status()).isEqualTo(409);
        assertThat(read.header("Retry-After")).isNull();
    }

    @Test
    void faultsAre500AndServingGoesOn() {
        createPayments();
        backend.onSend = row -> CompletableFuture.failedFuture(new IllegalStateException("boom"));
        Response r = http.post("/v1/streams/payments/events", "{\"id\": \"a\", \"ts\": 1}");
        assertThat(r.status()).isEqualTo(500);
        assertThat(r.errorCode()).isEqualTo("internal");
        backend.failNext = new NullPointerException("bug");
        assertThat(http.get("/v1/streams").status()).isEqualTo(500);
        assertThat(http.get("/v1/streams").status()).isEqualTo(200);
    }

    @Test
    void concurrentEventsGetTheirOwnReplies() throws Exception {
        createPayments();
        // replies are computed later, from the very buffer the HTTP layer passed: a buffer reused too early shows
        backend.onSend = row -> CompletableFuture.supplyAsync(() -> reply(row, false, false),
                CompletableFuture.delayedExecutor(2, TimeUnit.MILLISECONDS));
        try (ExecutorService clients = Executors.newFixedThreadPool(16)) {
            List<Future<Response>> futures = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                String id = "e" + i;
                futures.add(clients.submit(() -> http.post("/v1/streams/payments/events",
                        "{\"id\": \"" + id + "\", \"ts\": 1, \"amount\": " + id.length() + "}")));
            }
            for (int i = 0; i < futures.size(); i++) {
                Response r = futures.get(i).get();
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.json().path("eventId").asText()).isEqualTo("e" + i);
            }
        }
        String text = http.get("/metrics").body();
        assertThat(text).contains("railgun_events_total{stream=\"payments\"} 400.0")
                .contains("railgun_replies_total{stream=\"payments\"} 400.0")
                .contains("railgun_http_requests_total{route=\"POST /v1/streams/{stream}/events\",status=\"200\"} 400.0");
    }

    @Test
    void closeLetsRequestsInFlightFinishThenStopsAccepting() throws Exception {
        createPayments();
        backend.onSend = row -> CompletableFuture.supplyAsync(() -> reply(row, false, false),
                CompletableFuture.delayedExecutor(300, TimeUnit.MILLISECONDS));
        CompletableFuture<Response> inFlight = CompletableFuture.supplyAsync(
                () -> http.post("/v1/streams/payments/events", "{\"id\": \"slow\", \"ts\": 1}"));
        Thread.sleep(100);
        api.close();
        assertThat(inFlight.get(10, TimeUnit.SECONDS).status()).isEqualTo(200);
        api.close(); // idempotent
        HttpClient fresh = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try {
            fresh.send(HttpRequest.newBuilder(api.uri().resolve("/health")).build(), HttpResponse.BodyHandlers.ofString());
            throw new AssertionError("the server still accepts connections");
        } catch (ConnectException expected) {
            // refused: nothing listens any more
        }
    }

    @Test
    void gaugesByCallbackShowInMetrics() {
        NodeMetrics.Registration lag = metrics.gauge("railgun_consumer_lag", "Records behind", List.of("topic", "partition"),
                () -> Map.of(List.of("payments.card", "0"), 12L));
        metrics.gauge("railgun_state_bytes", "State size", () -> 4096);
        metrics.counter("railgun_rebalances", "Rebalances", List.of(), () -> Map.of(List.of(), 3));
        metrics.gauge("railgun_broken", "Throws", List.of(), () -> {
            throw new IllegalStateException("broken gauge");
        });
        String text = http.get("/metrics").body();
        assertThat(text).contains("railgun_consumer_lag{partition=\"0\",topic=\"payments.card\"} 12.0")
                .contains("railgun_state_bytes 4096.0")
                .contains("railgun_rebalances_total 3.0");
        lag.close();
        assertThat(http.get("/metrics").body()).doesNotContain("railgun_consumer_lag{");
    }

    private static <T> List<T> names(java.util.Iterator<T> it) {
        List<T> list = new ArrayList<>();
        it.forEachRemaining(list::add);
        return list;
    }
}
