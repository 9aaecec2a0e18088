package io.railgun.node.backend;

import io.railgun.engine.reply.TaskAnswer;
import io.railgun.node.NodeConfig;
import io.railgun.node.agent.Agent;
import io.railgun.node.agent.AgentRunner;
import io.railgun.node.catalog.Catalog;
import io.railgun.node.catalog.StreamEntry;
import io.railgun.node.messaging.KafkaSettings;
import io.railgun.node.messaging.LocalReplies;
import io.railgun.node.messaging.TaskInput;
import io.railgun.node.messaging.TaskReply;
import io.railgun.node.messaging.Topics;
import io.railgun.node.recovery.SnapshotInbox;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
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
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * A processor unit (paper §3): one thread owning a set of tasks, running each single-threaded, so
 * nothing on the event path takes a lock. Its Kafka consumer is a member of the task group; the
 * (topic, partition) pairs Kafka assigns it are its tasks. Assignment is cooperative and sticky: a
 * rebalance moves only the partitions that must move. A task given to the unit is opened from its
 * directory (restoring its last checkpoint) and read from the offset the checkpoint resumes at; a
 * task taken away is closed with a final checkpoint. The unit commits to Kafka the offsets its
 * tasks' checkpoints cover (for lag monitoring: the local checkpoint decides where a task resumes).
 */
public final class ProcessorUnit implements Agent, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ProcessorUnit.class.getName());
    private static final long IDLE_EVERY_NANOS = 100_000_000L;
    private static final long COMMIT_EVERY_NANOS = 1_000_000_000L;

    private final int index;
    private final NodeConfig config;
    private final Catalog catalog;
    private final Path tasksDir;
    private final LocalReplies localReplies;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final KafkaProducer<byte[], byte[]> producer;
    private final TaskReply.Writer writer = new TaskReply.Writer();
    private final Map<TopicPartition, TaskRunner> tasks = new HashMap<>();
    private final AgentRunner runner;
    private long lastIdle = System.nanoTime();
    private long lastCommit = lastIdle;
    private long seenChanges = -1;
    private Set<String> subscribed = Set.of();
    private byte[] lastReplyTopicBytes = new byte[0];
    private String lastReplyTopic = "";
    private final UnitStats stats = new UnitStats();
    private final SnapshotInbox snapshots = new SnapshotInbox();

    public ProcessorUnit(int index, NodeConfig config, Catalog catalog, KafkaSettings kafka, Path tasksDir,
            LocalReplies localReplies) {
        this.index = index;
        this.localReplies = localReplies;
        this.config = config;
        this.catalog = catalog;
        this.tasksDir = tasksDir;
        this.consumer = new KafkaConsumer<>(kafka.unitConsumer(index));
        this.producer = new KafkaProducer<>(kafka.producer("unit-" + index));
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
     * One round: follow catalog changes, poll the unit's partitions, run each record through its
     * task, then, between polls, the tasks' idle work (backfill steps, due checkpoints) and, every
     * second, offset commits and statistics.
     */
    @Override
    public int doWork() {
        snapshots.drain(id -> { // peer recovery: snapshots start on the task's own thread
            TaskRunner t = tasks.get(new TopicPartition(id.topic(), id.partition()));
            return t == null ? null : t.processor();
        });
        if (catalog.changes() != seenChanges) {
            resubscribe();
        }
        if (subscribed.isEmpty()) {
            return 0; // the runner sleeps
        }
        ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(50));
        for (TopicPartition tp : records.partitions()) {
            TaskRunner t = tasks.get(tp);
            if (t != null) { // else revoked in this poll, or of no known stream
                for (ConsumerRecord<byte[], byte[]> r : records.records(tp)) {
                    handle(t, r);
                }
            }
        }
        long now = System.nanoTime();
        if (records.isEmpty() || now - lastIdle > IDLE_EVERY_NANOS) {
            for (TaskRunner t : tasks.values()) {
                t.idle();
            }
            lastIdle = now;
        }
        if (now - lastCommit > COMMIT_EVERY_NANOS) {
            for (TaskRunner t : tasks.values()) {
                t.reportReplay(consumer.position(t.partition));
            }
            commit(tasks.keySet(), false);
            stats.update(tasks.values(), consumer);
            lastCommit = now;
        }
        return Math.max(1, records.count()); // the poll waited already
    }

    @Override
    public void wake() {
        consumer.wakeup();
    }

    @Override
    public void onClose() {
        shutdown();
    }

    private void handle(TaskRunner t, ConsumerRecord<byte[], byte[]> r) {
        TaskAnswer reply;
        try {
            reply = t.handle(r);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "task " + t.partition + ": record at offset " + r.offset() + " failed", e);
            t.processor().skipped(r.offset());
            reply = new TaskAnswer.Error(500, "task_failed", "the task could not process the record: " + e);
        }
        if (reply != null) {
            Header replyTo = r.headers().lastHeader(TaskInput.REPLY_TO);
            Header correlation = r.headers().lastHeader(TaskInput.CORRELATION);
            if (replyTo != null && correlation != null) {
                String topic = replyTopic(replyTo.value());
                if (!localReplies.deliver(topic, TaskInput.correlation(r.headers()), reply)) {
                    producer.send(new ProducerRecord<>(topic, 0, null, null, writer.encode(reply),
                            new RecordHeaders(new Header[] {correlation})));
                }
            }
        }
        stats.records++;
    }

    private String replyTopic(byte[] bytes) {
        if (!java.util.Arrays.equals(bytes, lastReplyTopicBytes)) {
            lastReplyTopicBytes = bytes;
            lastReplyTopic = new String(bytes, StandardCharsets.UTF_8);
        }
        return lastReplyTopic;
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
            closeTasks(new ArrayList<>(tasks.keySet()), true);
        } else {
            consumer.subscribe(topics, new Rebalance());
        }
    }

    private final class Rebalance implements ConsumerRebalanceListener {
        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
            for (TopicPartition tp : partitions) {
                if (tasks.containsKey(tp)) {
                    continue;
                }
                TaskRunner t = open(tp);
                if (t != null) {
                    tasks.put(tp, t);
                    consumer.seek(tp, t.resumeOffset());
                    t.replayFrom(t.resumeOffset(), consumer.endOffsets(List.of(tp)).getOrDefault(tp, 0L));
                } else {
                    consumer.pause(List.of(tp));
                }
            }
            stats.rebalances++;
            stats.joined = true;
            stats.update(tasks.values(), consumer);
            if (!partitions.isEmpty()) {
                LOG.log(System.Logger.Level.INFO, "unit {0}: tasks assigned {1}; it now runs {2} task(s)", index, partitions,
                        tasks.size());
            }
        }

        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
            if (!partitions.isEmpty()) {
                closeTasks(partitions, true);
                stats.update(tasks.values(), consumer);
                LOG.log(System.Logger.Level.INFO, "unit {0}: tasks revoked {1}; it now runs {2} task(s)", index, partitions,
                        tasks.size());
            }
        }

        @Override
        public void onPartitionsLost(Collection<TopicPartition> partitions) {
            closeTasks(partitions, false);
            stats.update(tasks.values(), consumer);
        }
    }

    /** The generation in a topic name {@code railgun.s.<stream>.<generation>.<partitioner>}. */
    private static String generationOf(String topic) {
        int last = topic.lastIndexOf('.');
        return topic.substring(topic.lastIndexOf('.', last - 1) + 1, last);
    }

    private TaskRunner open(TopicPartition tp) {
        String topic = tp.topic();
        String generation = generationOf(topic);
        String legalPartitioner = topic.substring(topic.lastIndexOf('.') + 1);
        StreamEntry stream = catalog.byGeneration().get(generation);
        if (stream == null) {
            LOG.log(System.Logger.Level.WARNING, "unit {0}: partition {1} belongs to no known stream; not run", index, tp);
            return null;
        }
        for (String p : stream.definition().partitioners()) {
            if (Topics.input(stream, p).equals(topic)) {
                Path dir = tasksDir.resolve(stream.name() + "." + generation).resolve(legalPartitioner + "-" + tp.partition());
                return new TaskRunner(tp, stream, p, dir, config);
            }
        }
        return null;
    }

    private void closeTasks(Collection<TopicPartition> partitions, boolean commit) {
        List<TopicPartition> closed = new ArrayList<>();
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        for (TopicPartition tp : partitions) {
            TaskRunner t = tasks.remove(tp);
            if (t == null) {
                continue;
            }
            try {
                t.close();
                offsets.put(tp, new OffsetAndMetadata(t.durableOffset()));
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.ERROR, "task " + tp + " did not close cleanly", e);
            }
            closed.add(tp);
            if (!catalog.byGeneration().containsKey(t.generation)) {
                deleteTree(t.directory);
            }
        }
        offsets.keySet().removeIf(tp -> !catalog.byGeneration().containsKey(generationOf(tp.topic())));
        if (commit && !offsets.isEmpty()) {
            try {
                consumer.commitSync(offsets, Duration.ofSeconds(5));
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.DEBUG, "offsets of closed tasks not committed: " + e);
            }
        }
    }

    private void commit(Collection<TopicPartition> partitions, boolean sync) {
        Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
        Map<String, StreamEntry> live = catalog.byGeneration();
        for (TopicPartition tp : partitions) {
            TaskRunner t = tasks.get(tp);
            long o = t.durableOffset();
            if (o > 0 && live.containsKey(t.generation)) { // a deleted stream's topics are going
                offsets.put(tp, new OffsetAndMetadata(o));
            }
        }
        if (offsets.isEmpty()) {
            return;
        }
        if (sync) {
            consumer.commitSync(offsets, Duration.ofSeconds(5));
        } else {
            consumer.commitAsync(offsets, (done, e) -> {
                if (e != null) {
                    // the next commit covers these offsets; a rebalance in progress is the usual cause
                    LOG.log(System.Logger.Level.DEBUG, "offset commit failed: " + e);
                }
            });
        }
    }

    private void shutdown() {
        try {
            closeTasks(new ArrayList<>(tasks.keySet()), true);
        } finally {
            try {
                consumer.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                        .withTimeout(Duration.ofSeconds(5)));
            } finally {
                producer.close(Duration.ofSeconds(5));
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

    /** Stops the unit: its tasks take a final checkpoint, then it leaves the group. */
    @Override
    public void close() {
        runner.close();
    }
}
