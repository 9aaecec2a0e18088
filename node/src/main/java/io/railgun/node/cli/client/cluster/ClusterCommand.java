package io.railgun.node.cli.client.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import io.railgun.client.RailgunClient;
import io.railgun.node.cli.client.ClientCommand;
import io.railgun.node.cli.client.ClientContext;
import io.railgun.node.cli.client.CommandFailure;
import io.railgun.node.cli.client.ExitCode;
import io.railgun.node.cli.client.Json;
import io.railgun.node.cli.client.NodeTarget;
import io.railgun.node.cli.client.Table;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code railgun cluster}: {@code GET /v1/cluster} as two tables, the nodes and the tasks (the
 * node of each task's active copy, its lag, checkpoint age and recovery, then its replicas and
 * stale copies), or as the node's JSON with {@code --json}. Runs on the main thread.
 */
@Command(name = "cluster", header = "Show the cluster: its nodes, and every task's active and replica copies with their"
        + " lag, checkpoint age and recovery progress.")
public final class ClusterCommand extends ClientCommand {
    @Option(names = "--json", description = "Print the node's answer ({\"nodes\": [...], \"tasks\": [...]}) as one line"
            + " of JSON.")
    boolean json;

    public ClusterCommand(ClientContext context) {
        super(context);
    }

    @Override
    protected int run(RailgunClient client, NodeTarget target) {
        String body = client.clusterJson();
        JsonNode view;
        try {
            view = Json.MAPPER.readTree(body);
        } catch (IOException e) {
            throw new CommandFailure(ExitCode.NODE_ERROR, "the node's answer is not JSON: " + e.getMessage());
        }
        if (json) {
            out().println(Json.line(view));
            return ExitCode.OK;
        }
        Instant now = Instant.parse(view.path("generatedAt").asText());
        Table nodes = new Table("NODE", "STATE", "URL", "UNITS", "COPIES", "LAST SEEN", "STARTED");
        for (JsonNode n : view.path("nodes")) {
            nodes.row(n.path("id").asText(), n.path("reachable").asBoolean() ? "up" : "unreachable",
                    n.path("url").asText(), n.path("units").asText(), n.path("copies").asText(),
                    ago(now, n.path("lastSeenAt").asText()), ago(now, n.path("startedAt").asText()));
        }
        nodes.print(out());
        out().println();
        if (view.path("tasks").isEmpty()) {
            out().println("No tasks yet: a stream's tasks appear once a node runs them (railgun streams list).");
            return ExitCode.OK;
        }
        Table tasks = new Table("TASK", "ACTIVE", "LAG", "CHECKPOINT AGE", "RECOVERY", "REPLICAS", "STALE");
        for (JsonNode t : view.path("tasks")) {
            JsonNode a = t.path("active");
            tasks.row(t.path("task").asText(), a.isNull() ? "none" : node(a), a.isNull() ? "-" : figure(a.path("lag")),
                    a.isNull() ? "-" : age(a.path("checkpointAgeMs")), a.isNull() ? "-" : recovery(a.path("recovery")),
                    copies(t.path("replicas"), true), copies(t.path("stale"), false));
        }
        tasks.print(out());
        return ExitCode.OK;
    }

    /** The node's id, marked when its status is old. */
    private static String node(JsonNode copy) {
        return copy.path("node").asText() + (copy.path("reachable").asBoolean() ? "" : " (unreachable)");
    }

    /** {@code n2 (lag 0, checkpoint 1 s), n3 (recovering 45%)}, or {@code -}. */
    private static String copies(JsonNode list, boolean figures) {
        if (list.isEmpty()) {
            return "-";
        }
        List<String> parts = new ArrayList<>();
        for (JsonNode c : list) {
            if (!figures) {
                parts.add(node(c));
            } else if (!c.path("recovery").isNull()) {
                parts.add(node(c) + " (recovering " + recovery(c.path("recovery")) + ")");
            } else {
                parts.add(node(c) + " (lag " + figure(c.path("lag")) + ", checkpoint " + age(c.path("checkpointAgeMs")) + ")");
            }
        }
        return String.join(", ", parts);
    }

    private static String figure(JsonNode n) {
        return n.isNumber() ? n.asText() : "?";
    }

    /** A checkpoint age: {@code current} when it covers everything read, else {@code 12 s}. */
    private static String age(JsonNode ms) {
        if (!ms.isNumber()) {
            return "?";
        }
        return ms.asLong() == 0 ? "current" : duration(ms.asLong());
    }

    static String recovery(JsonNode r) {
        if (r.isNull() || r.isMissingNode()) {
            return "-";
        }
        long done = r.path("bytesDone").asLong();
        if (!r.path("bytesTotal").isNumber() || r.path("bytesTotal").asLong() <= 0) {
            return bytes(done) + " copied";
        }
        long total = r.path("bytesTotal").asLong();
        return done * 100 / total + "% (" + bytes(done) + " of " + bytes(total) + ")";
    }

    static String bytes(long n) {
        if (n < 1024) {
            return n + " B";
        }
        if (n < 1024 * 1024) {
            return String.format("%.1f KiB", n / 1024.0);
        }
        if (n < 1024L * 1024 * 1024) {
            return String.format("%.1f MiB", n / (1024.0 * 1024));
        }
        return String.format("%.2f GiB", n / (1024.0 * 1024 * 1024));
    }

    private static String ago(Instant now, String then) {
        return duration(Math.max(0, Duration.between(Instant.parse(then), now).toMillis())) + " ago";
    }

    static String duration(long ms) {
        if (ms < 10_000) {
            return String.format("%.1f s", ms / 1000.0);
        }
        long s = ms / 1000;
        if (s < 120) {
            return s + " s";
        }
        if (s < 7200) {
            return s / 60 + " min";
        }
        return s / 3600 + " h";
    }
}
