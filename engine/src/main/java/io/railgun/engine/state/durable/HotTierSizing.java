package io.railgun.engine.state.durable;

/**
 * The hot-key limit of a store's key tables, from the node's {@link StateMemory} budget and what a
 * key of each table is measured to cost ({@link StoreTable#bytesPerKey()}), or the option alone
 * without a budget. A table's share is the task's hot share divided by its key tables; its limit
 * is the largest power of two of keys whose memory fits that share: a key table's per-slot arrays
 * and its index grow by doubling, so a limit between two powers of two would be paid for at the
 * next one (up to twice the share).
 *
 * <p>Recomputed only when an input changes — a table measured anew (arrays grown, a snapshot
 * begun), a table added or dropped, a task of the node attached or detached ({@link #stale()}: one
 * volatile read) — not on each insertion. Owned by the store's task thread.
 */
final class HotTierSizing {
    /** Fewest hot keys of a table, however small its share. */
    static final int MIN_HOT_KEYS = 16;

    private final StateMemory memory; // null: every table holds the option's keys
    private final int cap;
    private int seenTasks = -1;
    private long tableShareBytes;

    HotTierSizing(StateMemory memory, int cap) {
        this.memory = memory;
        this.cap = cap;
    }

    /** Whether the budget's task count changed since {@link #share}: the limits must be recomputed. */
    boolean stale() {
        return memory != null && memory.tasks() != seenTasks;
    }

    /** Takes the budget's task count and the store's table count as they are now. */
    void share(int tables) {
        if (memory == null) {
            return;
        }
        seenTasks = memory.tasks();
        tableShareBytes = memory.hotBytes() / Math.max(1, seenTasks) / Math.max(1, tables);
    }

    /** Heap bytes a key table may hold now; {@link Long#MAX_VALUE} without a budget. */
    long tableShareBytes() {
        return memory == null ? Long.MAX_VALUE : tableShareBytes;
    }

    /** The hot-key limit of a table whose keys cost {@code bytesPerKey} each. */
    int limit(long bytesPerKey) {
        if (memory == null) {
            return cap;
        }
        long fit = tableShareBytes / Math.max(1, bytesPerKey);
        long limit = Long.highestOneBit(Math.max(1, fit));
        return (int) Math.max(MIN_HOT_KEYS, Math.min(cap, limit));
    }
}
