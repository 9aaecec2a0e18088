package io.railgun.node.backend;

import io.railgun.node.assignment.CopyRole;
import io.railgun.node.assignment.HeldCopy;
import io.railgun.node.assignment.MemberAssignment;
import io.railgun.node.catalog.Catalog;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The tasks of one processor unit and their roles: the partitions Kafka assigns the unit are its
 * active tasks, read by its group consumer; the replicas the group's plan gives it are read by its
 * {@link ReplicaReader}. Opens, moves (promotion, demotion: in place, the open task changes
 * consumer and reads on from its next offset) and closes tasks as Kafka's callbacks and the plan
 * say, and waits for tasks being copied from peers ({@link TaskRecoveries}). The open tasks
 * themselves, and opening and closing one, are in {@link OpenTasks}.
 *
 * <p>Kafka calls {@link #revoked} before the plan ({@link #planned}) and {@link #assigned} after it,
 * all from inside the unit's poll: a revoked task stays open until the plan is applied after the
 * poll ({@link #reconcileIfNeeded}), as a replica if the plan keeps it here, else closed.
 *
 * <p>Not thread-safe: the unit's thread only.
 */
final class UnitTasks {
    private static final System.Logger LOG = System.getLogger(UnitTasks.class.getName());

    private final int index;
    private final Catalog catalog;
    private final Consumer<byte[], byte[]> consumer;
    private final ReplicaReader replicas;
    private final TaskOpener opener;
    private final TaskRecoveries recoveries;
    private final UnitStats stats;
    /** Every task open here, active or replica. */
    private final OpenTasks tasks;
    /** The partitions Kafka assigns the unit (open, being copied, or of no known stream). */
    private final Set<TopicPartition> actives = new HashSet<>();
    private Set<TopicPartition> plannedReplicas = Set.of();
    private Map<TopicPartition, List<MemberAssignment.PeerCopy>> plannedSources = Map.of();
    private boolean reconcile;
    /** Replicas whose input Kafka no longer holds from their offset: not reopened until the next plan. */
    private final Set<TopicPartition> unreadable = new HashSet<>();

    UnitTasks(int index, Catalog catalog, Consumer<byte[], byte[]> consumer, ReplicaReader replicas,
            TaskOpener opener, StaleCopies stale, TaskRecoveries recoveries, UnitStats stats) {
        this.index = index;
        this.catalog = catalog;
        this.consumer = consumer;
        this.replicas = replicas;
        this.opener = opener;
        this.recoveries = recoveries;
        this.stats = stats;
        this.tasks = new OpenTasks(index, catalog, replicas, opener, stale, stats);
    }

    /** The open task reading {@code tp} in this role, or null (moved in this poll, or of no known stream). */
    TaskRunner runner(TopicPartition tp, boolean active) {
        TaskRunner t = tasks.get(tp);
        return t != null && actives.contains(tp) == active ? t : null;
    }

    Collection<TaskRunner> all() {
        return tasks.all();
    }

    /** Whether replicas or copies from peers wait for the unit's rounds. */
    boolean hasBackgroundWork() {
        return !replicas.isEmpty() || recoveries.size() > 0;
    }

    /** The catalog changed: tasks of streams it did not know may open now, of deleted ones close. */
    void catalogChanged() {
        reconcile = true;
    }

    /** The copies the unit holds, as it advertises them to the task group (stale ones are added by the caller). */
    List<HeldCopy> held() {
        List<HeldCopy> held = new ArrayList<>();
        for (TaskRunner t : tasks.all()) {
            held.add(new HeldCopy(OpenTasks.taskId(t.partition), actives.contains(t.partition) ? CopyRole.ACTIVE : CopyRole.REPLICA,
                    t.durableOffset()));
        }
        return held;
    }

    /** The group's plan for the unit (before {@link #assigned}): its replicas, and where to copy tasks it lacks. */
    void planned(MemberAssignment plan, int generation) {
        Set<TopicPartition> r = new HashSet<>();
        plan.replicas().forEach(t -> r.add(new TopicPartition(t.topic(), t.partition())));
        Map<TopicPartition, List<MemberAssignment.PeerCopy>> sources = new HashMap<>();
        plan.sources().forEach((t, s) -> sources.put(new TopicPartition(t.topic(), t.partition()), s));
        plannedReplicas = r;
        plannedSources = sources;
        unreadable.clear(); // the plan knows what they lack, and may name peers to copy them from
        reconcile = true;
        LOG.log(System.Logger.Level.DEBUG, "unit {0}: plan of generation {1}: {2} active(s), replicas {3}", index,
                generation, plan.actives().size(), plan.replicas());
    }

    void assigned(Collection<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            if (!actives.add(tp)) {
                continue;
            }
            TaskRunner t = tasks.get(tp);
            if (t != null) { // open here: a replica promoted in place, or an active revoked and given back
                boolean wasReplica = replicas.reads(tp);
                replicas.remove(tp);
                consumer.seek(tp, t.resumeOffset());
                if (wasReplica) {
                    stats.promotions++;
                    LOG.log(System.Logger.Level.INFO, "unit {0}: task {1} promoted from replica to active at offset {2}"
                            + " (no copy, no replay)", index, tp, t.resumeOffset());
                }
            } else if (!startCopy(tp)) {
                openActive(tp);
            } else {
                consumer.pause(List.of(tp));
            }
        }
        stats.rebalances++;
        stats.joined = true;
        publishStats();
        if (!partitions.isEmpty()) {
            LOG.log(System.Logger.Level.INFO, "unit {0}: tasks assigned {1}; it now runs {2} active task(s)", index,
                    partitions, actives.size());
        }
    }

    /**
     * Partitions revoked (or lost: then nothing is committed). The tasks stay open until the plan
     * is applied after the poll (Kafka calls this before it hands the plan over): kept as replicas
     * when the plan says so, else closed.
     */
    void revoked(Collection<TopicPartition> partitions, boolean commit) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TopicPartition tp : partitions) {
            if (!actives.remove(tp)) {
                continue;
            }
            TaskRunner t = tasks.get(tp);
            if (t != null && t.durableOffset() > 0 && opener.known(tp.topic())) {
                offsets.put(tp, new OffsetAndMetadata(t.durableOffset()));
            }
        }
        reconcile = true;
        if (commit) {
            commitSync(offsets, "revoked");
        }
        if (!partitions.isEmpty()) {
            LOG.log(System.Logger.Level.INFO, "unit {0}: tasks {1} {2}; it now runs {3} active task(s)", index, partitions,
                    commit ? "revoked" : "lost", actives.size());
        }
    }

    /** Starts copying {@code tp} from a peer when the plan says this unit lacks it; false when it does not. */
    private boolean startCopy(TopicPartition tp) {
        if (recoveries.running(tp)) {
            return true;
        }
        List<MemberAssignment.PeerCopy> sources = plannedSources.get(tp);
        Path dir = opener.directory(tp);
        if (sources == null || sources.isEmpty() || dir == null) {
            return false;
        }
        recoveries.start(tp, dir, sources);
        return true;
    }

    private void openActive(TopicPartition tp) {
        TaskRunner t = tasks.open(tp);
        if (t == null) {
            consumer.pause(List.of(tp)); // unserved until its stream is known
            return;
        }
        checkHistory(tp, t);
        consumer.seek(tp, t.resumeOffset());
        consumer.resume(List.of(tp));
        t.replayFrom(t.resumeOffset(), consumer.endOffsets(List.of(tp)).getOrDefault(tp, 0L));
    }

    private void openReplica(TopicPartition tp) {
        TaskRunner t = tasks.open(tp);
        if (t != null) {
            replicas.add(tp, t.resumeOffset());
            t.replayFrom(t.resumeOffset(), replicas.endOffset(tp));
            LOG.log(System.Logger.Level.INFO, "unit {0}: replica of task {1} opened at offset {2}", index, tp,
                    t.resumeOffset());
        }
    }

    /**
     * When retention deleted input an active task had to start from ({@link HistoryGaps}: logged and
     * counted), the task takes its metrics from the catalog, whose DDL markers may be gone too. (A
     * replica in that case stops and waits for a copy: {@link #replicasOutOfRange}.)
     */
    private void checkHistory(TopicPartition tp, TaskRunner t) {
        long earliest = consumer.beginningOffsets(List.of(tp)).getOrDefault(tp, 0L);
        if (t.checkHistory(stats.historyGaps(), earliest)) {
            io.railgun.node.catalog.StreamEntry entry = catalog.byGeneration().get(t.generation);
            if (entry != null) {
                t.adoptCatalogMetrics(entry);
            }
        }
    }

    /**
     * Replicas whose next records Kafka no longer holds (its retention passed them): closed, kept on
     * disk as stale copies, and left until the next plan, which may have them copied from a peer.
     */
    void replicasOutOfRange(Set<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            TaskRunner t = tasks.get(tp);
            LOG.log(System.Logger.Level.ERROR, "unit {0}: replica of task {1} stopped: Kafka no longer holds its input"
                    + " from offset {2} (retention); it is not run here until a plan gives it a copy from a peer", index,
                    tp, t == null ? -1 : t.resumeOffset());
            if (!actives.contains(tp)) {
                tasks.close(tp);
                unreadable.add(tp);
            }
        }
        publishStats();
    }

    /** Opens the tasks whose copy from a peer ended, in the role they have now (if they still have one here). */
    void openRecovered() {
        for (TopicPartition tp : recoveries.finished()) {
            opened(tp);
        }
    }

    private void opened(TopicPartition tp) {
        if (actives.contains(tp)) {
            openActive(tp);
        } else if (plannedReplicas.contains(tp) && !tasks.isOpen(tp)) {
            openReplica(tp);
        }
    }

    /** Applies the plan's replicas: demotes, opens or copies those it names, closes the others not active. */
    void reconcileIfNeeded() {
        if (!reconcile) {
            return;
        }
        reconcile = false;
        for (TopicPartition tp : actives) {
            if (!tasks.isOpen(tp) && !recoveries.running(tp) && opener.known(tp.topic())) {
                openActive(tp); // unserved until its stream reached this node's catalog
            }
        }
        for (TopicPartition tp : plannedReplicas) {
            if (actives.contains(tp) || recoveries.running(tp) || unreadable.contains(tp) || !opener.known(tp.topic())) {
                continue;
            }
            TaskRunner t = tasks.get(tp);
            if (t != null) {
                if (!replicas.reads(tp)) { // an active revoked in the last poll
                    replicas.add(tp, t.resumeOffset());
                    stats.demotions++;
                    LOG.log(System.Logger.Level.INFO, "unit {0}: task {1} demoted from active to replica at offset {2}",
                            index, tp, t.resumeOffset());
                }
            } else if (!startCopy(tp)) {
                openReplica(tp);
            }
        }
        for (TopicPartition tp : tasks.partitions()) {
            if (!actives.contains(tp) && (!plannedReplicas.contains(tp) || !opener.known(tp.topic()))) {
                tasks.close(tp);
            }
        }
        publishStats();
    }

    /** The unit unsubscribed: every task closes, nothing is planned any more. */
    void dropAll() {
        closeAll(false);
        actives.clear();
        plannedReplicas = Set.of();
    }

    /** Closes every task (final checkpoints); commits the active ones' offsets when {@code commit}. */
    void closeAll(boolean commit) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TopicPartition tp : tasks.partitions()) {
            TaskRunner t = tasks.get(tp);
            boolean active = actives.contains(tp);
            tasks.close(tp);
            if (active && opener.known(tp.topic())) {
                offsets.put(tp, new OffsetAndMetadata(t.durableOffset()));
            }
        }
        if (commit) {
            commitSync(offsets, "closed");
        }
    }

    /** Commits now, waiting; a failure is only logged (the next commit, or the next owner's replay, covers it). */
    private void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, String which) {
        if (offsets.isEmpty()) {
            return;
        }
        try {
            consumer.commitSync(offsets, Duration.ofSeconds(5));
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "offsets of " + which + " tasks not committed: " + e);
        }
    }

    /** Commits what the active tasks' checkpoints cover (replicas never commit). */
    void commitActives() {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TopicPartition tp : actives) {
            TaskRunner t = tasks.get(tp);
            if (t != null && t.durableOffset() > 0 && opener.known(tp.topic())) { // a deleted stream's topics are going
                offsets.put(tp, new OffsetAndMetadata(t.durableOffset()));
            }
        }
        if (!offsets.isEmpty()) {
            consumer.commitAsync(offsets, (done, e) -> {
                if (e != null) {
                    // the next commit covers these offsets; a rebalance in progress is the usual cause
                    LOG.log(System.Logger.Level.DEBUG, "offset commit failed: " + e);
                }
            });
        }
    }

    void publishStats() {
        List<TaskRunner> active = new ArrayList<>();
        List<TaskRunner> replica = new ArrayList<>();
        for (TaskRunner t : tasks.all()) {
            (actives.contains(t.partition) ? active : replica).add(t);
        }
        int notRun = 0;
        for (TopicPartition tp : actives) {
            if (!tasks.isOpen(tp) && !recoveries.running(tp)) {
                notRun++;
            }
        }
        stats.update(active, replica, consumer, replicas, recoveries.size(), notRun);
    }
}
