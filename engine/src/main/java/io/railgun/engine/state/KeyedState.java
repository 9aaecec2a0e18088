package io.railgun.engine.state;

/**
 * The keys of one group-by node of a task plan, each mapped to a dense slot; aggregators keep their
 * per-key state in columns indexed by that slot. A key lives while the window holds at least one of
 * its events, then is released and its slot reused, so state is bounded by the keys active in the
 * window, not by all keys ever seen. Owned by the task's thread.
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
}
