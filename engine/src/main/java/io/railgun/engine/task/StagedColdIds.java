package io.railgun.engine.task;

import io.railgun.engine.state.Prefetches;

/**
 * When {@link DedupIds} moves its cold tier (a step every {@value #STEP} events, at once after a
 * jump in time), and the cold tier's writes of one step, applied together: the ids the
 * spill cursor passes (to store) and those the forget cursor passes (to forget), in that order.
 * A write's first touches — the bucket of the write buffer's index, which holds a checkpoint
 * interval's writes (FRAUD: a million ids and more), and for a store the block of the cold ids'
 * filter — are cache misses; one write at a time, each waited for its own (the index's inserts
 * were 8% of FRAUD's time). Staged, the writes' first touches are loaded back to back
 * ({@link Prefetches}), then the writes are made in order, finding them in the cache.
 *
 * <p>At most {@value #CAPACITY} are staged: a full stage is applied at once, so a jump in time
 * applies its writes a stage at a time; an id longer than {@value #MAX_STAGED} bytes is not staged
 * but written in its turn. Allocation-free: a stage's keys are {@value #CAPACITY} arrays of
 * {@value #MAX_STAGED} + 1 bytes, whatever ids clients send. Owned by the task's thread.
 */
final class StagedColdIds {
    static final int CAPACITY = Prefetches.CAPACITY;
    /** Events between two steps, at most. */
    static final int STEP = 16;

    /** The longest id staged (bytes); a longer one is written at once, after the stage. */
    static final int MAX_STAGED = 255;

    private final byte[][] keys = new byte[CAPACITY][1 + MAX_STAGED]; // the tag byte ColdIds.ID, then the id
    private final int[] lengths = new int[CAPACITY]; // the id's, without the tag byte
    private final long[] timestamps = new long[CAPACITY];
    private final boolean[] stores = new boolean[CAPACITY]; // store, else forget
    private int count;
    @SuppressWarnings("unused") // written so that the loads are kept
    private long loaded;
    private int behind; // events since the last step
    private long steppedAt; // the stream time of the last step (0 before the first: a time that far on steps)

    /**
     * An event moved the stream time to {@code time}: whether a step is due. It is every
     * {@value #STEP} events, and at once when the time moved {@code width} (the cold tier's: the
     * horizon less the hot one) or more since the last step, as the hot tier's ids left behind must
     * be within the horizon (a difference that overflows is such a jump too).
     */
    boolean due(long time, long width) {
        long since = time - steppedAt;
        return ++behind >= STEP || since < 0 || since >= width;
    }

    /** The tiers moved to stream time {@code time}. */
    void stepped(long time) {
        behind = 0;
        steppedAt = time;
    }

    /** Whether events came since the last step. */
    boolean behind() {
        return behind > 0;
    }

    /**
     * Stages a store ({@code store}) or a forget of the id in {@code key[1 .. 1 + length)} (after
     * the tag byte), counted at {@code timestamp}; applies the stage to {@code cold} when full.
     */
    void add(boolean store, byte[] key, int length, long timestamp, ColdIds cold) {
        if (length > MAX_STAGED) {
            // after the staged ones, in order; not copied (a stage holds a few KB, whatever ids clients send)
            apply(cold);
            write(store, key, length, timestamp, cold);
            return;
        }
        System.arraycopy(key, 0, keys[count], 0, length + 1);
        lengths[count] = length;
        timestamps[count] = timestamp;
        stores[count] = store;
        if (++count == CAPACITY) {
            apply(cold);
        }
    }

    /** Makes the staged writes, in the order staged, their first touches loaded together first. */
    void apply(ColdIds cold) {
        if (count == 0) {
            return;
        }
        long sum = 0;
        for (int i = 0; i < count; i++) {
            if (stores[i]) {
                sum += cold.prefetchStore(keys[i], lengths[i], timestamps[i]);
            } else {
                cold.prefetchForget(keys[i], lengths[i]);
            }
        }
        sum += cold.issuePrefetches();
        for (int i = 0; i < count; i++) {
            write(stores[i], keys[i], lengths[i], timestamps[i], cold);
        }
        count = 0;
        loaded += sum;
    }

    private static void write(boolean store, byte[] key, int length, long timestamp, ColdIds cold) {
        if (store) {
            cold.store(key, length, timestamp);
        } else {
            cold.forget(key, length, timestamp);
        }
    }
}
