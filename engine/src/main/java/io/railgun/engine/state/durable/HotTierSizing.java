package io.railgun.engine.state.durable;

/**
 * The hot-key limit of a store's key tables, from the node's {@link StateMemory} budget and what a
 * key of each table is measured to cost ({@link StoreTable#bytesPerKey()}), or the option alone
 * without a budget. The task's hot share is split among its key tables by what they hold
 * ({@link #split}): a table wanting less than an equal part gets what it wants, the others share
 * the rest equally (FRAUD's 50,000 merchants left most of their half to its million cards). A
 * table's limit is as many keys as its part holds at their measured size: its index's slot table,
 * and with it the key table's per-slot arrays, stop growing at the limit
 * ({@link io.railgun.engine.state.ByteKeyIndex#capSlots}); only the index's buckets stay a power
 * of two, measured with the rest.
 *
 * <p>Recomputed only when an input changes — a table measured anew (arrays grown, a snapshot
 * begun), a table added or dropped, a table given all it wanted passing half its limit, a task of
 * the node attached or detached or its want doubling or halving ({@link #stale()}: one atomic
 * read) — not on each insertion. Owned by the store's task thread.
 */
final class HotTierSizing {
    /** Fewest hot keys of a table, however small its share. */
    static final int MIN_HOT_KEYS = 16;

    private final StateMemory.Lease lease; // the store's place in the node's budget; null: none
    private final int cap;
    private int seenVersion = -1;
    private long taskShareBytes;

    HotTierSizing(StateMemory.Lease lease, int cap) {
        this.lease = lease;
        this.cap = cap;
    }

    /** The option's cap on every table's limit. */
    int cap() {
        return cap;
    }

    /** Whether the node's tasks or their wants changed since {@link #share}: the limits must be recomputed. */
    boolean stale() {
        return lease != null && lease.version() != seenVersion;
    }

    /**
     * Says what the store's tables want in all, rounded up to a power of two (so it moves the
     * budget's version, which every task of the node then recomputes on, only when a want doubles
     * or halves), then takes the task's part as it is now.
     */
    void share(long wantedBytes) {
        if (lease == null) {
            return;
        }
        lease.wantHotBytes(wantedBytes <= 1 ? wantedBytes
                : wantedBytes > 1L << 62 ? Long.MAX_VALUE : Long.highestOneBit(wantedBytes - 1) << 1);
        seenVersion = lease.version(); // before reading the wants: a change meanwhile makes this stale again
        taskShareBytes = lease.hotBytes();
    }

    /** Heap bytes the task's key tables may hold now in all; {@link Long#MAX_VALUE} without a budget. */
    long taskShareBytes() {
        return lease == null ? Long.MAX_VALUE : taskShareBytes;
    }

    /** Splits the task's hot share among its tables by what each wants ({@link Shares}); all of it without a budget. */
    long[] split(long[] wanted) {
        if (lease == null) {
            long[] parts = new long[wanted.length];
            java.util.Arrays.fill(parts, Long.MAX_VALUE);
            return parts;
        }
        return Shares.split(taskShareBytes, wanted);
    }

    /** The hot-key limit of a table whose keys cost {@code bytesPerKey} each, given {@code partBytes}. */
    int limit(long bytesPerKey, long partBytes) {
        if (lease == null) {
            return cap;
        }
        long fit = partBytes / Math.max(1, bytesPerKey);
        return (int) Math.max(MIN_HOT_KEYS, Math.min(cap, fit));
    }
}
