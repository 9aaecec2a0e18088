package io.railgun.engine.state.durable;

/**
 * Settings of a {@link DurableStateStore}, validated once.
 *
 * @param hotKeys          most keys per GROUP BY field list held in memory (the hot tier); the
 *                         others live in RocksDB only. With {@code memory}, an upper bound on the
 *                         limit the budget gives
 * @param writeBufferBytes changes kept in memory between checkpoints beyond which the task takes
 *                         a checkpoint early (so memory stays bounded whatever the interval);
 *                         with {@code memory}, the budget's share replaces it
 * @param blockCacheBytes  RocksDB's block cache (reads of cold keys), the store's own; unused with
 *                         {@code memory} (one cache for all stores)
 * @param snapshotKeysPerEvent keys of a checkpoint's snapshot serialised after each event (the rest
 *                         wait for later events, or are saved just before they change): bounds
 *                         what a checkpoint adds to one event's processing time
 * @param dedupHotMs       event ids of the last {@code dedupHotMs} of event time (at least the
 *                         stream's lateness) stay in memory; older ones within the dedup horizon
 *                         go to RocksDB with the checkpoints (see {@code DedupIds})
 * @param memory           the node's shared budget (one block cache, one write-buffer manager,
 *                         shares per task), or null: the store sizes itself from the fields above
 */
public record DurableStateOptions(int hotKeys, long writeBufferBytes, long blockCacheBytes, int snapshotKeysPerEvent,
                                  long dedupHotMs, StateMemory memory) {
    public static final int DEFAULT_HOT_KEYS = 1_000_000;
    public static final long DEFAULT_WRITE_BUFFER_BYTES = 128L << 20;
    public static final long DEFAULT_BLOCK_CACHE_BYTES = 64L << 20;
    /**
     * 16. With 256, a node's four tasks checkpointing together at 5,000 ev/s stalled the replies for
     * up to ~80 ms every 10 s (JFR: the processor unit saving snapshots; from the stall's length
     * and the ~40 k keys changed in 10 s, roughly 2 µs a key, so 16 keys add some 30 µs to an
     * event — an estimate, not timed). E1's ~553 k changed keys then take at least ~35 k events
     * (keys are also saved just before they change, and more per idle call).
     */
    public static final int DEFAULT_SNAPSHOT_KEYS_PER_EVENT = 16;
    /** Default in-memory part of the dedup horizon: one day of event time. */
    public static final long DEFAULT_DEDUP_HOT_MS = 86_400_000L;

    public DurableStateOptions {
        if (hotKeys < 1) {
            throw new IllegalArgumentException("hotKeys must be at least 1, not " + hotKeys);
        }
        if (snapshotKeysPerEvent < 1) {
            throw new IllegalArgumentException("snapshotKeysPerEvent must be at least 1, not " + snapshotKeysPerEvent);
        }
        if (writeBufferBytes < 1 || blockCacheBytes < 0) {
            throw new IllegalArgumentException("writeBufferBytes must be positive and blockCacheBytes not negative");
        }
        if (dedupHotMs < 0) {
            throw new IllegalArgumentException("dedupHotMs must not be negative, not " + dedupHotMs);
        }
    }

    public DurableStateOptions(int hotKeys, long writeBufferBytes, long blockCacheBytes, int snapshotKeysPerEvent) {
        this(hotKeys, writeBufferBytes, blockCacheBytes, snapshotKeysPerEvent, DEFAULT_DEDUP_HOT_MS, null);
    }

    public static DurableStateOptions defaults() {
        return new DurableStateOptions(DEFAULT_HOT_KEYS, DEFAULT_WRITE_BUFFER_BYTES, DEFAULT_BLOCK_CACHE_BYTES,
                DEFAULT_SNAPSHOT_KEYS_PER_EVENT);
    }

    public DurableStateOptions withHotKeys(int n) {
        return new DurableStateOptions(n, writeBufferBytes, blockCacheBytes, snapshotKeysPerEvent, dedupHotMs, memory);
    }

    public DurableStateOptions withWriteBufferBytes(long n) {
        return new DurableStateOptions(hotKeys, n, blockCacheBytes, snapshotKeysPerEvent, dedupHotMs, memory);
    }

    public DurableStateOptions withSnapshotKeysPerEvent(int n) {
        return new DurableStateOptions(hotKeys, writeBufferBytes, blockCacheBytes, n, dedupHotMs, memory);
    }

    public DurableStateOptions withDedupHotMs(long ms) {
        return new DurableStateOptions(hotKeys, writeBufferBytes, blockCacheBytes, snapshotKeysPerEvent, ms, memory);
    }

    /** The same settings within a node's shared budget. */
    public DurableStateOptions withMemory(StateMemory shared) {
        return new DurableStateOptions(hotKeys, writeBufferBytes, blockCacheBytes, snapshotKeysPerEvent, dedupHotMs,
                shared);
    }
}
