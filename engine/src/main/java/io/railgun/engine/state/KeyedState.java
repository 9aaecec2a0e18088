package io.railgun.engine.state;

/**
 * The keys of one group-by node of a task plan, each mapped to a dense slot; aggregators keep their
 * per-key state in columns indexed by that slot. A key lives while the window holds at least one of
 * its events, then is released and its slot reused, so state is bounded by the keys active in the
 * window, not by all keys ever seen. A durable store also bounds the keys held in memory (its hot
 * tier, {@link #hotLimit()}) and keeps the others in {@link #cold()}. Owned by the task's thread.
 */
public interface KeyedState {
    /** The slot of a key, or -1. */
    int find(byte[] key, int offset, int length);

    /** The slot of a key, inserting it when absent: {@code slot}, or {@code -(slot + 1)} if new. */
    int findOrInsert(byte[] key, int offset, int length);

    /** Releases a slot whose key has left the window. */
    void release(int slot);

    /** Exclusive upper bound of slot numbers: per-slot columns must be at least this long. */
    int capacity();

    /** Number of keys present. */
    int size();

    /** Copies the key at an occupied slot into {@code dst}; returns its length. */
    int copyKey(int slot, byte[] dst, int dstOffset);

    /** Length of the key at an occupied slot. */
    int keyLength(int slot);

    /**
     * Most keys held in memory at once; beyond it the key table moves keys to {@link #cold()}.
     * Unbounded for a store without a cold tier.
     */
    default int hotLimit() {
        return Integer.MAX_VALUE;
    }

    /** Where keys beyond the hot limit live, or null when every key stays in memory. */
    default ColdKeys cold() {
        return null;
    }
}
