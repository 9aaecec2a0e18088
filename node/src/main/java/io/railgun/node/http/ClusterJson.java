package io.railgun.node.http;

import com.fasterxml.jackson.core.JsonGenerator;
import io.railgun.node.cluster.ClusterReport;
import io.railgun.node.cluster.ClusterReport.CopyRow;
import io.railgun.node.cluster.ClusterReport.NodeRow;
import io.railgun.node.cluster.ClusterReport.TaskRow;
import java.io.IOException;
import java.time.Instant;

/**
 * The body of {@code GET /v1/cluster} (admin scope): a {@link ClusterReport} as JSON. Times are
 * ISO-8601 UTC strings, ages milliseconds; a figure a node does not know is null.
 *
 * <pre>{"generatedAt": "2026-01-01T10:00:00.123Z",
 *  "nodes": [{"id": "n1", "url": "http://127.0.0.1:7070", "startedAt": "...", "lastSeenAt": "...",
 *             "reachable": true, "units": 2, "copies": 4}],
 *  "tasks": [{"task": "payments/card-0", "stream": "payments", "partitioner": "card", "partition": 0,
 *             "active": {"node": "n1", "reachable": true, "lag": 0, "checkpointOffset": 1200,
 *                        "checkpointAgeMs": 0, "recovery": null},
 *             "replicas": [], "stale": []}]}</pre>
 *
 * {@code recovery} is {@code {"bytesDone": n, "bytesTotal": m}} (total null while not known) while the
 * copy is being recovered from a peer. Stateless, thread-safe.
 */
final class ClusterJson {
    private ClusterJson() {}

    static void write(JsonGenerator g, ClusterReport report) throws IOException {
        g.writeStartObject();
        g.writeStringField("generatedAt", Instant.ofEpochMilli(report.generatedMs()).toString());
        g.writeArrayFieldStart("nodes");
        for (NodeRow n : report.nodes()) {
            g.writeStartObject();
            g.writeStringField("id", n.nodeId());
            g.writeStringField("url", n.apiUrl());
            g.writeStringField("startedAt", Instant.ofEpochMilli(n.startedMs()).toString());
            g.writeStringField("lastSeenAt", Instant.ofEpochMilli(n.lastSeenMs()).toString());
            g.writeBooleanField("reachable", n.reachable());
            g.writeNumberField("units", n.units());
            g.writeNumberField("copies", n.copies());
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeArrayFieldStart("tasks");
        for (TaskRow t : report.tasks()) {
            g.writeStartObject();
            g.writeStringField("task", t.task());
            g.writeStringField("stream", t.stream());
            g.writeStringField("partitioner", t.partitioner());
            g.writeNumberField("partition", t.partition());
            g.writeFieldName("active");
            if (t.active() == null) {
                g.writeNull();
            } else {
                copy(g, t.active());
            }
            g.writeArrayFieldStart("replicas");
            for (CopyRow c : t.replicas()) {
                copy(g, c);
            }
            g.writeEndArray();
            g.writeArrayFieldStart("stale");
            for (CopyRow c : t.stale()) {
                copy(g, c);
            }
            g.writeEndArray();
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void copy(JsonGenerator g, CopyRow c) throws IOException {
        g.writeStartObject();
        g.writeStringField("node", c.nodeId());
        g.writeBooleanField("reachable", c.reachable());
        numberOrNull(g, "lag", c.lag());
        numberOrNull(g, "checkpointOffset", c.checkpointOffset());
        numberOrNull(g, "checkpointAgeMs", c.checkpointAgeMs());
        g.writeFieldName("recovery");
        if (!c.recovering()) {
            g.writeNull();
        } else {
            g.writeStartObject();
            g.writeNumberField("bytesDone", c.recoveryBytesDone());
            numberOrNull(g, "bytesTotal", c.recoveryBytesTotal());
            g.writeEndObject();
        }
        g.writeEndObject();
    }

    /** A figure, or null when negative (not known). */
    private static void numberOrNull(JsonGenerator g, String name, long value) throws IOException {
        if (value < 0) {
            g.writeNullField(name);
        } else {
            g.writeNumberField(name, value);
        }
    }
}
