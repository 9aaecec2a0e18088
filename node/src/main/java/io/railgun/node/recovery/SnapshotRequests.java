package io.railgun.node.recovery;

import io.railgun.engine.snapshot.TaskSnapshot;
import io.railgun.node.assignment.TaskId;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * The way from the HTTP server to the processor units for snapshots (the units' proxy): a request
 * is offered to every unit's {@link SnapshotInbox}, since the server does not know which unit runs a
 * task; the one that does starts the snapshot on its own thread. Thread-safe.
 */
public final class SnapshotRequests {
    private final List<SnapshotInbox> inboxes;

    public SnapshotRequests(List<SnapshotInbox> inboxes) {
        this.inboxes = List.copyOf(inboxes);
    }

    /**
     * Asks for a snapshot of {@code task} in {@code target}, written on {@code io}. The future fails
     * with {@link SnapshotRequest.TaskNotHereException} when no unit runs the task.
     */
    public CompletableFuture<TaskSnapshot> request(TaskId task, Path target, long snapshotId, Executor io) {
        SnapshotRequest r = new SnapshotRequest(task, target, snapshotId, io, inboxes.size());
        for (SnapshotInbox inbox : inboxes) {
            inbox.offer(r);
        }
        return r.result();
    }
}
