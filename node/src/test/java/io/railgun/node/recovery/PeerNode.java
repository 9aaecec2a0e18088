package io.railgun.node.recovery;

import io.railgun.engine.snapshot.SnapshotFixture;
import io.railgun.engine.task.TaskOptions;
import io.railgun.engine.task.TaskProcessor;
import io.railgun.node.NodeConfig;
import io.railgun.node.assignment.CopyRole;
import io.railgun.node.assignment.MemberAssignment.PeerCopy;
import io.railgun.node.assignment.TaskId;
import io.railgun.node.http.HttpApi;
import io.railgun.node.ops.NodeMetrics;
import io.railgun.node.ops.Readiness;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Test stand-in for a node holding one task: the node's real HTTP server and snapshot server, and
 * one "unit" thread that owns the task (runs its events, drains its snapshot inbox every 2 ms, as
 * a processor unit does between polls). No Kafka: the test feeds events with their offsets.
 */
final class PeerNode implements AutoCloseable {
    static final TaskId TASK = new TaskId("railgun.s.payments.1.card", 0);

    final Path dir;
    final SnapshotServer server;
    final HttpApi http;
    private final ScheduledExecutorService unit = Executors.newSingleThreadScheduledExecutor();
    private final SnapshotInbox inbox = new SnapshotInbox();
    private final SnapshotFixture fx = new SnapshotFixture();
    private TaskProcessor task; // unit thread only

    PeerNode(Path dir, String adminToken) throws Exception {
        this.dir = dir;
        unit.submit(() -> {
            task = TaskProcessor.open(SnapshotFixture.STREAM, TaskOptions.defaults(), SnapshotFixture.storage(dir.resolve("task")));
            SnapshotFixture.addAll(task);
            return null;
        }).get();
        unit.scheduleWithFixedDelay(() -> inbox.drain(id -> id.equals(TASK) ? task : null), 2, 2, TimeUnit.MILLISECONDS);
        server = new SnapshotServer(dir.resolve("snapshots"), new SnapshotRequests(List.of(inbox)), 0);
        NodeConfig config = NodeConfig.defaults().withDataDir(dir).withHttp("127.0.0.1", 0).withTokens(null, adminToken);
        http = HttpApi.start(config, null, new NodeMetrics(), Readiness.ALWAYS, server);
    }

    PeerCopy copy(String nodeId) {
        return new PeerCopy(nodeId, http.uri().toString(), CopyRole.ACTIVE, -1);
    }

    /** Processes events [from, to) of {@code input} (offset = index) on the unit thread; returns their replies. */
    List<List<Object>> process(List<long[]> input, int from, int to) throws Exception {
        return unit.submit(() -> {
            List<List<Object>> replies = new ArrayList<>();
            for (int i = from; i < to; i++) {
                replies.add(SnapshotFixture.values(task.process(fx.row(input.get(i)), i)));
            }
            return replies;
        }).get();
    }

    @Override
    public void close() throws Exception {
        http.close();
        server.close();
        unit.submit(() -> task.close()).get();
        unit.shutdown();
        unit.awaitTermination(10, TimeUnit.SECONDS);
    }
}
