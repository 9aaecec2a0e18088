package io.railgun.node.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.node.NodeConfig;
import io.railgun.node.ops.NodeMetrics;
import io.railgun.node.http.TestHttp.Response;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Refusals that never reach the front-end, over real HTTP: the backend behind fails any call (which
 * would be a 500), so each passing check shows the request was refused before it.
 */
@Timeout(60)
class HttpApiRefusalTest {
    static final String INGEST = "ingest-secret";
    static final String ADMIN = "admin-secret";
    static final String[] AS_ADMIN = {"Authorization", "Bearer " + ADMIN};
    static final String[] AS_INGEST = {"Authorization", "Bearer " + INGEST};
    static final String STREAM_BODY = "{\"fields\": {\"id\": \"string\", \"card\": \"string\"}, \"eventId\": \"id\", "
            + "\"partitioners\": [\"card\"]}";

    static HttpApi api;
    static TestHttp http;

    @BeforeAll
    static void start() throws Exception {
        NodeConfig config = NodeConfig.defaults().withHttp("127.0.0.1", 0).withTokens(INGEST, ADMIN)
                .withLimits(1024, 3, 2_000);
        api = HttpApi.start(config, new UnreachableBackend(), new NodeMetrics());
        http = new TestHttp(api.uri());
    }

    @AfterAll
    static void stop() {
        api.close();
    }

    private static String[] with(String[] auth, String... more) {
        String[] all = new String[auth.length + more.length];
        System.arraycopy(auth, 0, all, 0, auth.length);
        System.arraycopy(more, 0, all, auth.length, more.length);
        return all;
    }

    private static void assertError(Response r, int status, String code) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
        assertThat(r.errorCode()).as(r.body()).isEqualTo(code);
        assertThat(r.errorMessage()).isNotBlank();
        assertThat(r.header("Content-Type")).isEqualTo("application/json; charset=utf-8");
    }

    @Test
    void bindsAFreePortOnTheConfiguredHost() {
        assertThat(api.address().getPort()).isPositive();
        assertThat(api.uri().toString()).isEqualTo("http://127.0.0.1:" + api.address().getPort());
    }

    @Test
    void healthIsOpen() {
        Response r = http.get("/health");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json().path("status").asText()).isEqualTo("ok");
    }

    @Test
    void everythingElseNeedsAToken() {
        Response r = http.get("/v1/streams");
        assertError(r, 401, "unauthorized");
        assertThat(r.header("WWW-Authenticate")).isEqualTo("Bearer realm=\"railgun\"");
        assertThat(r.errorMessage()).contains("Authorization: Bearer <token>");
        assertError(http.post("/v1/streams/s/events", "{}"), 401, "unauthorized");
        assertError(http.get("/metrics"), 401, "unauthorized");
        // unknown paths too: nothing is told to callers without a token
        assertError(http.get("/nope"), 401, "unauthorized");
        // a large body sent without token still gets the 401 (not a connection reset)
        assertError(http.post("/v1/streams/s/events", "x".repeat(300_000)), 401, "unauthorized");
    }

    @Test
    void aWrongTokenIsRefusedAsInvalid() {
        Response r = http.get("/v1/streams", "Authorization", "Bearer guess");
        assertError(r, 401, "unauthorized");
        assertThat(r.header("WWW-Authenticate")).contains("error=\"invalid_token\"");
        assertError(http.get("/v1/streams", "Authorization", "Basic YWRtaW46YWRtaW4="), 401, "unauthorized");
    }

    @Test
    void theIngestTokenCannotAdminister() {
        Response r = http.call("PUT", "/v1/streams/s", STREAM_BODY, AS_INGEST);
        assertError(r, 403, "forbidden");
        assertThat(r.errorMessage()).contains("needs the admin scope");
        assertError(http.get("/v1/streams", AS_INGEST), 403, "forbidden");
        assertError(http.call("DELETE", "/v1/streams/s", null, AS_INGEST), 403, "forbidden");
        assertError(http.post("/v1/streams/s/metrics", "{\"query\": \"q\"}", AS_INGEST), 403, "forbidden");
        assertError(http.call("DELETE", "/v1/streams/s/metrics/m", null, AS_INGEST), 403, "forbidden");
        // but may ingest (refused here for the body, after the token passed) and read /metrics
        assertError(http.post("/v1/streams/s/events", "{", AS_INGEST), 400, "invalid_json");
        assertError(http.post("/v1/streams/s/events:batch", "[", AS_INGEST), 400, "invalid_json");
        assertThat(http.get("/metrics", AS_INGEST).status()).isEqualTo(200);
    }

    @Test
    void unknownPathsAre404() {
        Response r = http.get("/v1/nothing", AS_INGEST);
        assertError(r, 404, "not_found");
        assertThat(r.errorMessage()).contains("/v1/streams");
        assertError(http.get("/v1/streams/s/events/extra", AS_ADMIN), 404, "not_found");
        assertError(http.get("/", AS_ADMIN), 404, "not_found");
    }

    @Test
    void wrongMethodsAre405WithAllow() {
        Response r = http.get("/v1/streams/s/events", AS_ADMIN);
        assertError(r, 405, "method_not_allowed");
        assertThat(r.header("Allow")).isEqualTo("POST");
        assertThat(r.errorMessage()).contains("use POST");
        Response s = http.post("/v1/streams/s", "{}", AS_ADMIN);
        assertError(s, 405, "method_not_allowed");
        assertThat(s.header("Allow")).isEqualTo("PUT, GET, DELETE");
        Response h = http.call("DELETE", "/health", null);
        assertError(h, 405, "method_not_allowed");
        assertThat(h.header("Allow")).isEqualTo("GET");
        assertThat(http.call("PATCH", "/v1/streams", "{}", AS_ADMIN).header("Allow")).isEqualTo("GET");
    }

    @Test
    void bodiesOverTheLimitAre413() {
        String big = "{\"id\": \"" + "x".repeat(2_000) + "\"}";
        Response r = http.post("/v1/streams/s/events", big, AS_INGEST);
        assertError(r, 413, "body_too_large");
        assertThat(r.errorMessage()).contains("1024 bytes");
        assertError(http.call("PUT", "/v1/streams/s", big, AS_ADMIN), 413, "body_too_large");
        // without Content-Length (chunked), the limit is found while reading
        assertError(http.callChunked("POST", "/v1/streams/s/events:batch", Codec.utf8(big), AS_INGEST), 413,
                "body_too_large");
        // far over the limit: refused from the Content-Length alone, and the client still reads the answer
        assertError(http.post("/v1/streams/s/events", "x".repeat(4 << 20), AS_INGEST), 413, "body_too_large");
        // exactly at the limit is fine (then refused as bad JSON, so it was read)
        String exact = "[" + " ".repeat(1022) + "{";
        assertError(http.post("/v1/streams/s/events:batch", exact, AS_INGEST), 400, "invalid_json");
        assertThat(http.get("/health").status()).isEqualTo(200);
    }

    @Test
    void batchesOverTheLimitAre413() {
        String e = "{\"id\": \"1\", \"card\": \"c\"}";
        Response r = http.post("/v1/streams/s/events:batch", "[" + String.join(", ", e, e, e, e) + "]", AS_INGEST);
        assertError(r, 413, "batch_too_large");
        assertThat(r.errorMessage()).contains("at most 3 events");
    }

    @Test
    void bodiesMustBeJson() {
        Response r = http.post("/v1/streams/s/events", "{}", with(AS_INGEST, "Content-Type", "text/plain"));
        assertError(r, 415, "unsupported_media_type");
        assertThat(r.errorMessage()).contains("application/json");
        assertError(http.call("PUT", "/v1/streams/s", STREAM_BODY, with(AS_ADMIN, "Content-Type",
                "application/x-www-form-urlencoded")), 415, "unsupported_media_type");
        assertError(http.post("/v1/streams/s/events", "{}", with(AS_INGEST, "Content-Type",
                "application/json; charset=iso-8859-1")), 415, "unsupported_media_type");
        // JSON with a charset, a +json type, or no Content-Type at all pass (then fail on the empty event)
        assertError(http.post("/v1/streams/s/events", "", with(AS_INGEST, "Content-Type", "application/json; charset=UTF-8")),
                400, "invalid_json");
        assertError(http.post("/v1/streams/s/events", "", with(AS_INGEST, "Content-Type", "application/vnd.x+json")), 400,
                "invalid_json");
        assertError(http.post("/v1/streams/s/events", "", AS_INGEST), 400, "invalid_json");
    }

    @Test
    void malformedJsonIs400InEveryBodyTakingEndpoint() {
        for (String[] call : new String[][] {{"PUT", "/v1/streams/s"}, {"POST", "/v1/streams/s/metrics"},
                {"POST", "/v1/streams/s/events"}, {"POST", "/v1/streams/s/events:batch"}}) {
            Response r = http.call(call[0], call[1], "{\"id\": ", AS_ADMIN);
            assertError(r, 400, "invalid_json");
            assertThat(r.errorMessage()).as(call[1]).contains("not valid JSON at line 1");
            // (an event body is parsed in one pass: its fields are checked as they come, so this one's is known)
            assertError(http.call(call[0], call[1], "{\"id\": \"1\",}", AS_ADMIN), 400, "invalid_json");
        }
    }

    @Test
    void badDefinitionsAndNamesAreRefusedBeforeTheFrontEnd() {
        Response r = http.call("PUT", "/v1/streams/s", "{\"fields\": {\"id\": \"strin\"}, \"eventId\": \"id\", "
                + "\"partitioners\": [\"id\"]}", AS_ADMIN);
        assertError(r, 400, "invalid_field_type");
        assertError(http.call("PUT", "/v1/streams/bad%20name", STREAM_BODY, AS_ADMIN), 400, "invalid_stream_name");
        assertError(http.get("/v1/streams/bad%20name", AS_ADMIN), 404, "unknown_stream");
        assertError(http.post("/v1/streams/-x/events", "{\"id\": \"a\"}", AS_ADMIN), 404, "unknown_stream");
        assertError(http.post("/v1/streams/s/metrics", "{\"query\": 1}", AS_ADMIN), 400, "invalid_request");
        assertError(http.post("/v1/streams/s/events", "[{}]", AS_ADMIN), 400, "invalid_event");
        assertError(http.post("/v1/streams/s/events:batch", "{}", AS_ADMIN), 400, "invalid_batch");
    }

    @Test
    void aFaultIs500AndTheServerKeepsServing() {
        // GET /v1/streams reaches the backend, which throws UnsupportedOperationException
        Response r = http.get("/v1/streams", AS_ADMIN);
        assertError(r, 500, "internal");
        assertThat(r.errorMessage()).contains("incident");
        assertThat(http.get("/health").status()).isEqualTo(200);
        assertThat(http.get("/v1/streams", AS_ADMIN).status()).isEqualTo(500);
    }

    @Test
    void prometheusTextCountsRequests() {
        http.get("/health");
        Response r = http.get("/metrics", AS_ADMIN);
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.header("Content-Type")).startsWith("text/plain; version=0.0.4");
        assertThat(r.body())
                .contains("# TYPE railgun_http_requests_total counter")
                .contains("railgun_http_requests_total{route=\"GET /health\",status=\"200\"}")
                .contains("# TYPE railgun_request_seconds histogram")
                .contains("railgun_request_seconds_bucket{route=\"GET /health\",le=\"1.0E-4\"}")
                .contains("le=\"10.0\"");
    }
}
