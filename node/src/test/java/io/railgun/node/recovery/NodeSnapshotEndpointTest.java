package io.railgun.node.recovery;

import static org.assertj.core.api.Assertions.assertThat;

import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.snapshot.TaskSnapshot;
import io.railgun.engine.task.TaskOptions;
import io.railgun.engine.task.TaskProcessor;
import io.railgun.engine.task.TaskStorage;
import io.railgun.node.Node;
import io.railgun.node.NodeConfig;
import io.railgun.node.assignment.CopyRole;
import io.railgun.node.assignment.MemberAssignment.PeerCopy;
import io.railgun.node.assignment.TaskId;
import io.railgun.node.recovery.TaskRecovery.Outcome;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The wiring in a real node (embedded broker, processor unit, HTTP server): a peer copies a task
 * the node runs through its internal endpoints — the request reaches the unit that owns the task,
 * which takes the snapshot on its own thread — and the copy opens at the node's checkpoint with the
 * node's events in its reservoir; the node's own {@link TaskRecovery} is a {@link PeerRecovery};
 * recovery metrics are on {@code /metrics}.
 */
@Timeout(180)
class NodeSnapshotEndpointTest {
    static final String ADMIN = "admin-token-0123456789";
    static final String INGEST = "ingest-token-0123456789";

    @Test
    void aPeerCopiesATaskFromARunningNode() throws Exception {
        Path root = Files.createTempDirectory("railgun-node-snapshot");
        NodeConfig config = NodeConfig.defaults().withDataDir(root.resolve("node")).withHttp("127.0.0.1", 0)
                .withProcessors(1).withTokens(INGEST, ADMIN).withEngine(200, 250_000, 3_600_000L);
        try (Node node = Node.start(config); PeerRecovery peer = new PeerRecovery(RecoverySettings.defaults(), ADMIN)) {
            assertThat(node.taskRecovery()).isInstanceOf(PeerRecovery.class);
            HttpClient http = HttpClient.newHttpClient();
            call(http, node, "PUT", "/v1/streams/pay", """
                    {"fields": {"id": "string", "ts": "timestamp", "card": "string", "amount": "double"},
                     "eventId": "id", "timestamp": "ts", "partitioners": ["card"], "partitions": 1}""", ADMIN, 201);
            call(http, node, "POST", "/v1/streams/pay/metrics",
                    "{\"query\": \"SELECT COUNT(*) AS n FROM pay GROUP BY card [RANGE 1 HOUR]\"}", ADMIN, 201);
            int events = 600;
            for (int b = 0; b < events / 100; b++) {
                StringBuilder batch = new StringBuilder("[");
                for (int i = b * 100; i < (b + 1) * 100; i++) {
                    batch.append(i % 100 == 0 ? "" : ",").append("{\"id\": \"e").append(i).append("\", \"ts\": ")
                            .append(1_700_000_000_000L + i * 1000L).append(", \"card\": \"c").append(i % 7)
                            .append("\", \"amount\": 1.5}");
                }
                call(http, node, "POST", "/v1/streams/pay/events:batch", batch + "]", INGEST, 200);
            }
            Thread.sleep(500); // a checkpoint covers them (200 ms interval)
            Path taskDir;
            try (Stream<Path> dirs = Files.list(root.resolve("node/tasks"))) {
                taskDir = dirs.findFirst().orElseThrow();
            }
            String generation = taskDir.getFileName().toString().substring("pay.".length());
            TaskId task = new TaskId("railgun.s.pay." + generation + ".card", 0);

            Path copy = root.resolve("peer/task");
            Outcome o = peer.recover(task, copy, List.of(new PeerCopy("node-1", node.uri().toString(), CopyRole.ACTIVE,
                    -1))).get();
            assertThat(o.copied()).as("copied").isTrue();
            // the partition holds the metric's DDL marker, then the events: the checkpoint covers them all
            assertThat(o.checkpointOffset()).isEqualTo(events + 1);
            StreamDefinition stream = node.frontEnd().stream("pay");
            try (TaskProcessor t = TaskProcessor.open(stream, TaskOptions.defaults(), TaskStorage.in(copy))) {
                assertThat(t.resumeOffset()).isEqualTo(events + 1);
                assertThat(t.stats().reservoirSize()).isEqualTo(events);
                assertThat(t.metricNames()).contains("n");
            }
            String metrics = call(http, node, "GET", "/metrics", null, ADMIN, 200);
            assertThat(metrics).contains("railgun_recoveries_started_total").contains("railgun_recovery_copied_bytes_total");
            assertThat(call(http, node, "GET", "/internal/v1/tasks/" + task.topic() + "/0/snapshot", null, INGEST, 403))
                    .contains("forbidden");
        } finally {
            TaskSnapshot.deleteTree(root);
        }
    }

    private static String call(HttpClient http, Node node, String method, String path, String body, String token,
                               int expected) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(node.uri() + path)).header("Authorization",
                "Bearer " + token);
        b.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(body));
        if (body != null) {
            b.header("Content-Type", "application/json");
        }
        HttpResponse<String> r = http.send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(method + " " + path + ": " + r.body()).isEqualTo(expected);
        return r.body();
    }
}
