package io.railgun.node.recovery;

import io.railgun.engine.snapshot.TaskSnapshot;
import io.railgun.engine.task.TaskProcessor;
import io.railgun.node.assignment.TaskId;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Function;

/**
 * A processor unit's queue of snapshot requests (single owner: the unit's thread; any thread adds).
 * The unit {@link #drain}s it once per round: a request for a task it runs starts the task's
 * snapshot ({@link TaskProcessor#trySnapshot}) on the unit's thread, which is the only thread that
 * may touch the task; a request for a task it does not run is declined. A snapshot that cannot
 * start now (a checkpoint is under way) is tried again next round; after {@value #FORCE_AFTER_ROUNDS}
 * rounds (a task checkpointing back to back) the unit takes a checkpoint at once, waiting for it,
 * and starts the snapshot right after.
 */
public final class SnapshotInbox {
    static final int FORCE_AFTER_ROUNDS = 100;
    private final ConcurrentLinkedQueue<SnapshotRequest> queue = new ConcurrentLinkedQueue<>();
    private final List<SnapshotRequest> deferred = new ArrayList<>(); // unit's thread only

    void offer(SnapshotRequest request) {
        queue.add(request);
    }

    /**
     * Handles the requests received and those deferred. Unit's thread.
     *
     * @param tasks the unit's task of an id, or null when it does not run it
     * @return requests handled (started or declined)
     */
    public int drain(Function<TaskId, TaskProcessor> tasks) {
        if (deferred.isEmpty() && queue.isEmpty()) {
            return 0;
        }
        for (SnapshotRequest r; (r = queue.poll()) != null; ) {
            deferred.add(r);
        }
        int handled = 0;
        for (int i = deferred.size() - 1; i >= 0; i--) {
            SnapshotRequest r = deferred.get(i);
            if (r.result().isDone() || start(r, tasks.apply(r.task()))) {
                deferred.remove(i);
                handled++;
            }
        }
        return handled;
    }

    /** True when the request is settled (declined, failed or started); false to try again next round. */
    private static boolean start(SnapshotRequest r, TaskProcessor task) {
        if (task == null) {
            r.decline();
            return true;
        }
        try {
            CompletableFuture<TaskSnapshot> f = task.trySnapshot(r.target(), r.snapshotId(), r.io());
            if (f == null && ++r.deferrals >= FORCE_AFTER_ROUNDS) {
                task.checkpoint().join();
                f = task.trySnapshot(r.target(), r.snapshotId(), r.io());
            }
            if (f == null) {
                return false;
            }
            f.whenComplete((s, e) -> {
                if (e != null) {
                    r.result().completeExceptionally(e);
                } else {
                    r.result().complete(s);
                }
            });
        } catch (RuntimeException e) {
            r.result().completeExceptionally(e);
        }
        return true;
    }
}
