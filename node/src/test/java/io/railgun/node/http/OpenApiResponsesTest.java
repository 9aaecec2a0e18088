package io.railgun.node.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaLocation;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.railgun.node.Node;
import io.railgun.node.NodeConfig;
import io.railgun.node.frontend.ApiException;
import io.railgun.node.http.TestHttp.Response;
import io.railgun.node.ops.NodeMetrics;
import io.railgun.node.ops.ReadinessReport;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The OpenAPI document served at {@code /v1/openapi.json} against the API it describes: the
 * document is a valid OpenAPI 3.1 description (checked against the OpenAPI 3.1 schema, its Schema
 * Objects against the OpenAPI JSON Schema dialect), it describes exactly the endpoints the node
 * routes ({@link Endpoint}) with their token scopes, and every response of a real node (embedded
 * broker, tokens configured) to every endpoint, successes and refusals, validates against the schema
 * the document gives for that path, method and status. Statuses a real node does not give on demand
 * (503, 500, a readiness that is not ready) come from the same HTTP layer over a fake front-end.
 */
@Timeout(180)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenApiResponsesTest {
    static final String INGEST = "ingest-token-0123456789";
    static final String ADMIN = "admin-token-0123456789";
    static final String PAYMENTS = """
            {"fields": {"id": "string", "ts": "timestamp", "card": "string", "merchant": "string", "amount": "double",
                        "n": "long", "ok": "boolean"},
             "eventId": "id", "timestamp": "ts", "partitioners": ["card", "merchant"], "partitions": 2, "lateness": "1s"}""";
    static final long T0 = 1_700_000_000_000L;

    Path dataDir;
    Node node;
    TestHttp http;
    OpenApiContract contract;
    /** "METHOD template" to the statuses seen, for the coverage check. */
    final Map<String, Set<Integer>> seen = new LinkedHashMap<>();
    final List<String> problems = new ArrayList<>();

    @BeforeAll
    void startNode() throws IOException {
        dataDir = Files.createTempDirectory("railgun-openapi");
        NodeConfig config = NodeConfig.defaults().withDataDir(dataDir).withHttp("127.0.0.1", 0).withProcessors(1)
                .withTokens(INGEST, ADMIN).withLimits(64 * 1024, 100, 10_000);
        node = Node.start(config);
        http = new TestHttp(node.uri());
        Response doc = http.get("/v1/openapi.json");
        assertThat(doc.status()).isEqualTo(200);
        contract = new OpenApiContract(doc.body());
    }

    @AfterAll
    void stopNode() throws IOException {
        if (node != null) {
            node.close();
        }
        try (var walk = Files.walk(dataDir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @BeforeEach
    void forget() {
        seen.clear();
        problems.clear();
    }

    @Test
    void servedDocumentIsTheBuiltOneAndNeedsNoToken() throws IOException {
        Response served = call(Endpoint.OPENAPI, "GET", "/v1/openapi.json", null, null);
        assertThat(served.header("Content-Type")).isEqualTo(ApiRequest.JSON_TYPE);
        try (InputStream in = OpenApiResponsesTest.class.getResourceAsStream(OpsHandlers.OPENAPI_RESOURCE)) {
            assertThat(served.body() + "\n").isEqualTo(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
        assertConforms();
    }

    @Test
    void documentIsValidOpenApi31() throws IOException {
        Map<String, String> schemas = new LinkedHashMap<>();
        for (String name : List.of("schema", "dialect", "meta")) {
            String text = resource("/openapi-3.1/" + name + ".json");
            schemas.put(new ObjectMapper().readTree(text).path("$id").asText(), text);
        }
        String schemaId = "https://spec.openapis.org/oas/3.1/schema/WORK-IN-PROGRESS";
        String dialectId = "https://spec.openapis.org/oas/3.1/dialect/WORK-IN-PROGRESS";
        SchemaRegistry registry = SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12,
                b -> b.schemas(schemas));
        Schema openApi31 = registry.getSchema(SchemaLocation.of(schemaId));
        List<Error> errors = openApi31.validate(contract.document);
        assertThat(errors).as("the document against the OpenAPI 3.1 schema").isEmpty();
        assertThat(contract.document.path("openapi").asText()).startsWith("3.1.");
        // not vacuous: a response without its description, or a 3.0 document, is refused
        JsonNode broken = contract.document.deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) broken.at("/paths/~1health/get/responses/200")).remove("description");
        assertThat(openApi31.validate(broken)).isNotEmpty();
        JsonNode old = contract.document.deepCopy();
        ((com.fasterxml.jackson.databind.node.ObjectNode) old).put("openapi", "3.0.3");
        assertThat(openApi31.validate(old)).isNotEmpty();

        Schema dialect = registry.getSchema(SchemaLocation.of(dialectId));
        List<String> schemaErrors = new ArrayList<>();
        int checked = forEachSchemaObject(contract.document, "#", (where, schema) ->
                dialect.validate(schema).forEach(e -> schemaErrors.add(where + ": " + e)));
        assertThat(checked).isGreaterThan(30);
        assertThat(schemaErrors).as("Schema Objects against the OpenAPI 3.1 dialect").isEmpty();
        assertThat(dialect.validate(new ObjectMapper().readTree("{\"type\": \"strin\"}"))).isNotEmpty();
    }

    @Test
    void documentDescribesExactlyTheRoutedEndpointsWithTheirScopes() {
        Set<String> documented = new TreeSet<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = contract.document.path("paths").fields(); paths.hasNext(); ) {
            Map.Entry<String, JsonNode> path = paths.next();
            path.getValue().fieldNames().forEachRemaining(m -> {
                if (List.of("get", "put", "post", "delete", "patch", "head", "options").contains(m)) {
                    documented.add(m.toUpperCase() + " " + path.getKey());
                }
            });
        }
        Set<String> routed = new TreeSet<>();
        for (Endpoint e : Endpoint.values()) {
            routed.add(e.route);
            JsonNode op = contract.operation(e.shape.template, e.method);
            assertThat(op.path("x-railgun-scope").asText()).as(e.route).isEqualTo(e.scope.name().toLowerCase());
            boolean open = op.path("security").size() == 1 && op.path("security").get(0).isEmpty();
            assertThat(open).as(e.route + " needs no token").isEqualTo(e.scope == Scope.NONE);
        }
        assertThat(documented).isEqualTo(routed);
        // SPEC §3 lists these; each must be described
        assertThat(documented).contains("PUT /v1/streams/{stream}", "GET /v1/streams", "GET /v1/streams/{stream}",
                "DELETE /v1/streams/{stream}", "POST /v1/streams/{stream}/metrics", "GET /v1/streams/{stream}/metrics",
                "DELETE /v1/streams/{stream}/metrics/{name}", "POST /v1/streams/{stream}/events",
                "POST /v1/streams/{stream}/events:batch", "GET /v1/streams/{stream}/metrics/{name}", "GET /health",
                "GET /health/live", "GET /health/ready", "GET /metrics", "GET /v1/openapi.json", "GET /v1/cluster");
    }

    @Test
    void everyResponseOfARealNodeMatchesTheDocument() throws Exception {
        // operations
        call(Endpoint.HEALTH, "GET", "/health", null, null);
        call(Endpoint.HEALTH_LIVE, "GET", "/health/live", null, null);
        call(Endpoint.OPENAPI, "GET", "/v1/openapi.json", null, null);
        call(Endpoint.OPENAPI, "GET", "/v1/openapi.json", null, INGEST);
        call(Endpoint.PROMETHEUS, "GET", "/metrics", null, INGEST);
        call(Endpoint.PROMETHEUS, "GET", "/metrics", null, null); // 401
        call(Endpoint.LIST_STREAMS, "GET", "/v1/streams", null, "wrong"); // 401
        call(Endpoint.LIST_STREAMS, "GET", "/v1/streams", null, INGEST); // 403

        // streams
        expect(201, call(Endpoint.PUT_STREAM, "PUT", "/v1/streams/payments", PAYMENTS, ADMIN));
        expect(200, call(Endpoint.PUT_STREAM, "PUT", "/v1/streams/payments", PAYMENTS, ADMIN));
        expect(409, call(Endpoint.PUT_STREAM, "PUT", "/v1/streams/payments", PAYMENTS.replace("\"amount\": \"double\"",
                "\"amount\": \"long\""), ADMIN));
        expect(400, call(Endpoint.PUT_STREAM, "PUT", "/v1/streams/bad", "{\"fields\": {}}", ADMIN));
        expect(400, call(Endpoint.PUT_STREAM, "PUT", "/v1/streams/bad", "{not json", ADMIN));
        expect(415, call(Endpoint.PUT_STREAM, "PUT", "/v1/streams/bad", PAYMENTS, ADMIN, "Content-Type", "text/plain"));
        expect(413, call(Endpoint.PUT_STREAM, "PUT", "/v1/streams/bad", "[" + " ".repeat(70_000) + "]", ADMIN));
        expect(200, call(Endpoint.GET_STREAM, "GET", "/v1/streams/payments", null, ADMIN));
        expect(404, call(Endpoint.GET_STREAM, "GET", "/v1/streams/nope", null, ADMIN));
        expect(200, call(Endpoint.LIST_STREAMS, "GET", "/v1/streams", null, ADMIN));

        // metrics
        expect(201, call(Endpoint.ADD_STATEMENT, "POST", "/v1/streams/payments/metrics", """
                {"query": "SELECT COUNT(*) AS card_count, SUM(amount) AS card_sum, MAX(ok) AS card_any_ok,\
                 MIN(merchant) AS card_first_merchant, SUM(n) AS card_n FROM payments GROUP BY card [RANGE 5 MINUTES]"}""",
                ADMIN));
        expect(201, call(Endpoint.ADD_STATEMENT, "POST", "/v1/streams/payments/metrics",
                "{\"query\": \"SELECT AVG(amount) AS merchant_avg FROM payments GROUP BY merchant [RANGE 1 HOUR]\","
                        + " \"backfill\": true}", ADMIN));
        expect(400, call(Endpoint.ADD_STATEMENT, "POST", "/v1/streams/payments/metrics",
                "{\"query\": \"SELECT COUNT(*) FROM payments GROUP BY country [RANGE 1 HOUR]\"}", ADMIN));
        expect(400, call(Endpoint.ADD_STATEMENT, "POST", "/v1/streams/payments/metrics", "{\"q\": 1}", ADMIN));
        expect(404, call(Endpoint.ADD_STATEMENT, "POST", "/v1/streams/nope/metrics", "{\"query\": \"SELECT 1\"}", ADMIN));
        expect(200, call(Endpoint.LIST_METRICS, "GET", "/v1/streams/payments/metrics", null, ADMIN));
        expect(404, call(Endpoint.LIST_METRICS, "GET", "/v1/streams/nope/metrics", null, ADMIN));

        // events: counted, duplicate, late, refused
        expect(200, call(Endpoint.SEND_EVENT, "POST", "/v1/streams/payments/events", event("e1", T0, "c1", "m1", 12.5),
                INGEST));
        expect(200, call(Endpoint.SEND_EVENT, "POST", "/v1/streams/payments/events", event("e1", T0, "c1", "m1", 12.5),
                INGEST));
        expect(200, call(Endpoint.SEND_EVENT, "POST", "/v1/streams/payments/events", event("e2", T0 + 60_000, "c1",
                "m1", null), INGEST));
        expect(200, call(Endpoint.SEND_EVENT, "POST", "/v1/streams/payments/events", event("e3", T0 - 10_000, "c1",
                "m1", 1.0), INGEST));
        expect(400, call(Endpoint.SEND_EVENT, "POST", "/v1/streams/payments/events", "{\"id\": \"e4\"}", INGEST));
        expect(400, call(Endpoint.SEND_EVENT, "POST", "/v1/streams/payments/events", "[]", INGEST));
        expect(404, call(Endpoint.SEND_EVENT, "POST", "/v1/streams/nope/events", event("e5", T0, "c1", "m1", 1.0),
                INGEST));
        expect(415, call(Endpoint.SEND_EVENT, "POST", "/v1/streams/payments/events", "{}", INGEST, "Content-Type",
                "application/x-www-form-urlencoded"));
        expect(403, call(Endpoint.PUT_STREAM, "PUT", "/v1/streams/payments", PAYMENTS, INGEST));
        expect(200, call(Endpoint.SEND_BATCH, "POST", "/v1/streams/payments/events:batch", "[" + event("b1", T0 + 61_000,
                "c2", "m1", 3.0) + "," + event("b2", T0 + 62_000, "c2", "m2", 4.0) + "]", INGEST));
        expect(200, call(Endpoint.SEND_BATCH, "POST", "/v1/streams/payments/events:batch", "[]", INGEST));
        expect(400, call(Endpoint.SEND_BATCH, "POST", "/v1/streams/payments/events:batch", "[{\"id\": 1}]", INGEST));
        StringBuilder tooMany = new StringBuilder("[");
        for (int i = 0; i < 101; i++) {
            tooMany.append(i == 0 ? "" : ",").append(event("x" + i, T0, "c", "m", 1.0));
        }
        expect(413, call(Endpoint.SEND_BATCH, "POST", "/v1/streams/payments/events:batch", tooMany + "]", INGEST));

        // point reads
        expect(200, call(Endpoint.READ_METRIC, "GET", "/v1/streams/payments/metrics/card_sum?card=c1", null, INGEST));
        expect(200, call(Endpoint.READ_METRIC, "GET", "/v1/streams/payments/metrics/card_count?card=never", null, INGEST));
        expect(200, call(Endpoint.READ_METRIC, "GET", "/v1/streams/payments/metrics/card_any_ok?card", null, INGEST));
        expect(400, call(Endpoint.READ_METRIC, "GET", "/v1/streams/payments/metrics/card_sum", null, INGEST));
        expect(404, call(Endpoint.READ_METRIC, "GET", "/v1/streams/payments/metrics/nope?card=c1", null, INGEST));

        // readiness: the node has tasks now; it answers 503 until they are open and caught up, then 200
        Response ready;
        do {
            ready = call(Endpoint.HEALTH_READY, "GET", "/health/ready", null, null);
            if (ready.status() != 200) {
                Thread.sleep(200);
            }
        } while (ready.status() != 200);
        assertThat(ready.json().path("tasks").asInt()).isEqualTo(4);
        call(Endpoint.PROMETHEUS, "GET", "/metrics", null, INGEST);

        // the cluster view: this node, and its 4 tasks active on it once it has published them (every second)
        expect(403, call(Endpoint.CLUSTER, "GET", "/v1/cluster", null, INGEST));
        Response cluster;
        long deadline = System.nanoTime() + 30_000_000_000L;
        do {
            cluster = call(Endpoint.CLUSTER, "GET", "/v1/cluster", null, ADMIN);
            expect(200, cluster);
            if (cluster.json().path("tasks").size() < 4) {
                Thread.sleep(200);
            }
        } while (cluster.json().path("tasks").size() < 4 && System.nanoTime() < deadline);
        JsonNode view = cluster.json();
        assertThat(view.path("nodes")).hasSize(1);
        assertThat(view.at("/nodes/0/id").asText()).isEqualTo(NodeConfig.defaults().nodeId());
        assertThat(view.at("/nodes/0/url").asText()).isEqualTo(node.uri().toString());
        assertThat(view.at("/nodes/0/reachable").asBoolean()).isTrue();
        assertThat(view.at("/nodes/0/copies").asInt()).isEqualTo(4);
        List<String> tasks = new ArrayList<>();
        for (JsonNode t : view.path("tasks")) {
            tasks.add(t.path("task").asText());
            assertThat(t.at("/active/node").asText()).isEqualTo(NodeConfig.defaults().nodeId());
            assertThat(t.at("/active/checkpointOffset").isIntegralNumber()).as(t.toString()).isTrue();
            assertThat(t.path("replicas")).isEmpty();
        }
        assertThat(tasks).containsExactly("payments/card-0", "payments/card-1", "payments/merchant-0",
                "payments/merchant-1");

        // removals
        expect(204, call(Endpoint.DELETE_METRIC, "DELETE", "/v1/streams/payments/metrics/card_n", null, ADMIN));
        expect(404, call(Endpoint.DELETE_METRIC, "DELETE", "/v1/streams/payments/metrics/card_n", null, ADMIN));
        expect(204, call(Endpoint.DELETE_STREAM, "DELETE", "/v1/streams/payments", null, ADMIN));
        expect(404, call(Endpoint.DELETE_STREAM, "DELETE", "/v1/streams/payments", null, ADMIN));

        // paths and methods the API does not have
        unmatched("MethodNotAllowed", 405, "POST", "/v1/streams");
        unmatched("MethodNotAllowed", 405, "DELETE", "/health/ready");
        unmatched("NotFound", 404, "GET", "/v2/streams");

        assertConforms();
        System.out.println("statuses validated against the OpenAPI document: " + seen);
        for (Endpoint e : Endpoint.values()) {
            assertThat(seen.getOrDefault(e.route, Set.of())).as("statuses seen of " + e.route)
                    .anyMatch(s -> s >= 200 && s < 300);
        }
    }

    /** 503 and 500 answers and a readiness that is not ready, from the same HTTP layer over a fake front-end. */
    @Test
    void refusalsAFakeFrontEndProvokesMatchTheDocument() throws Exception {
        FakeBackend backend = new FakeBackend();
        AtomicReference<ReadinessReport> readiness = new AtomicReference<>(new ReadinessReport(false, 3,
                List.of("unit 0: joining the task group (no assignment yet)", "task payments/card-1: replaying its input,"
                        + " 5000 record(s) left")));
        NodeConfig config = NodeConfig.defaults().withHttp("127.0.0.1", 0).withLimits(64 * 1024, 100, 200);
        try (HttpApi api = HttpApi.start(config, backend, new NodeMetrics(), readiness::get)) {
            TestHttp fake = new TestHttp(api.uri());
            expect(503, call(fake, Endpoint.HEALTH_READY, "GET", "/health/ready", null, null));
            readiness.set(ReadinessReport.ready(3));
            expect(200, call(fake, Endpoint.HEALTH_READY, "GET", "/health/ready", null, null));

            expect(201, call(fake, Endpoint.PUT_STREAM, "PUT", "/v1/streams/payments", PAYMENTS, null));
            backend.onSend = row -> new CompletableFuture<>(); // never answered: the request times out
            expect(503, call(fake, Endpoint.SEND_EVENT, "POST", "/v1/streams/payments/events", event("e1", T0, "c1", "m1",
                    1.0), null));
            backend.onSend = row -> CompletableFuture.failedFuture(ApiException.unavailable("kafka_unavailable",
                    "Kafka refused the write; retry", 1));
            expect(503, call(fake, Endpoint.SEND_BATCH, "POST", "/v1/streams/payments/events:batch", "[" + event("e1", T0,
                    "c1", "m1", 1.0) + "]", null));
            backend.failNext = new IllegalStateException("a bug");
            expect(500, call(fake, Endpoint.LIST_STREAMS, "GET", "/v1/streams", null, null));
            backend.onRead = key -> CompletableFuture.failedFuture(ApiException.conflict("backfilling",
                    "metric n is being backfilled; retry when it is done"));
            expect(201, call(fake, Endpoint.ADD_STATEMENT, "POST", "/v1/streams/payments/metrics",
                    "{\"query\": \"SELECT ...\", \"backfill\": true}", null));
            expect(409, call(fake, Endpoint.READ_METRIC, "GET", "/v1/streams/payments/metrics/n?card=c1", null, null));
            expect(503, call(fake, Endpoint.CLUSTER, "GET", "/v1/cluster", null, null)); // no cluster view
        }
        assertConforms();
    }

    /**
     * The shapes a single node does not show yet (replicas, stale copies, a recovery in progress, an
     * unreachable node, a task without active), as {@link ClusterJson} writes them, match the document.
     */
    @Test
    void everyShapeOfTheClusterViewMatchesTheDocument() throws IOException {
        var now = 1_700_000_000_000L;
        var statuses = List.of(
                new io.railgun.node.cluster.NodeStatus("n1", "http://127.0.0.1:7070", now - 60_000, now - 500, 2, List.of(
                        io.railgun.node.cluster.CopyStatus.running("p", "card", 0, io.railgun.node.assignment.CopyRole.ACTIVE,
                                0, 10, 0),
                        new io.railgun.node.cluster.CopyStatus("p", "card", 1, io.railgun.node.assignment.CopyRole.REPLICA,
                                -1, -1, -1, 4096, -1))),
                new io.railgun.node.cluster.NodeStatus("n2", "http://127.0.0.1:7071", now - 60_000, now - 9_000, 1, List.of(
                        io.railgun.node.cluster.CopyStatus.running("p", "card", 0, io.railgun.node.assignment.CopyRole.STALE,
                                5, 3, 1200),
                        new io.railgun.node.cluster.CopyStatus("p", "card", 1, io.railgun.node.assignment.CopyRole.REPLICA,
                                7, 2, 900, 100, 2000))));
        var report = io.railgun.node.cluster.ClusterReport.of(statuses, now, 5_000);
        GrowableBytes out = new GrowableBytes(512);
        ApiRequest.writeJson(out, g -> ClusterJson.write(g, report));
        String body = new String(out.array(), 0, out.length(), StandardCharsets.UTF_8);
        assertThat(contract.check("/v1/cluster", "GET", 200, ApiRequest.JSON_TYPE, body)).as(body).isEmpty();
        JsonNode json = new ObjectMapper().readTree(body);
        assertThat(json.at("/nodes/1/reachable").asBoolean()).isFalse();
        assertThat(json.at("/tasks/1/active").isNull()).isTrue();
        assertThat(json.at("/tasks/1/replicas/0/recovery/bytesTotal").isNull()).isTrue();
        assertThat(json.at("/tasks/1/replicas/1/recovery/bytesTotal").asLong()).isEqualTo(2000);
        assertThat(json.at("/tasks/0/stale/0/checkpointAgeMs").asLong()).isEqualTo(1200);
        // and a drifted one is reported
        assertThat(contract.check("/v1/cluster", "GET", 200, ApiRequest.JSON_TYPE,
                body.replace("\"bytesDone\"", "\"done\""))).isNotEmpty();
    }

    /** The validator is not vacuous: a body that drifted from the document is reported. */
    @Test
    void aDriftedResponseIsReported() {
        String route = "/v1/streams/{stream}/events";
        assertThat(contract.check(route, "POST", 200, ApiRequest.JSON_TYPE, "{\"eventId\":\"e1\",\"metrics\":{\"n\":1}}"))
                .isEmpty();
        assertThat(contract.check(route, "POST", 200, ApiRequest.JSON_TYPE, "{\"id\":\"e1\",\"metrics\":{\"n\":1}}"))
                .isNotEmpty();
        assertThat(contract.check(route, "POST", 200, ApiRequest.JSON_TYPE,
                "{\"eventId\":\"e1\",\"metrics\":{\"n\":[1]}}")).isNotEmpty();
        assertThat(contract.check(route, "POST", 200, ApiRequest.JSON_TYPE,
                "{\"eventId\":\"e1\",\"metrics\":{},\"duplicate\":false}")).isNotEmpty();
        assertThat(contract.check(route, "POST", 404, ApiRequest.JSON_TYPE, "{\"error\":{\"code\":\"x\"}}")).isNotEmpty();
        assertThat(contract.check(route, "POST", 418, ApiRequest.JSON_TYPE, "{}")).isNotEmpty();
        assertThat(contract.check("/v1/streams/{stream}", "DELETE", 204, null, "{}")).isNotEmpty();
        assertThat(contract.check("/health/ready", "GET", 200, ApiRequest.JSON_TYPE,
                "{\"status\":\"ready\",\"tasks\":1,\"reasons\":[\"x\"]}")).isNotEmpty();
    }

    private Response call(Endpoint endpoint, String method, String path, String body, String token, String... headers) {
        return call(http, endpoint, method, path, body, token, headers);
    }

    /** Sends one request, validates its response against the document and records its status. */
    private Response call(TestHttp client, Endpoint endpoint, String method, String path, String body, String token,
            String... headers) {
        List<String> h = new ArrayList<>(List.of(headers));
        if (token != null) {
            h.addAll(List.of("Authorization", "Bearer " + token));
        }
        if (body != null && !h.contains("Content-Type")) {
            h.addAll(List.of("Content-Type", "application/json"));
        }
        Response r = client.call(method, path, body, h.toArray(String[]::new));
        String template = endpoint.shape.template;
        seen.computeIfAbsent(method + " " + template, k -> new LinkedHashSet<>()).add(r.status());
        problems.addAll(contract.check(template, method, r.status(), r.header("Content-Type"), r.body()).stream()
                .map(p -> method + " " + path + ": " + p).toList());
        checkHeaders(method + " " + path, r);
        return r;
    }

    private void unmatched(String responseName, int status, String method, String path) {
        Response r = http.call(method, path, null, "Authorization", "Bearer " + ADMIN);
        expect(status, r);
        problems.addAll(contract.checkComponent(responseName, r.status(), r.header("Content-Type"), r.body()).stream()
                .map(p -> method + " " + path + ": " + p).toList());
        checkHeaders(method + " " + path, r);
    }

    /** The headers the document promises: WWW-Authenticate on 401, Allow on 405, Retry-After on 503. */
    private void checkHeaders(String request, Response r) {
        String needed = switch (r.status()) {
            case 401 -> "WWW-Authenticate";
            case 405 -> "Allow";
            case 503 -> "Retry-After";
            default -> null;
        };
        if (needed != null && r.header(needed) == null) {
            problems.add(request + ": " + r.status() + " without " + needed);
        }
    }

    private static void expect(int status, Response r) {
        assertThat(r.status()).as(r.body()).isEqualTo(status);
    }

    private void assertConforms() {
        assertThat(problems).as("responses that do not match the OpenAPI document").isEmpty();
    }

    static String event(String id, long ts, String card, String merchant, Double amount) {
        return "{\"id\": \"" + id + "\", \"ts\": " + ts + ", \"card\": \"" + card + "\", \"merchant\": \"" + merchant
                + "\", \"amount\": " + amount + ", \"n\": 2, \"ok\": true}";
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = OpenApiResponsesTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Calls {@code check} with every Schema Object of the document (values of "schema" and of components.schemas). */
    private static int forEachSchemaObject(JsonNode node, String where, java.util.function.BiConsumer<String, JsonNode> check) {
        int count = 0;
        if (node.isObject()) {
            for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String at = where + "/" + e.getKey();
                if (e.getKey().equals("schema")) {
                    check.accept(at, e.getValue());
                    count++;
                } else if (at.equals("#/components/schemas")) {
                    for (Iterator<Map.Entry<String, JsonNode>> s = e.getValue().fields(); s.hasNext(); ) {
                        Map.Entry<String, JsonNode> schema = s.next();
                        check.accept(at + "/" + schema.getKey(), schema.getValue());
                        count++;
                    }
                } else {
                    count += forEachSchemaObject(e.getValue(), at, check);
                }
            }
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) {
                count += forEachSchemaObject(node.get(i), where + "/" + i, check);
            }
        }
        return count;
    }
}
