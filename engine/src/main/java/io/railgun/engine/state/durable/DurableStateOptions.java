package io.railgun.engine.state.durable;

/**
 * Settings of a {@link DurableStateStore}, validated once.
 *
 * @param hotKeys          most keys per GROUP BY field list held in memory (the hot tier); the
 *                         others live in RocksDB only
 * @param writeBufferBytes changes kept in memory between checkpoints beyond which the task takes
 *                         a checkpoint early (so memory stays bounded whatever the interval)
 * @param blockCacheBytes  RocksDB's block cache (reads of cold keys)
 * @param snapshotKeysPerEvent keys of a checkpoint's snapshot serialised after each event (the rest
 *                         wait for later events, or are saved just before they change): bounds
 *                         what a checkpoint adds to one event's processing time
 */
public record DurableStateOptions(int hotKeys, long writeBufferBytes, long blockCacheBytes, int snapshotKeysPerEvent) {
    public static final int DEFAULT_HOT_KEYS = 1_000_000;
    public static final long DEFAULT_WRITE_BUFFER_BYTES = 128L << 20;
    public static final long DEFAULT_BLOCK_CACHE_BYTES = 64L << 20;
    public static final int DEFAULT_SNAPSHOT_KEYS_PER_EVENT = 256;

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
    }

    public static DurableStateOptions defaults() {
        return new DurableStateOptions(DEFAULT_HOT_KEYS, DEFAULT_WRITE_BUFFER_BYTES, DEFAULT_BLOCK_CACHE_BYTES,
                DEFAULT_SNAPSHOT_KEYS_PER_EVENT);
    }

    public DurableStateOptions withHotKeys(int n) {
        return new DurableStateOptions(n, writeBufferBytes, blockCacheBytes, snapshotKeysPerEvent);
    }

    public DurableStateOptions withWriteBufferBytes(long n) {
        return new DurableStateOptions(hotKeys, n, blockCacheBytes, snapshotKeysPerEvent);
    }

    public DurableStateOptions withSnapshotKeysPerEvent(int n) {
        return new DurableStateOptions(hotKeys, writeBufferBytes, blockCacheBytes, n);
    }
}
