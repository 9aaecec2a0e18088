package io.railgun.node.backend;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.plan.MetricDefinition;
import io.railgun.engine.reply.TaskAnswer;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.state.durable.DurableStateOptions;
import io.railgun.engine.state.durable.StateMemory;
import io.railgun.engine.task.Reply;
import io.railgun.engine.task.TaskOptions;
import io.railgun.engine.task.TaskProcessor;
import io.railgun.engine.task.TaskStorage;
import io.railgun.node.NodeConfig;
import io.railgun.node.catalog.CatalogCodec;
import io.railgun.node.catalog.StatementEntry;
import io.railgun.node.catalog.StreamEntry;
import io.railgun.node.messaging.TaskInput;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * One task — one (stream partitioner topic, partition) — as a processor unit runs it: a durable
 * {@link TaskProcessor} fed the partition's records in order. Events are processed and answered;
 * DDL markers change the task's metrics or schema at their point of the input; point reads are
 * answered. Every record moves the task's input offset, so a restart resumes after it.
 */
final class TaskRunner implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(TaskRunner.class.getName());

    final TopicPartition partition;
    final Path directory;
    final String generation;
    /** The index of the task's partitioner in its stream: which of an event's tasks this is (its replies say so). */
    final int part;
    private final String streamName;
    private final String partitioner;
    /** Events processed since the task was opened here (read by {@link #stats}, on the unit's thread). */
    private long events;
    private StreamDefinition definition;
    private final RecordClock clock = new RecordClock();
    private final TaskProcessor task;
    private final EventRow row = new EventRow();

    /**
     * Opens (restoring its last checkpoint) the task of {@code partition}, its state within the
     * node's {@code memory} budget (its share shrinks as other tasks open, grows as they close).
     */
    TaskRunner(TopicPartition partition, StreamEntry stream, String partitioner, Path directory, NodeConfig config,
            StateMemory memory) {
        this.partition = partition;
        this.directory = directory;
        this.generation = stream.generation();
        this.streamName = stream.name();
        this.partitioner = partitioner;
        this.definition = stream.definition();
        this.part = definition.partitioners().indexOf(partitioner);
        TaskStorage storage = TaskStorage.in(directory).withCheckpointIntervalMs(config.checkpointIntervalMs())
                .withState(DurableStateOptions.defaults().withHotKeys(config.hotKeys()).withMemory(memory));
        long start = System.nanoTime();
        this.task = TaskProcessor.open(definition, new TaskOptions(clock, config.minDedupHorizonMs()), storage);
        LOG.log(System.Logger.Level.INFO, "task {0} ready in {1} ms: resumes at offset {2}, {3} event(s) in its reservoir,"
                + " metrics {4}", partition, (System.nanoTime() - start) / 1_000_000, task.resumeOffset(),
                task.stats().reservoirSize(), Arrays.toString(task.metricNames()));
    }

    /**
     * The offset of the next record to read: after opening, the first the restored checkpoint does
     * not reflect; then after the last record handled (a replica promoted to active reads on from here).
     */
    long resumeOffset() {
        return task.resumeOffset();
    }

    long durableOffset() {
        return task.durableOffset();
    }

    TaskProcessor processor() {
        return task;
    }

    /** Notes that {@code record} will be handled soon: an event's lookups are prefetched ({@link TaskProcessor#prefetch}). */
    void prefetch(ConsumerRecord<byte[], byte[]> record) {
        byte[] v = record.value();
        if (v != null && v.length > 0 && v[0] == TaskInput.EVENT) {
            task.prefetch(row.wrap(v, 1)); // (handle() wraps the row again)
        }
    }

    /**
     * Handles one input record; returns the answer for the record's sender, or null when there is
     * none (a DDL marker).
     */
    TaskAnswer handle(ConsumerRecord<byte[], byte[]> record) {
        byte[] v = record.value();
        long offset = record.offset();
        if (v == null || v.length == 0) {
            task.skipped(offset);
            return null;
        }
        switch (v[0]) {
            case TaskInput.EVENT -> {
                row.wrap(v, 1);
                clock.set(record.timestamp());
                events++;
                try {
                    Reply r = task.process(row, offset);
                    return TaskAnswer.Event.of(r);
                } catch (IllegalArgumentException e) {
                    task.skipped(offset);
                    return new TaskAnswer.Error(400, "invalid_event", e.getMessage());
                }
            }
            case TaskInput.STATEMENT -> {
                TaskInput.StatementAdded s = TaskInput.decodeStatement(v);
                task.skipped(offset);
                addStatement(s);
                return null;
            }
            case TaskInput.REMOVE -> {
                String metric = TaskInput.decodeRemove(v);
                task.skipped(offset);
                task.removeMetric(metric);
                return null;
            }
            case TaskInput.SCHEMA -> {
                StreamEntry changed = CatalogCodec.decode(Arrays.copyOfRange(v, 1, v.length)).entry();
                task.skipped(offset);
                if (changed.definition().schema().size() > definition.schema().size()) {
                    definition = definition.withSchema(changed.definition().schema());
                    task.updateStream(definition);
                }
                return null;
            }
            case TaskInput.READ -> {
                TaskInput.Read read = TaskInput.decodeRead(v);
                row.wrap(v, read.rowOffset());
                task.skipped(offset);
                try {
                    Object value = task.read(read.metric(), row);
                    return new TaskAnswer.Read(task.hasStreamTime(), task.streamTime(), value);
                } catch (IllegalStateException e) {
                    return new TaskAnswer.Error(409, "backfilling", e.getMessage());
                } catch (IllegalArgumentException e) {
                    return new TaskAnswer.Error(404, "unknown_metric", e.getMessage());
                }
            }
            default -> {
                LOG.log(System.Logger.Level.WARNING, "task {0}: record at offset {1} of unknown kind {2} skipped", partition,
                        offset, v[0]);
                task.skipped(offset);
                return null;
            }
        }
    }

    /** Where the task resumes, checked against what its input still holds ({@link HistoryGaps}). */
    boolean checkHistory(HistoryGaps gaps, long earliestOffset) {
        return gaps.check(streamName, partitioner, partition.partition(), task.resumeOffset(), earliestOffset);
    }

    /**
     * Gives a task opened past what its input still holds ({@link HistoryGaps}: retention may have
     * deleted its DDL markers too) the metrics of its partitioner as the catalog has them now, without
     * backfill; markers still ahead in its input then find them known and are skipped. Unit thread.
     */
    void adoptCatalogMetrics(StreamEntry stream) {
        for (StatementEntry s : stream.statements()) {
            if (!s.partitioner().equals(partitioner)) {
                continue;
            }
            List<MetricDefinition> live = new java.util.ArrayList<>();
            for (MetricDefinition d : StreamEntry.bind(definition, s)) {
                if (!s.removed().contains(d.name()) && task.backfillProgress(d.name()) < 0) {
                    live.add(d);
                }
            }
            if (!live.isEmpty()) {
                task.addMetrics(live, false);
            }
        }
    }

    private void addStatement(TaskInput.StatementAdded s) {
        for (String name : s.names()) {
            if (task.backfillProgress(name) >= 0) {
                LOG.log(System.Logger.Level.WARNING, "task {0}: metric {1} exists already; statement {2} skipped", partition,
                        name, s.id());
                return;
            }
        }
        List<MetricDefinition> defs = StreamEntry.bind(definition,
                new StatementEntry(s.id(), s.query(), s.names(), partitioner, s.backfill(), List.of()));
        task.addMetrics(defs, s.backfill());
    }

    private long replayStart;
    private long replayEnd = -1;
    private long replayPosition;
    private long replayStartNanos;
    private long lastReplayLog;

    /** Records that the task must replay its input from {@code from} to {@code end} (exclusive) to catch up. */
    void replayFrom(long from, long end) {
        if (end - from > 1_000) {
            replayStart = from;
            replayPosition = from;
            replayEnd = end;
            replayStartNanos = System.nanoTime();
            lastReplayLog = replayStartNanos;
            LOG.log(System.Logger.Level.INFO, "task {0} replaying {1} record(s) of its input ({2} to {3})", partition,
                    end - from, from, end);
        }
    }

    /** Logs replay progress every 5 s, and when the task has caught up; {@code position} is the next offset to read. */
    void reportReplay(long position) {
        if (replayEnd < 0) {
            return;
        }
        long now = System.nanoTime();
        replayPosition = position;
        if (position >= replayEnd) {
            LOG.log(System.Logger.Level.INFO, "task {0} caught up: replayed {1} record(s) in {2} ms", partition,
                    replayEnd - replayStart, (now - replayStartNanos) / 1_000_000);
            replayEnd = -1;
        } else if (now - lastReplayLog > 5_000_000_000L) {
            LOG.log(System.Logger.Level.INFO, "task {0} replaying: {1}% ({2} of {3} record(s))", partition,
                    (position - replayStart) * 100 / (replayEnd - replayStart), position - replayStart, replayEnd - replayStart);
            lastReplayLog = now;
        }
    }

    /** The durable offset last seen by {@link #stats}, and when (ms since the epoch) it was first seen. */
    private long seenDurableOffset = -1;
    private long seenDurableAtMs;

    /**
     * The task's figures now; {@code lag} as the unit's consumer knows it (-1 when it does not),
     * {@code position} the next offset the consumer reads. Unit thread.
     */
    TaskStats stats(long lag, long position) {
        long durable = task.durableOffset();
        long nowMs = System.currentTimeMillis();
        if (durable != seenDurableOffset) {
            seenDurableOffset = durable;
            seenDurableAtMs = nowMs;
        }
        long checkpointAgeMs = durable >= position ? 0 : nowMs - seenDurableAtMs;
        long replayLeft = replayEnd < 0 ? 0 : Math.max(1, replayEnd - replayPosition);
        long bufferBytes = task.durableState() == null ? 0 : task.durableState().bufferedBytes();
        return new TaskStats(streamName, partitioner, partition.partition(), events, lag, replayLeft, task.stats().reservoirSize(),
                task.stats().reservoirMemoryBytes(), task.stats().hotKeys(), bufferBytes,
                task.streamTime(), durable, checkpointAgeMs);
    }

    /** When no record is waiting: backfill steps and due checkpoints. */
    void idle() {
        task.idle();
    }

    @Override
    public void close() {
        task.close();
    }
}
