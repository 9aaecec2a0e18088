package io.railgun.node.recovery;

import io.railgun.node.assignment.MemberAssignment.PeerCopy;
import io.railgun.node.assignment.TaskId;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Brings a task's directory up to a peer's checkpoint before the task is opened here (seed 000
 * §4.2: a task assigned to a node that lacks its data copies it from a node that holds it, then
 * replays Kafka from the checkpoint's offset).
 *
 * <p>{@link #recover} is called by a processor unit on its own thread and returns at once: the copy
 * runs on the recovery's own threads. The unit does not read the task's partition until the future
 * completes; then it opens the task from {@code taskDir} (restoring the copied checkpoint) and reads
 * from the offset that checkpoint resumes at.
 */
public interface TaskRecovery {
    /** A recovery that never copies: every task replays its input from Kafka. */
    TaskRecovery NONE = (task, taskDir, sources) -> CompletableFuture.completedFuture(Outcome.NOT_COPIED);

    /**
     * Copies into {@code taskDir} what it lacks of the best of {@code sources} (files it already has,
     * with the same name and checksum, are not sent again). Completes normally in every case a replay
     * can follow: {@link Outcome#copied()} says whether a peer's checkpoint is now in place.
     */
    CompletableFuture<Outcome> recover(TaskId task, Path taskDir, List<PeerCopy> sources);

    /** What a recovery did: whether a checkpoint was copied, from which node, and the bytes moved. */
    record Outcome(boolean copied, String fromNode, long bytesCopied, long checkpointOffset) {
        public static final Outcome NOT_COPIED = new Outcome(false, "", 0, -1);
    }
}
