package io.railgun.node.backend;

import io.railgun.node.NodeConfig;
import io.railgun.node.agent.Agent;
import io.railgun.node.agent.AgentRunner;
import io.railgun.node.assignment.AssignmentHolder;
import io.railgun.node.assignment.CopyRole;
import io.railgun.node.assignment.HeldCopy;
import io.railgun.node.assignment.MemberAssignment;
import io.railgun.node.assignment.MemberInfo;
import io.railgun.node.catalog.Catalog;
import io.railgun.node.catalog.StreamEntry;
import io.railgun.node.messaging.KafkaSettings;
import io.railgun.node.messaging.LocalReplies;
import io.railgun.node.messaging.Topics;
import io.railgun.node.recovery.TaskRecovery;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.TopicPartition;

/**
 * A processor unit (paper §3): one thread owning a set of tasks, running each single-threaded, so
 * nothing on the event path takes a lock. Its Kafka consumer is a member of the task group; the
 * (topic, partition) pairs Kafka assigns it are its active tasks. Assignment is cooperative and
 * sticky: a rebalance moves only the partitions that must move.
 *
 * <p>Replicas (docs/distribution.md § Replica tasks): the group's plan may also give the unit hot
 * replicas of tasks active elsewhere ({@link #planned}). A replica is opened like an active task and
 * read by the unit's second, group-less consumer ({@link ReplicaReader}) from the offset it resumes
 * at; it answers like the active (the front-end counts each task once). Each round polls the
 * actives first, then a bounded batch of replica records. A replica that becomes active on this
 * unit is promoted in place: the open task moves to the active consumer, which reads on from the
 * task's next offset (no copy, no replay); an active that the plan keeps here as replica is demoted
 * the same way. A task this unit lacks (the plan names peers holding it) is first copied by
 * {@link TaskRecovery}, its partition not read meanwhile.
 *
 * <p>A task opens from its directory (restoring its last checkpoint) and leaves with a final
 * checkpoint. The unit commits to Kafka the offsets its active tasks' checkpoints cover (for lag
 * monitoring: the local checkpoint decides where a task resumes).
 *
 * <p>Threads: everything runs on the unit's agent thread, Kafka's callbacks and the
 * {@link AssignmentHolder} calls included (from inside the consumer's poll); {@link #stop},
 * {@link #halt}, {@link #close} and {@link #stats} from any thread.
 */
public final class ProcessorUnit implements Agent, AssignmentHolder, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ProcessorUnit.class.getName());
    private static final long IDLE_EVERY_NANOS = 100_000_000L;
    private static final long COMMIT_EVERY_NANOS = 1_000_000_000L;
    /** The unit sets no cap of its own on the task copies it runs: the plan balances them by load. */
    public static final int UNBOUNDED_BUDGET = Integer.MAX_VALUE;

    private final int index;
    private final int units;
    private final NodeConfig config;
    private final Catalog catalog;
    private final Supplier<String> nodeUrl;
    private final TaskOpener opener;
    private final StaleCopies stale;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final ReplicaReader replicas;
    private final KafkaProducer<byte[], byte[]> producer;
    private final TaskRecoveries recoveries;
    private final TaskInputHandler input;
    /** Every task open here, active or replica. */
    private final Map<TopicPartition, TaskRunner> runners = new HashMap<>();
    /** The partitions Kafka assigns the unit (open, being copied, or of no known stream). */
    private final Set<TopicPartition> actives = new HashSet<>();
    private Set<TopicPartition> plannedReplicas = Set.of();
    private Map<TopicPartition, List<MemberAssignment.PeerCopy>> plannedSources = Map.of();
    private boolean reconcile;
    private final AgentRunner runner;
    private final UnitStats stats = new UnitStats();
    private long lastIdle = System.nanoTime();
    private long lastCommit = lastIdle;
    private long seenChanges = -1;
    private Set<String> subscribed = Set.of();
    private volatile boolean leaveGroup = true;

    /**
     * @param units    the node's unit count (stale copies are advertised by one unit each)
     * @param nodeUrl  the node's internal base URL, where peers copy tasks from (known once HTTP listens)
     */
    public ProcessorUnit(int index, int units, NodeConfig config, Catalog catalog, KafkaSettings kafka, Path tasksDir,
            LocalReplies localReplies, StaleCopies stale, TaskRecovery recovery, Supplier<String> nodeUrl) {
        this.index = index;
        this.units = units;
        this.config = config;
        this.catalog = catalog;
        this.nodeUrl = nodeUrl;
        this.opener = new TaskOpener(config, catalog, tasksDir);
        this.stale = stale;
        this.consumer = new KafkaConsumer<>(kafka.unitConsumer(index, this, config.replication()));
        this.replicas = new ReplicaReader(kafka.replicaConsumer(index));
        this.producer = new KafkaProducer<>(kafka.producer("unit-" + index));
        this.recoveries = new TaskRecoveries(recovery, index);
        this.input = new TaskInputHandler(localReplies, producer, config.requestTimeoutMs(), stats);
        this.runner = new AgentRunner(this, Duration.ofMillis(50), Duration.ofSeconds(60), false);
    }

    public void start() {
        runner.start();
    }

    @Override
    public String roleName() {
        return "railgun-unit-" + index;
    }

    public UnitStats stats() {
        return stats;
    }

    /**
     * One round: follow catalog changes, poll the active tasks' partitions and run their records,
     * apply the plan's replicas, open tasks whose copy from a peer ended, run a batch of replica
     * records, then, between polls, the tasks' idle work (backfill steps, due checkpoints) and,
     * every second, offset commits and statistics.
     */
    @Override
    public int doWork() {
        if (catalog.changes() != seenChanges) {
            resubscribe();
            reconcile = true;
        }
        if (subscribed.isEmpty()) {
            return 0; // the runner sleeps
        }
        // replicas and copies wait behind the active poll: it waits less when they have work
        boolean others = !replicas.isEmpty() || recoveries.size() > 0;
        ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(others ? 5 : 50));
        long nowMs = System.currentTimeMillis();
        int work = run(records, true, nowMs);
        if (reconcile) {
            reconcileReplicas();
        }
        for (TopicPartition tp : recoveries.finished()) {
            opened(tp);
        }
        work += run(replicas.poll(), false, nowMs);
        long now = System.nanoTime();
        if (work == 0 || now - lastIdle > IDLE_EVERY_NANOS) {
            for (TaskRunner t : runners.values()) {
                t.idle();
            }
            lastIdle = now;
        }
        if (now - lastCommit > COMMIT_EVERY_NANOS) {
            for (TaskRunner t : runners.values()) {
                t.reportReplay(t.resumeOffset());
            }
            commitActives();
            publishStats();
            lastCommit = now;
        }
        return Math.max(1, work); // the poll waited already
    }

    /** Runs the records of tasks open here in the role the consumer reads them for. */
    private int run(ConsumerRecords<byte[], byte[]> records, boolean active, long nowMs) {
        for (TopicPartition tp : records.partitions()) {
            TaskRunner t = runners.get(tp);
            if (t != null && actives.contains(tp) == active) { // else moved in this poll, or of no known stream
                for (ConsumerRecord<byte[], byte[]> r : records.records(tp)) {
                    input.handle(t, r, nowMs);
                }
            }
        }
        return records.count();
    }

    @Override
    public void wake() {
        consumer.wakeup();
        replicas.wake();
    }

    @Override
    public void onClose() {
        shutdown();
    }

    // ---- the task group's plan (AssignmentHolder), from inside the consumer's poll

    @Override
    public MemberInfo describe(String memberId) {
        List<HeldCopy> held = new ArrayList<>();
        for (TaskRunner t : runners.values()) {
            held.add(new HeldCopy(taskId(t.partition), actives.contains(t.partition) ? CopyRole.ACTIVE : CopyRole.REPLICA,
                    t.durableOffset()));
        }
        held.addAll(stale.advertised(index, units, opener::known));
        return new MemberInfo(memberId, config.nodeId(), nodeUrl.get(), index, UNBOUNDED_BUDGET, held);
    }

    @Override
    public void planned(MemberAssignment plan, int generation) {
        Set<TopicPartition> r = new HashSet<>();
        plan.replicas().forEach(t -> r.add(new TopicPartition(t.topic(), t.partition())));
        Map<TopicPartition, List<MemberAssignment.PeerCopy>> sources = new HashMap<>();
        plan.sources().forEach((t, s) -> sources.put(new TopicPartition(t.topic(), t.partition()), s));
        plannedReplicas = r;
        plannedSources = sources;
        reconcile = true;
        LOG.log(System.Logger.Level.DEBUG, "unit {0}: plan of generation {1}: {2} active(s), replicas {3}", index,
                generation, plan.actives().size(), plan.replicas());
    }

    private static io.railgun.node.assignment.TaskId taskId(TopicPartition tp) {
        return new io.railgun.node.assignment.TaskId(tp.topic(), tp.partition());
    }

    // ---- Kafka's rebalance callbacks (UnitRebalance)

    void assigned(Collection<TopicPartition> partitions) {
        for (TopicPartition tp : partitions) {
            if (!actives.add(tp)) {
                continue;
            }
            TaskRunner t = runners.get(tp);
            if (t != null) { // a replica here: promoted in place
                replicas.remove(tp);
                consumer.seek(tp, t.resumeOffset());
                stats.promotions++;
                LOG.log(System.Logger.Level.INFO, "unit {0}: task {1} promoted from replica to active at offset {2}"
                        + " (no copy, no replay)", index, tp, t.resumeOffset());
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
            TaskRunner t = runners.get(tp);
            if (t != null && t.durableOffset() > 0 && opener.known(tp.topic())) {
                offsets.put(tp, new OffsetAndMetadata(t.durableOffset()));
            }
        }
        reconcile = true;
        if (commit && !offsets.isEmpty()) {
            try {
                consumer.commitSync(offsets, Duration.ofSeconds(5));
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "offsets of revoked tasks not committed: " + e);
            }
        }
        if (!partitions.isEmpty()) {
            LOG.log(System.Logger.Level.INFO, "unit {0}: tasks {1} {2}; it now runs {3} active task(s)", index, partitions,
                    commit ? "revoked" : "lost", actives.size());
        }
    }

    // ---- opening, moving and closing tasks

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
        TaskRunner t = open(tp);
        if (t == null) {
            consumer.pause(List.of(tp)); // unserved until its stream is known
            return;
        }
        consumer.seek(tp, t.resumeOffset());
        consumer.resume(List.of(tp));
        t.replayFrom(t.resumeOffset(), consumer.endOffsets(List.of(tp)).getOrDefault(tp, 0L));
    }

    private void openReplica(TopicPartition tp) {
        TaskRunner t = open(tp);
        if (t != null) {
            replicas.add(tp, t.resumeOffset());
            t.replayFrom(t.resumeOffset(), replicas.endOffset(tp));
            LOG.log(System.Logger.Level.INFO, "unit {0}: replica of task {1} opened at offset {2}", index, tp,
                    t.resumeOffset());
        }
    }

    private TaskRunner open(TopicPartition tp) {
        TaskRunner t = opener.open(tp, index);
        if (t != null) {
            runners.put(tp, t);
            stale.opened(taskId(tp));
            stats.opens++;
        }
        return t;
    }

    /** A copy from a peer ended: the task opens in the role it has now (if it still has one here). */
    private void opened(TopicPartition tp) {
        if (actives.contains(tp)) {
            openActive(tp);
        } else if (plannedReplicas.contains(tp) && !runners.containsKey(tp)) {
            openReplica(tp);
        }
    }

    /** Applies the plan's replicas: demotes, opens or copies those it names, closes the others not active. */
    private void reconcileReplicas() {
        reconcile = false;
        for (TopicPartition tp : actives) {
            if (!runners.containsKey(tp) && !recoveries.running(tp) && opener.known(tp.topic())) {
                openActive(tp); // unserved until its stream reached this node's catalog
            }
        }
        for (TopicPartition tp : plannedReplicas) {
            if (actives.contains(tp) || recoveries.running(tp) || !opener.known(tp.topic())) {
                continue;
            }
            TaskRunner t = runners.get(tp);
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
        for (TopicPartition tp : new ArrayList<>(runners.keySet())) {
            if (!actives.contains(tp) && (!plannedReplicas.contains(tp) || !opener.known(tp.topic()))) {
                close(tp);
            }
        }
        publishStats();
    }

    /** Closes the task with a final checkpoint; its files stay (a stale copy) unless its stream was deleted. */
    private void close(TopicPartition tp) {
        TaskRunner t = runners.remove(tp);
        replicas.remove(tp);
        if (t == null) {
            return;
        }
        try {
            t.close();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "task " + tp + " did not close cleanly", e);
        }
        if (!catalog.byGeneration().containsKey(t.generation)) {
            deleteTree(t.directory);
            stale.deleted(taskId(tp));
        } else {
            stale.closed(taskId(tp), t.durableOffset());
        }
    }

    private void resubscribe() {
        seenChanges = catalog.changes();
        Set<String> topics = new HashSet<>();
        for (StreamEntry s : catalog.streams()) {
            for (String p : s.definition().partitioners()) {
                topics.add(Topics.input(s, p));
            }
        }
        if (topics.isEmpty() && stats.rebalances == 0) {
            stats.joined = true; // nothing to join yet; later subscriptions do not make the unit "joining" again
        }
        if (topics.equals(subscribed)) {
            return;
        }
        subscribed = topics;
        if (topics.isEmpty()) {
            consumer.unsubscribe();
            actives.clear();
            plannedReplicas = Set.of();
            closeAll(false);
        } else {
            consumer.subscribe(topics, new UnitRebalance(this));
        }
    }

    private void closeAll(boolean commit) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TopicPartition tp : new ArrayList<>(runners.keySet())) {
            TaskRunner t = runners.get(tp);
            boolean active = actives.contains(tp);
            close(tp);
            if (active && opener.known(tp.topic())) {
                offsets.put(tp, new OffsetAndMetadata(t.durableOffset()));
            }
        }
        if (commit && !offsets.isEmpty()) {
            try {
                consumer.commitSync(offsets, Duration.ofSeconds(5));
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "offsets of closed tasks not committed: " + e);
            }
        }
    }

    /** Commits what the active tasks' checkpoints cover (replicas never commit). */
    private void commitActives() {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TopicPartition tp : actives) {
            TaskRunner t = runners.get(tp);
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

    private void publishStats() {
        List<TaskRunner> active = new ArrayList<>();
        List<TaskRunner> replica = new ArrayList<>();
        for (TaskRunner t : runners.values()) {
            (actives.contains(t.partition) ? active : replica).add(t);
        }
        int notRun = 0;
        for (TopicPartition tp : actives) {
            if (!runners.containsKey(tp) && !recoveries.running(tp)) {
                notRun++;
            }
        }
        stats.update(active, replica, consumer, replicas, recoveries.size(), notRun);
    }

    private void shutdown() {
        try {
            closeAll(leaveGroup);
        } finally {
            try {
                consumer.close(CloseOptions.groupMembershipOperation(leaveGroup
                        ? CloseOptions.GroupMembershipOperation.LEAVE_GROUP
                        : CloseOptions.GroupMembershipOperation.REMAIN_IN_GROUP).withTimeout(Duration.ofSeconds(5)));
            } finally {
                try {
                    replicas.close();
                } finally {
                    producer.close(Duration.ofSeconds(5));
                }
            }
        }
    }

    static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "could not delete " + dir + ": " + e);
        }
    }

    /** Asks the unit to stop (without waiting): a node stops all its units at once, then waits for them. */
    public void stop() {
        runner.stop();
    }

    /**
     * Asks the unit to stop as a crashed one looks to the task group: it does not leave the group,
     * so its tasks move only once its session times out (fault tests). Its tasks still close.
     */
    public void halt() {
        leaveGroup = false;
        runner.stop();
    }

    /** Stops the unit: its tasks take a final checkpoint, then it leaves the group. */
    @Override
    public void close() {
        runner.close();
    }
}
