package io.railgun.engine.state;

/**
 * Where the keys of a {@link KeyedState} go when they leave its bounded hot tier: the durable
 * store (see {@code io.railgun.engine.state.durable}). A key's value is its whole state, as
 * serialised by the key table. Called from the task's thread only.
 */
public interface ColdKeys {
    /** Points {@code into} at the state of a key that is not hot; false when the key has none. */
    boolean load(byte[] key, int offset, int length, StateReader into);

    /** Keeps the newest state of a key (it left the hot tier changed, or a checkpoint saves it). */
    void store(byte[] key, int offset, int length, byte[] value, int valueOffset, int valueLength);

    /** Keeps the state of a key as it was when the snapshot being taken began (a checkpoint's part). */
    void storeSnapshot(byte[] key, int offset, int length, byte[] value, int valueOffset, int valueLength);

    /** The key left every window: forget any state kept for it. */
    void delete(byte[] key, int offset, int length);
}
