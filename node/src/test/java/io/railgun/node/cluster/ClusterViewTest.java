package io.railgun.node.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.railgun.node.Node;
import io.railgun.node.NodeConfig;
import io.railgun.node.broker.EmbeddedBroker;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The cluster view across two real nodes on one broker with replication 2: both nodes answer
 * {@code GET /v1/cluster} with both nodes and every task active on one node and replica on the
 * other, with lag and checkpoint figures; a node that stops cleanly leaves the view (its tombstone)
 * and its tasks show active on the other, without replicas.
 */
@Tag("kafka")
@Timeout(240)
class ClusterViewTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @Test
    void everyNodeShowsEveryNodeAndEachTaskActiveOnce() throws Exception {
        Path dir = Files.createTempDirectory("railgun-cluster");
        try (EmbeddedBroker broker = EmbeddedBroker.start(dir.resolve("broker"), 0, Map.of())) {
            NodeConfig base = NodeConfig.defaults().withKafka(broker.bootstrapServers()).withHttp("127.0.0.1", 0)
                    .withProcessors(1);
            try (Node a = Node.start(base.withDataDir(dir.resolve("a")).withNode("node-a", 2))) {
                Node b = Node.start(base.withDataDir(dir.resolve("b")).withNode("node-b", 2));
                try {
                    put(a.uri(), "/v1/streams/pay", """
                            {"fields": {"id": "string", "card": "string"}, "eventId": "id", "partitioners": ["card"],
                             "partitions": 4}""");
                    // a unit's consumer knows a partition's lag only once it has a position and the end offset
                    // there (from its first fetches), so right after the assignment an active copy's lag is null:
                    // wait for the view that has them all
                    JsonNode viewA = await(a.uri(), v -> v.path("nodes").size() == 2 && activesOn(v).size() == 4
                            && activesOn(v).containsValue("node-a") && activesOn(v).containsValue("node-b")
                            && replicasOn(v).size() == 4 && activeLagsKnown(v));
                    assertThat(viewA.path("nodes").findValuesAsText("id")).containsExactly("node-a", "node-b");
                    assertThat(viewA.at("/nodes/1/url").asText()).isEqualTo(b.uri().toString());
                    for (JsonNode n : viewA.path("nodes")) {
                        assertThat(n.path("reachable").asBoolean()).isTrue();
                    }
                    Map<String, String> actives = activesOn(viewA);
                    assertThat(actives.keySet()).containsExactly("pay/card-0", "pay/card-1", "pay/card-2", "pay/card-3");
                    Map<String, String> replicas = replicasOn(viewA);
                    actives.forEach((task, node) -> assertThat(replicas.get(task)).as(task).isNotEqualTo(node)
                            .isIn("node-a", "node-b"));
                    for (JsonNode t : viewA.path("tasks")) {
                        assertThat(t.at("/active/lag").isIntegralNumber()).as(t.toString()).isTrue();
                        assertThat(t.at("/replicas/0/checkpointOffset").isIntegralNumber()).as(t.toString()).isTrue();
                        assertThat(t.at("/replicas/0/recovery").isNull()).isTrue();
                    }
                    // the other node answers the same from the same topic
                    JsonNode viewB = await(b.uri(), v -> activesOn(v).equals(actives));
                    assertThat(viewB.path("nodes").size()).isEqualTo(2);
                } finally {
                    b.close();
                }
                JsonNode after = await(a.uri(), v -> v.path("nodes").size() == 1 && activesOn(v).size() == 4
                        && !activesOn(v).containsValue("node-b") && replicasOn(v).isEmpty());
                assertThat(after.at("/nodes/0/id").asText()).isEqualTo("node-a");
            }
        } finally {
            try (Stream<Path> walk = Files.walk(dir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** task -> node of its active copy. */
    static Map<String, String> activesOn(JsonNode view) {
        Map<String, String> m = new TreeMap<>();
        for (JsonNode t : view.path("tasks")) {
            if (!t.path("active").isNull()) {
                m.put(t.path("task").asText(), t.at("/active/node").asText());
            }
        }
        return m;
    }

    /** Whether every task's active copy reports its lag (null until its consumer knows it). */
    static boolean activeLagsKnown(JsonNode view) {
        for (JsonNode t : view.path("tasks")) {
            if (!t.at("/active/lag").isIntegralNumber()) {
                return false;
            }
        }
        return true;
    }

    /** task -> node of its (first) replica. */
    static Map<String, String> replicasOn(JsonNode view) {
        Map<String, String> m = new TreeMap<>();
        for (JsonNode t : view.path("tasks")) {
            if (!t.path("replicas").isEmpty()) {
                m.put(t.path("task").asText(), t.at("/replicas/0/node").asText());
            }
        }
        return m;
    }

    static JsonNode await(URI node, Predicate<JsonNode> done) throws Exception {
        long deadline = System.nanoTime() + 90_000_000_000L;
        List<String> seen = new ArrayList<>();
        while (true) {
            HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(node.resolve("/v1/cluster")).GET().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
            JsonNode view = JSON.readTree(r.body());
            if (done.test(view)) {
                return view;
            }
            seen.add(r.body());
            assertThat(System.nanoTime()).as("the view never got there; last: " + seen.getLast()).isLessThan(deadline);
            Thread.sleep(250);
        }
    }

    static void put(URI node, String path, String body) throws Exception {
        HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(node.resolve(path)).header("Content-Type",
                "application/json").PUT(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
    }
}
