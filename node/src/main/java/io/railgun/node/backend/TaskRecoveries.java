package io.railgun.node.backend;

import io.railgun.node.assignment.MemberAssignment.PeerCopy;
import io.railgun.node.assignment.TaskId;
import io.railgun.node.recovery.TaskRecovery;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * The copies from peers a processor unit waits for: a task assigned to it (active or replica) that
 * the plan says it lacks is copied by {@link TaskRecovery} on the recovery's threads; the unit does
 * not read the task's partition meanwhile, and opens it once the copy is done (or has failed: then
 * the task replays its input from Kafka). A recovery under way is never started twice for a task,
 * even if the task leaves and comes back meanwhile.
 *
 * <p>Not thread-safe: one per unit, called on its thread; the futures complete on other threads and
 * are only looked at here.
 */
final class TaskRecoveries {
    private static final System.Logger LOG = System.getLogger(TaskRecoveries.class.getName());

    private final TaskRecovery recovery;
    private final int unit;
    private final Map<TopicPartition, CompletableFuture<TaskRecovery.Outcome>> running = new HashMap<>();
    private final Map<TopicPartition, Long> startedNanos = new HashMap<>();

    TaskRecoveries(TaskRecovery recovery, int unit) {
        this.recovery = recovery;
        this.unit = unit;
    }

    /** Starts copying the task into {@code dir} from {@code sources}, unless a copy of it is under way. */
    void start(TopicPartition tp, Path dir, List<PeerCopy> sources) {
        if (running.containsKey(tp)) {
            return;
        }
        LOG.log(System.Logger.Level.INFO, "unit {0}: task {1} is copied from a peer before it opens here (sources {2})",
                unit, tp, sources);
        CompletableFuture<TaskRecovery.Outcome> f;
        try {
            f = recovery.recover(new TaskId(tp.topic(), tp.partition()), dir, sources);
        } catch (RuntimeException e) {
            f = CompletableFuture.failedFuture(e);
        }
        running.put(tp, f);
        startedNanos.put(tp, System.nanoTime());
    }

    boolean running(TopicPartition tp) {
        return running.containsKey(tp);
    }

    int size() {
        return running.size();
    }

    /** The tasks whose copy has ended since the last call (copied, or failed: they replay from Kafka). */
    List<TopicPartition> finished() {
        if (running.isEmpty()) {
            return List.of();
        }
        List<TopicPartition> done = new ArrayList<>();
        for (Iterator<Map.Entry<TopicPartition, CompletableFuture<TaskRecovery.Outcome>>> it = running.entrySet().iterator();
                it.hasNext();) {
            Map.Entry<TopicPartition, CompletableFuture<TaskRecovery.Outcome>> e = it.next();
            if (!e.getValue().isDone()) {
                continue;
            }
            it.remove();
            TopicPartition tp = e.getKey();
            long ms = (System.nanoTime() - startedNanos.remove(tp)) / 1_000_000;
            try {
                TaskRecovery.Outcome o = e.getValue().join();
                LOG.log(System.Logger.Level.INFO, "unit {0}: task {1} {2} in {3} ms", unit, tp, o.copied()
                        ? "copied from " + o.fromNode() + " (" + o.bytesCopied() + " bytes, checkpoint at offset "
                                + o.checkpointOffset() + ")"
                        : "not copied (it replays its input from Kafka)", ms);
            } catch (RuntimeException ex) {
                LOG.log(System.Logger.Level.WARNING, "unit " + unit + ": the copy of task " + tp + " failed after " + ms
                        + " ms; it replays its input from Kafka", ex);
            }
            done.add(tp);
        }
        return done;
    }
}
