package io.railgun.node.recovery;

import io.railgun.node.assignment.MemberAssignment.PeerCopy;
import io.railgun.node.assignment.TaskId;
import io.railgun.node.cluster.ClusterEvents;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A {@link TaskRecovery} whose outcomes are counted: each recovery that ends counts once in
 * {@link ClusterEvents#recovered} (from a peer when a checkpoint was copied, else by replay, a
 * failure included: the task then replays its input) and adds its bytes to
 * {@link ClusterEvents#bytesCopied}. The node wraps its recovery in it, so an implementation of
 * {@link TaskRecovery} does not call {@link ClusterEvents} itself. Thread-safe as the wrapped
 * recovery is; the counting runs on the thread that completes the recovery's future.
 */
public final class CountedRecovery implements TaskRecovery {
    private final TaskRecovery recovery;
    private final ClusterEvents events;

    public CountedRecovery(TaskRecovery recovery, ClusterEvents events) {
        this.recovery = recovery;
        this.events = events;
    }

    @Override
    public CompletableFuture<Outcome> recover(TaskId task, Path taskDir, List<PeerCopy> sources) {
        return recovery.recover(task, taskDir, sources).whenComplete((outcome, failure) -> {
            boolean copied = failure == null && outcome != null && outcome.copied();
            events.recovered(copied);
            if (failure == null && outcome != null) {
                events.bytesCopied(outcome.bytesCopied());
            }
        });
    }
}
