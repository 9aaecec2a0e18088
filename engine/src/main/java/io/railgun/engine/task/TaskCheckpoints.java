package io.railgun.engine.task;

import io.railgun.engine.plan.TaskPlan;
import io.railgun.engine.reservoir.disk.DiskReservoir;
import io.railgun.engine.reservoir.disk.ReservoirCheckpoint;
import io.railgun.engine.reservoir.disk.SegmentDescriptor;
import io.railgun.engine.snapshot.SnapshotWriter;
import io.railgun.engine.snapshot.TaskSnapshot;
import io.railgun.engine.state.durable.DurableStateOptions;
import io.railgun.engine.state.durable.DurableStateStore;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.stream.Stream;

/**
 * The checkpoints of a durable {@link TaskProcessor}: when one is due, taking it over the next
 * events, handing it to the state store's writer, trimming what it no longer needs once it is
 * complete, and the task snapshots made from the last complete one.
 *
 * <p>A checkpoint is taken every {@link TaskStorage#checkpointIntervalMs()} (or earlier when the
 * state's write buffer is full), after an event: the reservoir's open region is copied, the input
 * offset, seq, stream time and statements recorded, and the changed hot keys marked; they are
 * serialised over the next events, a few per event or just before they change (copy on write), so
 * no event waits for all of them; the I/O runs in the background and the whole is atomic (see
 * {@link DurableStateStore}).
 *
 * <p>The task passes its position (next input offset, next seq, stream time or Long.MIN_VALUE
 * before the first event) to the calls that may begin a checkpoint. Task's thread only, like its
 * {@link TaskProcessor}; {@link #maybeCheckpoint} runs after every event and allocates nothing
 * unless a checkpoint begins.
 */
final class TaskCheckpoints {
    private final DurableStateStore durable;
    private final DiskReservoir disk;
    private final TaskPlan plan;
    private final DedupIds ids;
    private final TaskStatements statements;
    private final long checkpointIntervalMs;

    private long lastCheckpointMs;
    /**
     * Keys of a checkpoint's snapshot saved per {@link #idle} call (a few ms of work; after an
     * event, {@link DurableStateOptions#snapshotKeysPerEvent()}).
     */
    static final int IDLE_SNAPSHOT_KEYS = 4_096;
    private int sinceClockCheck;
    private boolean checkpointPending;
    private long pendingTrimPosition;
    private long pendingOffset;
    private long durableOffset;
    private byte[] pendingRecord;
    private CompletableFuture<Void> pendingReservoirDurable;
    private CompletableFuture<Void> lastCheckpoint = CompletableFuture.completedFuture(null);
    // a snapshot being written off this thread: no checkpoint begins until it is done (trySnapshot)
    private CompletableFuture<TaskSnapshot> snapshotting = CompletableFuture.completedFuture(null);

    TaskCheckpoints(DurableStateStore durable, DiskReservoir disk, TaskPlan plan, DedupIds ids,
                    TaskStatements statements, long checkpointIntervalMs) {
        this.durable = durable;
        this.disk = disk;
        this.plan = plan;
        this.ids = ids;
        this.statements = statements;
        this.checkpointIntervalMs = checkpointIntervalMs;
        this.lastCheckpointMs = System.currentTimeMillis();
    }

    DurableStateStore durable() {
        return durable;
    }

    DiskReservoir disk() {
        return disk;
    }

    /** When the last checkpoint began (System.currentTimeMillis), or when the task was opened. */
    long lastCheckpointMs() {
        return lastCheckpointMs;
    }

    /** The task was restored from a checkpoint reflecting the input up to {@code offset} (exclusive). */
    void restored(long offset) {
        durableOffset = offset;
    }

    /** Takes a checkpoint now: completes one being taken, then takes a new one whole; see {@link TaskProcessor#checkpoint()}. */
    CompletableFuture<Void> checkpoint(long nextOffset, long nextSeq, long streamTime) {
        awaitSnapshotWriter();
        finishSnapshot();
        beginCheckpoint(nextOffset, nextSeq, streamTime);
        finishSnapshot();
        return lastCheckpoint;
    }

    /**
     * Begins a checkpoint at the current event boundary: the reservoir's part, the record and the
     * set of changed keys are fixed now; the keys themselves are saved over the next events
     * ({@link DurableStateOptions#snapshotKeysPerEvent()} per event, or on change, see {@code HotTier}).
     */
    private void beginCheckpoint(long nextOffset, long nextSeq, long streamTime) {
        ids.markCheckpoint(); // before the buffers are set aside: the checkpoint records where ids were spilled to
        durable.beginCheckpoint(); // waits for the previous checkpoint's write, if any
        checkpointDone();
        plan.beginSnapshot();
        ReservoirCheckpoint rc = disk.checkpoint();
        List<CheckpointRecord.StatementEntry> entries = statements.forCheckpoint(plan);
        pendingRecord = new CheckpointRecord(nextOffset, nextSeq, streamTime, rc, entries).encode();
        pendingReservoirDurable = rc.durable();
        pendingTrimPosition = rc.minPosition();
        pendingOffset = nextOffset;
        lastCheckpointMs = System.currentTimeMillis();
    }

    /** Saves up to {@code budget} more keys of the checkpoint being taken; hands it to the writer when complete. */
    private void continueSnapshot(int budget) {
        if (plan.sweepSnapshot(budget)) {
            lastCheckpoint = durable.finishCheckpoint(pendingRecord, pendingReservoirDurable);
            pendingRecord = null;
            pendingReservoirDurable = null;
            checkpointPending = true;
        }
    }

    /** Completes the checkpoint being taken, if any (before the plan changes, and on demand). */
    void finishSnapshot() {
        if (durable.checkpointBegun()) {
            continueSnapshot(Integer.MAX_VALUE);
        }
    }

    /** After an event: saves more keys of the checkpoint being taken, or begins one when due. */
    void maybeCheckpoint(long nextOffset, long nextSeq, long streamTime) {
        step(nextOffset, nextSeq, streamTime, durable.options().snapshotKeysPerEvent());
    }

    /**
     * When no event is waiting: as {@link #maybeCheckpoint}, looking at the clock now (an idle task
     * sees no events to count) and saving up to {@value #IDLE_SNAPSHOT_KEYS} keys of a snapshot,
     * since nothing waits behind the work.
     */
    void idle(long nextOffset, long nextSeq, long streamTime) {
        sinceClockCheck = 255;
        step(nextOffset, nextSeq, streamTime, IDLE_SNAPSHOT_KEYS);
    }

    /** Saves up to {@code budget} keys of the checkpoint being taken, or begins one when due. */
    private void step(long nextOffset, long nextSeq, long streamTime, int budget) {
        if (durable.checkpointBegun()) {
            // at the task's share (the writer being slow), the checkpoint being taken completes now, so
            // that the next event can wait for its write rather than the changes grow past the share
            continueSnapshot(durable.mustWait() ? Integer.MAX_VALUE : budget);
            return;
        }
        boolean running = durable.checkpointRunning();
        if (!running) {
            checkpointDone();
        }
        boolean due = durable.overBudget();
        if (!due && ++sinceClockCheck >= 256) {
            sinceClockCheck = 0;
            due = System.currentTimeMillis() - lastCheckpointMs >= checkpointIntervalMs;
        }
        if (due && !snapshotting.isDone()) {
            if (!durable.mustWait()) {
                return; // a task snapshot is being written: the checkpoint waits for it
            }
            awaitSnapshotWriter();
        }
        if (due && (!running || durable.mustWait())) {
            beginCheckpoint(nextOffset, nextSeq, streamTime);
            continueSnapshot(budget);
        } else if (running && durable.mustWait()) {
            // the checkpoint being written holds most of the share (it waited for the last one at the
            // share): the task waits for it before adding more
            durable.awaitCheckpoint();
            checkpointDone();
        }
    }

    /** A checkpoint completed: files its cursors no longer need may go. */
    private void checkpointDone() {
        if (checkpointPending) {
            checkpointPending = false;
            disk.allowTrimBelow(pendingTrimPosition);
            durableOffset = pendingOffset;
        }
    }

    /** See {@link TaskProcessor#durableOffset()}. */
    long durableOffset() {
        if (!durable.checkpointRunning()) {
            checkpointDone();
        }
        return durableOffset;
    }

    /** See {@link TaskProcessor#trySnapshot}: null when it cannot start now. */
    CompletableFuture<TaskSnapshot> trySnapshot(Path target, long snapshotId, Executor io, long nextOffset,
                                                long nextSeq, long streamTime) {
        if (!snapshotting.isDone() || durable.checkpointBegun() || durable.checkpointRunning()) {
            return null;
        }
        checkpointDone();
        if (!durable.hasCheckpoint()) {
            beginCheckpoint(nextOffset, nextSeq, streamTime);
            continueSnapshot(durable.options().snapshotKeysPerEvent());
            return null;
        }
        List<SnapshotWriter.SegmentLength> segments = new ArrayList<>();
        try (Stream<Path> files = Files.list(disk.directory())) {
            for (Path p : files.sorted().toList()) {
                String name = p.getFileName().toString();
                if (SegmentDescriptor.segmentId(name) >= 0) {
                    try {
                        segments.add(new SnapshotWriter.SegmentLength(name, Files.size(p)));
                    } catch (java.nio.file.NoSuchFileException trimmed) {
                        // trimmed in the background: the checkpoint no longer needs it
                    }
                }
            }
        } catch (IOException e) {
            return CompletableFuture.failedFuture(e);
        }
        long offset = durableOffset;
        Path reservoirDir = disk.directory();
        DurableStateStore state = durable;
        snapshotting = CompletableFuture.supplyAsync(
                () -> SnapshotWriter.write(target, snapshotId, offset, reservoirDir, segments, state::checkpointTo), io);
        return snapshotting;
    }

    /** Waits for a task snapshot still being written, if any; its failure is its requester's. */
    void awaitSnapshotWriter() {
        try {
            snapshotting.join();
        } catch (CompletionException | CancellationException e) {
            // its requester is told; the task goes on
        }
    }
}
