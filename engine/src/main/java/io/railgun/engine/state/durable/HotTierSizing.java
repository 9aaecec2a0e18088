package io.railgun.engine.state.durable;

/**
 * The hot-key limit of a store's key tables, from the node's {@link StateMemory} budget and what a
 * key of each table is measured to cost ({@link StoreTable#bytesPerKey()}), or the option alone
 * without a budget. The task's hot share is split among its key tables by what they hold
 * ({@link #split}): a table wanting less than an equal part gets what it wants, the others share
 * the rest equally (FRAUD's 50,000 merchants left most of their half to its million cards). A
 * table's limit is the largest power of two of keys whose memory fits its part: a key table's
 * per-slot arrays and its index grow by doubling, so a limit between two powers of two would be
 * paid for at the next one (up to twice the part).
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
    private long taskShareBytes;
    private long tableShareBytes;

    HotTierSizing(StateMemory memory, int cap) {
        this.memory = memory;
        this.cap = cap;
    }

    /** The option's cap on every table's limit. */
    int cap() {
        return cap;
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
        taskShareBytes = memory.hotBytes() / Math.max(1, seenTasks);
        tableShareBytes = taskShareBytes / Math.max(1, tables);
    }

    /** Heap bytes a key table may hold now with equal parts; {@link Long#MAX_VALUE} without a budget. */
    long tableShareBytes() {
        return memory == null ? Long.MAX_VALUE : tableShareBytes;
    }

    /**
     * Splits the task's hot share among its tables by what each wants (water-filling): in order of
     * their wants, a table wanting less than an equal part of what is left gets its want, and the
     * tables from the first that wants more get equal parts of the rest. So no table gets less
     * than an equal part unless it wants less, and nothing is left over while a table wants more;
     * when every want is met, the rest is shared equally.
     *
     * @param wanted each table's wanted bytes (read, not changed)
     * @return each table's bytes, in the same order; {@link Long#MAX_VALUE} each without a budget
     */
    long[] split(long[] wanted) {
        long[] parts = new long[wanted.length];
        if (memory == null) {
            java.util.Arrays.fill(parts, Long.MAX_VALUE);
            return parts;
        }
        Integer[] order = new Integer[wanted.length];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        java.util.Arrays.sort(order, (a, b) -> Long.compare(wanted[a], wanted[b]));
        long left = taskShareBytes;
        for (int k = 0; k < order.length; k++) {
            int t = order[k];
            long equal = left / (order.length - k);
            parts[t] = Math.min(wanted[t], equal);
            left -= parts[t];
        }
        // every want met: what is left goes to all in equal parts (one table gets the whole share)
        for (int t = 0; t < parts.length; t++) {
            parts[t] += left / parts.length;
        }
        return parts;
    }

    /** The hot-key limit of a table whose keys cost {@code bytesPerKey} each, with equal parts. */
    int limit(long bytesPerKey) {
        return limit(bytesPerKey, tableShareBytes);
    }

    /** The hot-key limit of a table whose keys cost {@code bytesPerKey} each, given {@code partBytes}. */
    int limit(long bytesPerKey, long partBytes) {
        if (memory == null) {
            return cap;
        }
        long fit = partBytes / Math.max(1, bytesPerKey);
        long limit = Long.highestOneBit(Math.max(1, fit));
        return (int) Math.max(MIN_HOT_KEYS, Math.min(cap, limit));
    }
}
