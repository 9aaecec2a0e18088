package io.railgun.engine.task;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.event.EventTime;
import io.railgun.engine.plan.MetricDefinition;
import io.railgun.engine.plan.TaskPlan;
import io.railgun.engine.reservoir.EventReservoir;
import io.railgun.engine.reservoir.InMemoryReservoir;
import io.railgun.engine.reservoir.disk.DiskReservoir;
import io.railgun.engine.snapshot.TaskSnapshot;
import io.railgun.engine.schema.Field;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.engine.state.InMemoryStateStore;
import io.railgun.engine.state.StateStore;
import io.railgun.engine.state.durable.DurableStateStore;
import java.nio.file.Path;
import java.util.concurrent.Executor;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Computes all metrics of one task — one (stream partitioner, partition) — for every event it
 * receives (paper §4.1): deduplication by event id, lateness, stream time, the event reservoir, the
 * task plan and the reply. Exact semantics in SPEC §5 and in {@code docs/semantics.md}. The task's
 * public face: it holds the input offset and orders the work of the parts that do each job.
 *
 * <p>For each event: a step of any backfill in progress; its admission by {@link EventAdmission}
 * (DUPLICATE, DROPPED_LATE, or COUNTED: stored in the reservoir, delivered to the windows, stream
 * time advanced); the reply assembled by {@link TaskReplies}, carrying every metric of the task for
 * the event's keys at the new stream time; then, for a durable task, a checkpoint step. Nothing on
 * this path allocates in steady state.
 *
 * <p><b>Durability</b> ({@link #open}): the reservoir on disk, the key states in a
 * {@link DurableStateStore}, checkpointed by {@link TaskCheckpoints} after events, and the
 * statements by {@link TaskStatements}. {@link #open} restores the last complete checkpoint and
 * {@link #resumeOffset()} says where the caller must replay its input from: the events after the
 * checkpoint are in neither the restored state nor the restored reservoir, so replaying them counts
 * each exactly once, and gives the same replies as the first time. Event ids older than the hot part
 * of the dedup horizon are in the durable store with the checkpoint; the recent ones are read back
 * from the reservoir's events ({@link DedupIds}). Adding or removing metrics takes a checkpoint
 * at once (and waits for it), so a restored task has the metrics it had.
 *
 * <p>Single-threaded: one processor unit's thread owns a task; no method may be called concurrently.
 */
public final class TaskProcessor implements AutoCloseable {
    private final EventReservoir reservoir;
    private final TaskPlan plan;
    private final DedupIds ids;
    private final EventAdmission admission;
    private final TaskReplies replies;
    private long nextOffset;

    private final TaskStatements statements = new TaskStatements();
    // durability: null for an in-memory task
    private final TaskCheckpoints checkpoints;
    private final LookupPrefetches prefetches;
    private final ProcessorStats stats;

    /** A task with an in-memory reservoir and state store. */
    public TaskProcessor(StreamDefinition stream, TaskOptions options) {
        this(stream, options, new InMemoryReservoir(), new InMemoryStateStore());
    }

    public TaskProcessor(StreamDefinition stream, TaskOptions options, EventReservoir reservoir, StateStore stateStore) {
        this(stream, options, reservoir, stateStore, null, null, 0);
    }

    /**
     * With {@code durable} (and {@code disk}, the same reservoir) a durable task, checkpointed by
     * {@link TaskCheckpoints}; {@link DurableTaskOpener} builds it over the files it opened.
     */
    TaskProcessor(StreamDefinition stream, TaskOptions options, EventReservoir reservoir, StateStore stateStore,
                  DurableStateStore durable, DiskReservoir disk, long checkpointIntervalMs) {
        this.reservoir = reservoir;
        this.plan = new TaskPlan(stream.schema(), reservoir, stateStore);
        Field id = stream.schema().field(stream.eventIdField());
        DurableStateStore durableStore = stateStore instanceof DurableStateStore d ? d : null;
        this.ids = new DedupIds(reservoir, id.index(), id.type() == FieldType.STRING, stream.eventIdField(),
                durableStore == null ? null : durableStore.dedupIds(),
                durableStore == null ? 0 : durableStore.options().dedupHotMs(),
                durableStore == null || durableStore.options().memory() == null ? null
                        : durableStore.options().memory().hotIdPool());
        this.admission = new EventAdmission(stream, options, reservoir, plan, ids);
        this.prefetches = new LookupPrefetches(ids, plan);
        this.replies = new TaskReplies(plan);
        this.checkpoints = durable == null ? null
                : new TaskCheckpoints(durable, disk, plan, ids, statements, checkpointIntervalMs);
        this.stats = new ProcessorStats(ids, reservoir, plan, checkpoints);
        admission.updateHorizon();
    }

    /**
     * Opens a durable task in {@code storage}'s directory, restoring its last complete checkpoint
     * (reservoir, key states, stream time, statements); the caller then replays its input from
     * {@link #resumeOffset()}. A directory without a checkpoint starts empty at offset 0.
     *
     * @throws IllegalStateException when a checkpointed statement no longer binds to {@code stream}
     */
    public static TaskProcessor open(StreamDefinition stream, TaskOptions options, TaskStorage storage) {
        return DurableTaskOpener.open(stream, options, storage);
    }

    /** Restores a checkpoint into a task just built over its files (by {@link DurableTaskOpener}). */
    void restore(CheckpointRecord record) {
        nextOffset = record.nextOffset();
        checkpoints.restored(nextOffset);
        // the statements first: the dedup horizon the admission restores depends on their windows
        statements.restore(record.statements(), admission.stream(), plan, record.streamTime());
        replies.layout();
        admission.restore(record.nextSeq(), record.streamTime());
    }

    /** The input offset to replay from after {@link #open}: the first event the checkpoint does not reflect. */
    public long resumeOffset() {
        return nextOffset;
    }

    /** Adds the metrics of one bound statement (those routed to this task's partitioner). */
    public void addMetrics(List<MetricDefinition> metrics) {
        addMetrics(metrics, false);
    }

    /**
     * Adds the metrics of one bound statement. With {@code backfill} they are first computed from
     * the events the reservoir holds (kept by window tails, the dedup horizon and the stream's
     * retention): a step of that work runs before each event (and on {@link #stepBackfill()}), the
     * other metrics keep being answered, and the new ones appear in replies once they are exact
     * ({@link #backfillProgress}).
     */
    public void addMetrics(List<MetricDefinition> metrics, boolean backfill) {
        finishSnapshot();
        long nextSeq = admission.nextSeq();
        if (backfill) {
            plan.addBackfilled(metrics, nextSeq, admission.streamTime(), Long.MIN_VALUE, Long.MIN_VALUE, false);
        } else {
            plan.add(metrics, nextSeq, admission.streamTime());
        }
        statements.added(metrics, nextSeq, backfill);
        replies.layout();
        admission.updateHorizon();
        if (checkpoints != null) {
            checkpoint().join();
        }
    }

    /** Removes a metric and frees the state no other metric uses; false when absent. */
    public boolean removeMetric(String name) {
        finishSnapshot();
        statements.removed(name);
        boolean removed = plan.remove(name);
        replies.layout();
        admission.updateHorizon();
        if (checkpoints != null && removed) {
            checkpoint().join();
        }
        return removed;
    }

    /** Adopts a compatible schema change (fields appended); existing field slots are unchanged. */
    public void updateStream(StreamDefinition newDefinition) {
        admission.updateStream(newDefinition);
        plan.updateSchema(newDefinition.schema());
    }

    /**
     * Processes one event and returns the reply (reused: valid until the next call).
     *
     * @throws IllegalArgumentException when the event id or the timestamp field is null (the
     *                                  front-end rejects such events before they reach a task)
     * @throws EventTime.TimestampOutOfRangeException when the timestamp is outside {@link EventTime}'s
     *                                  range; the event is not counted and its id not remembered
     */
    public Reply process(EventRow row) {
        return process(row, nextOffset);
    }

    /**
     * Processes the event at input offset {@code offset} (offsets grow by at least one per event;
     * a checkpoint records where to resume) and, for a durable task, takes a checkpoint when one
     * is due. The reply is reused: valid until the next call.
     */
    public Reply process(EventRow row, long offset) {
        prefetches.issue();
        if (plan.backfilling()) {
            stepBackfill();
        }
        ReplyStatus status = admission.admit(row);
        Reply r = replies.of(status, admission.timestamp(), admission.seq(), admission.streamTime(), row);
        nextOffset = offset + 1; // after it: an event rejected by an exception is not skipped
        if (checkpoints != null) {
            checkpoints.maybeCheckpoint(nextOffset, admission.nextSeq(), admission.streamTime());
        }
        return r;
    }

    /**
     * Notes that {@code row} will be processed soon (a hint; the row may be reused at once): the
     * next {@link #process} first loads the table slots its lookups start at, together with those
     * of the other events noted ({@link LookupPrefetches}). Callers holding a batch of events call
     * it for a group of them (up to {@value io.railgun.engine.state.Prefetches#CAPACITY}), then
     * process them.
     */
    public void prefetch(EventRow row) {
        prefetches.note(row);
    }

    /**
     * Records that the input record at {@code offset} was handled without being an event (a metric
     * change, a schema change, a point read): checkpoints taken from now on resume after it, so a
     * restart does not apply it twice.
     */
    public void skipped(long offset) {
        nextOffset = offset + 1;
    }

    /**
     * For the task's thread when no event is waiting: a step of any backfill in progress, and a
     * checkpoint if one is due (time-based checkpoints are otherwise checked every 256 events, so
     * an idle task would keep its last events out of checkpoints).
     */
    public void idle() {
        stepBackfill();
        if (checkpoints != null) {
            checkpoints.idle(nextOffset, admission.nextSeq(), admission.streamTime());
        }
    }

    /**
     * The input offset up to which (exclusive) the last complete checkpoint reflects the events: a
     * node may commit it to Kafka; a restart resumes there. 0 before any checkpoint.
     */
    public long durableOffset() {
        return checkpoints == null ? 0 : checkpoints.durableOffset();
    }

    /**
     * The current value of a metric for the key in {@code keyRow}'s group-by fields, boxed (see
     * {@link Reply#value}); a point read that does not change anything.
     *
     * @throws IllegalArgumentException when the task has no such metric
     * @throws IllegalStateException    while the metric is being backfilled
     */
    public Object read(String metric, EventRow keyRow) {
        return replies.read(metric, keyRow, admission.streamTime());
    }

    /** The largest timestamp counted, or Long.MIN_VALUE before the first event. */
    public long streamTime() {
        return admission.streamTime();
    }

    public boolean hasStreamTime() {
        return admission.started();
    }

    /** The dedup horizon in force. */
    public long dedupHorizonMs() {
        return admission.dedupHorizonMs();
    }

    /** What the task holds and has done (ids, reservoir, keys, checkpoints), for metrics and tests. */
    public ProcessorStats stats() {
        return stats;
    }

    /** Metric names in reply order. */
    public String[] metricNames() {
        return plan.names();
    }

    /**
     * Takes a checkpoint now (a durable task; no-op otherwise): completes one being taken, then
     * takes a new one whole. Returns a future completed when it is durable. Waits first for a
     * checkpoint still being written.
     */
    public CompletableFuture<Void> checkpoint() {
        if (checkpoints == null) {
            return CompletableFuture.completedFuture(null);
        }
        return checkpoints.checkpoint(nextOffset, admission.nextSeq(), admission.streamTime());
    }

    /** Completes the checkpoint being taken, if any (before the plan changes). */
    private void finishSnapshot() {
        if (checkpoints != null) {
            checkpoints.finishSnapshot();
        }
    }

    /**
     * Starts a {@link TaskSnapshot} of the last complete checkpoint in {@code target} (a new
     * directory), written on {@code io}; or returns null when it cannot start now (a checkpoint is
     * being taken or written, or none exists yet: one is begun): the caller asks again after the
     * next events. A task checkpointing back to back (a tight write buffer) can refuse every ask:
     * a caller that must have the snapshot takes a checkpoint itself after some refusals
     * ({@code checkpoint().join()}) and asks again, which then starts it (the node's snapshot
     * inbox does so after 100 rounds). Durable tasks only.
     *
     * <p>Consistency: it starts only when no checkpoint is under way, so RocksDB holds exactly the
     * last complete one, whose reservoir chunks are all written and synced; the segment files and
     * their lengths are fixed here, on the task's thread; and until the snapshot is written no new
     * checkpoint begins (unless the state's write buffer reaches twice its budget: then the task
     * waits for the snapshot), so no file the checkpoint needs is trimmed and RocksDB does not
     * change under the copy. Events keep being processed meanwhile.
     */
    public CompletableFuture<TaskSnapshot> trySnapshot(Path target, long snapshotId, Executor io) {
        if (checkpoints == null) {
            throw new IllegalStateException("an in-memory task has no files to snapshot");
        }
        return checkpoints.trySnapshot(target, snapshotId, io, nextOffset, admission.nextSeq(),
                admission.streamTime());
    }

    /** One step of the backfills in progress (a node calls it when the task is idle); true while some remain. */
    public boolean stepBackfill() {
        if (plan.backfilling() && plan.stepBackfill(admission.streamTime())) {
            replies.layout();
        }
        return plan.backfilling();
    }

    /** Progress of a metric's backfill in [0, 1); 1 once it is in replies; -1 when no such metric. */
    public double backfillProgress(String metric) {
        return plan.backfillProgress(metric, admission.streamTime());
    }

    /** The durable state store of a durable task, or null (for stats). */
    public DurableStateStore durableState() {
        return checkpoints == null ? null : checkpoints.durable();
    }

    /** The on-disk reservoir of a durable task, or null (for its chunk statistics). */
    public DiskReservoir diskReservoir() {
        return checkpoints == null ? null : checkpoints.disk();
    }

    /**
     * Closes the task. A durable task takes a final checkpoint first, so a clean restart replays
     * nothing; {@link #abandon()} closes without one (what a crash leaves, for tests).
     */
    @Override
    public void close() {
        if (checkpoints != null) {
            try {
                checkpoint().join();
            } finally {
                abandon();
            }
        } else {
            reservoir.close();
        }
    }

    /** Closes without a final checkpoint: the next {@link #open} restores the last complete one. */
    public void abandon() {
        if (checkpoints != null) {
            checkpoints.awaitSnapshotWriter();
        }
        try {
            reservoir.close();
        } finally {
            if (checkpoints != null) {
                checkpoints.durable().close();
            }
        }
    }
}
