package io.railgun.node.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railgun.node.Node;
import io.railgun.node.NodeConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The Grafana dashboard in {@code ops/grafana} against a real node: the JSON loads as a dashboard
 * (panels with ids, positions and PromQL targets on the datasource variable), covers the figures an
 * operator needs, and every metric name its queries (and its variables' queries) select appears in
 * the {@code /metrics} output of a node that has a stream, tasks and traffic.
 */
@Timeout(180)
class GrafanaDashboardTest {
    static final Path DASHBOARD = Path.of("..", "ops", "grafana", "railgun-dashboard.json");
    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\(\\s*([a-zA-Z_:][a-zA-Z0-9_:]*)\\s*,");

    @Test
    void promQlNamesAreTheSelectedMetrics() {
        assertThat(PromQlNames.of("histogram_quantile(0.99, sum by (le, route) (rate(railgun_request_seconds_bucket"
                + "{instance=~\"$instance\"}[$__rate_interval])))")).containsExactly("railgun_request_seconds_bucket");
        assertThat(PromQlNames.of("sum by (instance, gc) (rate(a_sum[5m])) / on (gc) sum without (x) (rate(a_count[1m]))"
                + " > bool 1e3")).containsExactly("a_sum", "a_count");
        assertThat(PromQlNames.of("topk(10, railgun_task_lag{stream=\"s\"} offset 5m)")).containsExactly("railgun_task_lag");
    }

    @Test
    void everyQueryNamesAMetricTheNodeExports() throws Exception {
        JsonNode dashboard = new ObjectMapper().readTree(Files.readString(DASHBOARD));
        Map<String, Set<String>> namesByQuery = queries(dashboard);
        Set<String> queried = new TreeSet<>();
        namesByQuery.values().forEach(queried::addAll);
        assertThat(queried).as("what the dashboard shows").contains("railgun_events_total", "railgun_replies_total",
                "railgun_request_seconds_bucket", "railgun_consumer_lag", "railgun_tasks", "railgun_rebalances_total",
                "railgun_disk_bytes", "railgun_reservoir_cache_bytes", "railgun_state_buffer_bytes", "jvm_memory_used_bytes",
                "jvm_gc_collection_seconds_sum", "railgun_task_lag", "railgun_task_events_total");

        Set<String> exported = exportedNames(scrapeBusyNode());
        assertThat(exported).as("besides the dashboard's").contains("railgun_reservoir_write_wait_seconds_total");
        List<String> missing = new ArrayList<>();
        namesByQuery.forEach((query, names) -> names.stream().filter(n -> !exported.contains(n))
                .forEach(n -> missing.add(n + " (in " + query + ")")));
        assertThat(missing).as("metrics the dashboard queries that the node does not export").isEmpty();
    }

    /** Panel title or variable name: "title: expr" to the metric names of each query, with the structure checked. */
    private static Map<String, Set<String>> queries(JsonNode dashboard) {
        assertThat(dashboard.path("title").asText()).isNotBlank();
        assertThat(dashboard.path("uid").asText()).isNotBlank();
        assertThat(dashboard.path("schemaVersion").asInt()).isPositive();
        Map<String, Set<String>> queries = new LinkedHashMap<>();
        Set<Integer> ids = new HashSet<>();
        JsonNode panels = dashboard.path("panels");
        assertThat(panels.size()).isGreaterThanOrEqualTo(8);
        for (JsonNode panel : panels) {
            String title = panel.path("title").asText();
            assertThat(title).isNotBlank();
            assertThat(ids.add(panel.path("id").asInt())).as("unique id of " + title).isTrue();
            assertThat(panel.path("gridPos").path("w").asInt()).as("width of " + title).isPositive();
            assertThat(panel.path("gridPos").path("h").asInt()).as("height of " + title).isPositive();
            assertThat(panel.path("datasource").path("uid").asText()).as(title).isEqualTo("${datasource}");
            JsonNode targets = panel.path("targets");
            assertThat(targets.size()).as("queries of " + title).isPositive();
            Set<String> refIds = new HashSet<>();
            for (JsonNode target : targets) {
                assertThat(refIds.add(target.path("refId").asText())).as("unique refId in " + title).isTrue();
                String expr = target.path("expr").asText();
                Set<String> names = PromQlNames.of(expr);
                assertThat(names).as("metrics of " + title + ": " + expr).isNotEmpty();
                queries.put(title + ": " + expr, names);
            }
        }
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            String query = variable.path("query").isObject() ? variable.path("query").path("query").asText()
                    : variable.path("query").asText();
            Matcher m = LABEL_VALUES.matcher(query);
            if (m.find()) {
                queries.put("$" + variable.path("name").asText() + ": " + query, Set.of(m.group(1)));
            }
        }
        return queries;
    }

    /** The /metrics text of a node with one stream, a metric, a few events and a point read behind it. */
    private static String scrapeBusyNode() throws Exception {
        Path dir = Files.createTempDirectory("railgun-dashboard");
        NodeConfig config = NodeConfig.defaults().withDataDir(dir).withHttp("127.0.0.1", 0).withProcessors(1);
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        try (Node node = Node.start(config)) {
            URI base = node.uri();
            send(client, base, "PUT", "/v1/streams/pay", "{\"fields\": {\"id\": \"string\", \"card\": \"string\", \"amount\":"
                    + " \"double\"}, \"eventId\": \"id\", \"partitioners\": [\"card\"], \"partitions\": 2}", 201);
            send(client, base, "POST", "/v1/streams/pay/metrics", "{\"query\": \"SELECT SUM(amount) AS s FROM pay GROUP BY"
                    + " card [RANGE 1 HOUR]\"}", 201);
            for (int i = 0; i < 20; i++) {
                send(client, base, "POST", "/v1/streams/pay/events", "{\"id\": \"e" + i + "\", \"card\": \"c" + i % 3
                        + "\", \"amount\": 1.5}", 200);
            }
            send(client, base, "GET", "/v1/streams/pay/metrics/s?card=c1", null, 200);
            // the units publish their tasks' figures about once a second: wait until they show
            String text;
            do {
                Thread.sleep(200);
                text = send(client, base, "GET", "/metrics", null, 200);
            } while (!text.contains("railgun_task_lag{") || !text.contains("railgun_task_events_total{"));
            return text;
        } finally {
            try (var walk = Files.walk(dir)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static String send(HttpClient client, URI base, String method, String path, String body, int status)
            throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(base.resolve(path)).method(method,
                body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        HttpResponse<String> r = client.send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(method + " " + path + ": " + r.body()).isEqualTo(status);
        return r.body();
    }

    /** Sample names of a Prometheus text exposition ({@code name{labels} value} or {@code name value}). */
    static Set<String> exportedNames(String exposition) {
        Set<String> names = new TreeSet<>();
        for (String line : exposition.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int end = 0;
            while (end < line.length() && line.charAt(end) != '{' && line.charAt(end) != ' ') {
                end++;
            }
            names.add(line.substring(0, end));
        }
        return names;
    }
}
