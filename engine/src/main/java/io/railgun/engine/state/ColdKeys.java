package io.railgun.engine.state;

/**
 * Where the keys of a {@link KeyedState} go when they leave its bounded hot tier: the durable
 * store (see {@code io.railgun.engine.state.durable}). A key's value is its state as the key table
 * serialises it: whole, or a patch of what changed since its stored value, which the store keeps
 * after that value and hands back concatenated to it. Called from the task's thread only.
 */
public interface ColdKeys {
    /** Points {@code into} at the state of a key that is not hot; false when the key has none. */
    boolean load(byte[] key, int offset, int length, StateReader into);

    /** Keeps the newest state of a key, whole (it left the hot tier changed). */
    default void store(byte[] key, int offset, int length, byte[] value, int valueOffset, int valueLength) {
        store(key, offset, length, value, valueOffset, valueLength, false);
    }

    /**
     * Keeps the newest state of a key (it left the hot tier changed): whole, or when {@code patch}
     * only what changed since its stored value, to be appended to it.
     */
    void store(byte[] key, int offset, int length, byte[] value, int valueOffset, int valueLength, boolean patch);

    /**
     * A key left the hot tier unchanged since its stored value was written (so that value is its
     * state): nothing to store, but the key now has state only in the cold tier.
     */
    void leftCurrent(byte[] key, int offset, int length);

    /**
     * Keeps the state of a key as it was when the snapshot being taken began (a checkpoint's part):
     * whole, or when {@code patch} only what changed since its stored value, to be appended to it
     * (the key then has a stored value: the caller knows). At most once a snapshot for a key. Returns
     * the copy's number, for {@link #copyLeft}: the snapshot is not looked up by key (the key is hot),
     * until the caller says the key left. Numbers are not reused: no two copies of a store's
     * snapshots have the same.
     */
    long storeSnapshot(byte[] key, int offset, int length, byte[] value, int valueOffset, int valueLength, boolean patch);

    /**
     * A key whose state {@link #storeSnapshot} (or {@link #deleteSnapshot}) kept as copy {@code copy}
     * left the hot tier (stored, freed, or with that state current): until its checkpoint is
     * written, a {@link #load} of the key finds that copy. Nothing when that snapshot was written
     * since (the copy is not held any more).
     */
    void copyLeft(byte[] key, int offset, int length, long copy);

    /**
     * The key had no state when the snapshot being taken began (it had left every window, and
     * stayed hot): the snapshot holds none for it, whatever was stored before. Returns the
     * deletion's number, for {@link #copyLeft} (or the caller {@link #delete}s the key when it leaves).
     */
    long deleteSnapshot(byte[] key, int offset, int length);

    /** The key left every window: forget any state kept for it. */
    void delete(byte[] key, int offset, int length);

    /**
     * Notes that {@code key} will be stored or deleted soon, so that {@link #issueWritePrefetches}
     * loads what that write will first touch (a hint: see {@link Prefetches}).
     */
    default void prefetchWrite(byte[] key, int offset, int length) {}

    /** Loads what {@link #prefetchWrite} noted since the last call; returns anything. */
    default long issueWritePrefetches() {
        return 0;
    }
}
