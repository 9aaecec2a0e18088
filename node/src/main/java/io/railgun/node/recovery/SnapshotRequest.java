package io.railgun.node.recovery;

import io.railgun.engine.snapshot.TaskSnapshot;
import io.railgun.node.assignment.TaskId;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One request for a snapshot of a task, offered to every processor unit of the node; the unit that
 * runs the task starts it, the others decline. Completes with the snapshot, or with
 * {@link TaskNotHereException} once every unit has declined. Thread-safe.
 */
final class SnapshotRequest {
    private final TaskId task;
    private final Path target;
    private final long snapshotId;
    private final Executor io;
    private final AtomicInteger awaiting;
    private final CompletableFuture<TaskSnapshot> result = new CompletableFuture<>();
    int deferrals; // the owning unit's thread only

    SnapshotRequest(TaskId task, Path target, long snapshotId, Executor io, int units) {
        this.task = task;
        this.target = target;
        this.snapshotId = snapshotId;
        this.io = io;
        this.awaiting = new AtomicInteger(units);
        if (units == 0) {
            decline();
        }
    }

    TaskId task() {
        return task;
    }

    Path target() {
        return target;
    }

    long snapshotId() {
        return snapshotId;
    }

    Executor io() {
        return io;
    }

    CompletableFuture<TaskSnapshot> result() {
        return result;
    }

    /** A unit does not run the task. */
    void decline() {
        if (awaiting.decrementAndGet() <= 0) {
            result.completeExceptionally(new TaskNotHereException(task));
        }
    }

    /** No processor unit of this node runs the task (as active or replica). */
    static final class TaskNotHereException extends RuntimeException {
        TaskNotHereException(TaskId task) {
            super("task " + task + " does not run on this node", null, false, false);
        }
    }
}
