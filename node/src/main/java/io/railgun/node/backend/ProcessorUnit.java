package io.railgun.node.backend;

import io.railgun.engine.state.durable.StateMemory;
import io.railgun.node.NodeConfig;
import io.railgun.node.agent.Agent;
import io.railgun.node.agent.AgentRunner;
import io.railgun.node.assignment.AssignmentHolder;
import io.railgun.node.assignment.HeldCopy;
import io.railgun.node.assignment.MemberAssignment;
import io.railgun.node.assignment.MemberInfo;
import io.railgun.node.catalog.Catalog;
import io.railgun.node.catalog.StreamEntry;
import io.railgun.node.messaging.KafkaSettings;
import io.railgun.node.messaging.LocalReplies;
import io.railgun.node.messaging.Topics;
import io.railgun.node.recovery.SnapshotInbox;
import io.railgun.node.recovery.TaskRecovery;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
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
    /** Records of a partition whose lookups are prefetched together before they are handled (as {@code bench/run engine}). */
    private static final int PREFETCH_GROUP = 16;
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
    private final TaskInputHandler input;
    private final UnitTasks tasks;
    private final Set<TopicPartition> outOfRange = new HashSet<>();
    private final AgentRunner runner;
    private final UnitStats stats = new UnitStats();
    private long lastIdle = System.nanoTime();
    private long lastCommit = lastIdle;
    private long seenChanges = -1;
    private Set<String> subscribed = Set.of();
    private volatile boolean leaveGroup = true;
    /** Why the last plan asked for a rebalance (set inside the poll, acted on after it), or null. */
    private String rebalanceDue;
    private final SnapshotInbox snapshots = new SnapshotInbox();

    /**
     * @param units    the node's unit count (stale copies are advertised by one unit each)
     * @param nodeUrl  the node's internal base URL, where peers copy tasks from (known once HTTP listens)
     * @param stateMemory the node's state memory budget, shared by every task of every unit
     */
    public ProcessorUnit(int index, int units, NodeConfig config, Catalog catalog, KafkaSettings kafka, Path tasksDir,
            LocalReplies localReplies, StaleCopies stale, TaskRecovery recovery, Supplier<String> nodeUrl,
            StateMemory stateMemory) {
        this.index = index;
        this.units = units;
        this.config = config;
        this.catalog = catalog;
        this.nodeUrl = nodeUrl;
        this.opener = new TaskOpener(config, catalog, tasksDir, stateMemory);
        this.stale = stale;
        this.consumer = new KafkaConsumer<>(kafka.unitConsumer(index, this, config.replication()));
        this.replicas = new ReplicaReader(kafka.replicaConsumer(index));
        this.producer = new KafkaProducer<>(kafka.producer("unit-" + index));
        this.tasks = new UnitTasks(index, catalog, consumer, replicas, opener, stale, new TaskRecoveries(recovery, index),
                stats);
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

    /** Where the node's snapshot server asks this unit for snapshots of its tasks (peer recovery). */
    public SnapshotInbox snapshotInbox() {
        return snapshots;
    }

    /**
     * One round: follow catalog changes, poll the active tasks' partitions and run their records,
     * apply the plan's replicas, open tasks whose copy from a peer ended, run a batch of replica
     * records, then, between polls, the tasks' idle work (backfill steps, due checkpoints) and,
     * every second, offset commits and statistics.
     */
    @Override
    public int doWork() {
        snapshots.drain(id -> { // peer recovery: snapshots start on the task's own thread (active or replica)
            TopicPartition tp = new TopicPartition(id.topic(), id.partition());
            TaskRunner t = tasks.runner(tp, true);
            t = t != null ? t : tasks.runner(tp, false);
            return t == null ? null : t.processor();
        });
        if (catalog.changes() != seenChanges) {
            resubscribe();
            tasks.catalogChanged();
        }
        if (subscribed.isEmpty()) {
            return 0; // the runner sleeps
        }
        // replicas and copies wait behind the active poll: it waits less when they have work
        ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(tasks.hasBackgroundWork() ? 5 : 50));
        if (rebalanceDue != null) {
            LOG.log(System.Logger.Level.INFO, "unit {0}: asks the task group for a rebalance: {1}", index, rebalanceDue);
            consumer.enforceRebalance(rebalanceDue);
            rebalanceDue = null;
        }
        long nowMs = System.currentTimeMillis();
        int work = run(records, true, nowMs);
        tasks.reconcileIfNeeded();
        tasks.openRecovered();
        work += run(replicas.poll(outOfRange), false, nowMs);
        if (!outOfRange.isEmpty()) {
            tasks.replicasOutOfRange(outOfRange);
            outOfRange.clear();
        }
        long now = System.nanoTime();
        // when idle, as often as a 50 ms poll would come back empty (the poll is shorter with replicas)
        if (work == 0 && now - lastIdle > IDLE_EVERY_NANOS / 2 || now - lastIdle > IDLE_EVERY_NANOS) {
            for (TaskRunner t : tasks.all()) {
                t.idle();
            }
            lastIdle = now;
        }
        if (now - lastCommit > COMMIT_EVERY_NANOS) {
            for (TaskRunner t : tasks.all()) {
                t.reportReplay(t.resumeOffset());
            }
            tasks.commitActives();
            tasks.publishStats();
            lastCommit = now;
        }
        return Math.max(1, work); // the poll waited already
    }

    /** Runs the records of tasks open here in the role the consumer reads them for. */
    private int run(ConsumerRecords<byte[], byte[]> records, boolean active, long nowMs) {
        for (TopicPartition tp : records.partitions()) {
            TaskRunner t = tasks.runner(tp, active);
            if (t != null) { // else moved in this poll, or of no known stream
                runPartition(t, records.records(tp), nowMs);
            }
        }
        return records.count();
    }

    /** Runs a partition's records on its task, each group's lookups prefetched together (TaskProcessor.prefetch). */
    private void runPartition(TaskRunner t, List<ConsumerRecord<byte[], byte[]>> rs, long nowMs) {
        for (int i = 0; i < rs.size(); i++) {
            if (i % PREFETCH_GROUP == 0 && rs.size() > 1) {
                for (int j = i; j < Math.min(rs.size(), i + PREFETCH_GROUP); j++) {
                    t.prefetch(rs.get(j));
                }
            }
            input.handle(t, rs.get(i), nowMs);
        }
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
        List<HeldCopy> held = tasks.held();
        held.addAll(stale.advertised(index, units, opener::known));
        return new MemberInfo(memberId, config.nodeId(), nodeUrl.get(), index, UNBOUNDED_BUDGET, held);
    }

    @Override
    public void planned(MemberAssignment plan, int generation) {
        rebalanceDue = null; // a poll may complete two rounds: only the last plan's ask counts
        tasks.planned(plan, generation);
    }

    @Override
    public void rebalanceDue(String reason) {
        rebalanceDue = reason; // after the poll: Kafka is in the middle of completing the join
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
            tasks.dropAll();
        } else {
            consumer.subscribe(topics, new UnitRebalance(tasks));
        }
    }

    private void shutdown() {
        try {
            tasks.closeAll(leaveGroup);
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
