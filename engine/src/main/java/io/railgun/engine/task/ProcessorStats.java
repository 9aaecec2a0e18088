package io.railgun.engine.task;

import io.railgun.engine.plan.TaskPlan;
import io.railgun.engine.reservoir.EventReservoir;

/**
 * What a {@link TaskProcessor}'s parts hold and have done, for metrics, benchmarks and tests: its
 * event ids, its reservoir, its keys in memory and in the cold tier, its last checkpoint. Counters
 * are read as the parts keep them: on the task's thread, like the task ({@link TaskProcessor#stats()}).
 */
public final class ProcessorStats {
    private final DedupIds ids;
    private final EventReservoir reservoir;
    private final TaskPlan plan;
    private final TaskCheckpoints checkpoints; // null for an in-memory task

    ProcessorStats(DedupIds ids, EventReservoir reservoir, TaskPlan plan, TaskCheckpoints checkpoints) {
        this.ids = ids;
        this.reservoir = reservoir;
        this.plan = plan;
        this.checkpoints = checkpoints;
    }

    /** Event ids remembered in memory (the others of the dedup horizon are in the durable store). */
    public long dedupHotIds() {
        return ids.hotIds();
    }

    /** Duplicates recognised by ids kept in the durable store, since the task was opened. */
    public long dedupColdDuplicates() {
        return ids.cold() == null ? 0 : ids.cold().duplicates();
    }

    /** New ids the filter of cold ids kept from a lookup in the durable store, since the task was opened. */
    public long dedupFilterNegatives() {
        return ids.cold() == null ? 0 : ids.cold().filterNegatives();
    }

    /** Heap bytes of the filter of the cold ids (outside the state budget; 0 without a cold tier). */
    public long dedupFilterBytes() {
        return ids.cold() == null ? 0 : ids.cold().filterBytes();
    }

    /** Times the dedup ids' hot horizon was narrowed, the node's pool of hot ids passed, since the task was opened. */
    public long dedupNarrowings() {
        return ids.hotHorizon().narrowings();
    }

    /** Number of events held in the reservoir. */
    public long reservoirSize() {
        return reservoir.size();
    }

    /** Heap bytes of the reservoir's event data (open region, chunk cache). */
    public long reservoirMemoryBytes() {
        return reservoir.memoryBytes();
    }

    /** Nanoseconds the task waited for its reservoir's writes to keep up, since it was opened. */
    public long reservoirWriteWaitNanos() {
        return reservoir.writeWaitNanos();
    }

    /** Number of distinct window edges (reservoir cursors) of the plan. */
    public int cursorCount() {
        return plan.cursorCount();
    }

    /** Keys held in memory. */
    public long hotKeys() {
        return plan.hotKeys();
    }

    /** Keys moved out of memory to the cold tier, since the task was opened. */
    public long evictions() {
        return plan.evictions();
    }

    /** Keys loaded back from the cold tier, since the task was opened. */
    public long coldLoads() {
        return plan.coldLoads();
    }

    /**
     * When the last checkpoint began (System.currentTimeMillis, after an event), or when the task
     * was opened; 0 for an in-memory task. A harness reading it around {@link TaskProcessor#process}
     * learns which events paid for beginning a checkpoint.
     */
    public long lastCheckpointStartMs() {
        return checkpoints == null ? 0 : checkpoints.lastCheckpointMs();
    }
}
