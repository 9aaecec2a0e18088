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

    /** Notes that {@code key} will be looked up soon ({@link Prefetches}); a hint, by default ignored. */
    default void prefetch(byte[] key, int offset, int length) {}

    /** Loads what {@link #prefetch} noted; returns anything. */
    default long issuePrefetches() {
        return 0;
    }

    /**
     * After {@link #issuePrefetches}: the slots the noted keys are likely at (hints, -1 when not
     * known), written to {@code slots} (at least {@link Prefetches#CAPACITY} long); returns their
     * number. By default none.
     */
    default int prefetchedSlots(int[] slots) {
        return 0;
    }

    /**
     * Keys present that hold no state (emptied, kept for a while by their key table: see its hot
     * tier) changed by {@code delta}: they are not part of what the table wants room for. By
     * default ignored.
     */
    default void emptied(int delta) {}

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

    /**
     * The key table's own measure of what a key costs in memory, reported when it changes (its
     * per-slot arrays grown or laid out again, and at each snapshot): {@code slotBytes} held per
     * slot of {@link #capacity()} by its arrays, {@code externalBytesPerKey} the mean bytes of
     * per-key state outside them (as serialised), and {@code serialisedBytesPerKey} the mean size
     * of a key's serialised state and key bytes (what a checkpoint's copy of it holds). A store that bounds its
     * hot tier by a memory budget sizes {@link #hotLimit()} from it; others ignore it.
     */
    default void keyBytes(int slotBytes, int externalBytesPerKey, int serialisedBytesPerKey) {}

    /** Where keys beyond the hot limit live, or null when every key stays in memory. */
    default ColdKeys cold() {
        return null;
    }
}
