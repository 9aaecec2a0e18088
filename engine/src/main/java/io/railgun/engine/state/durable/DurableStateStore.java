package io.railgun.engine.state.durable;

import io.railgun.engine.state.ColdKeys;
import io.railgun.engine.state.KeyedState;
import io.railgun.engine.state.StateReader;
import io.railgun.engine.state.StateStore;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Checkpoint;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompressionType;
import org.rocksdb.DBOptions;
import org.rocksdb.LRUCache;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * A task's durable aggregation state: RocksDB is the store of record, a bounded in-memory hot tier
 * (the key tables, each at most the keys {@link HotTierSizing} gives it: the option's
 * {@link DurableStateOptions#hotKeys()}, or what its share of a node's budget holds) serves the common case,
 * and RocksDB is never written on an event's path.
 *
 * <p><b>Tiers.</b> A key evicted from the hot tier changed goes to the {@link WriteBuffer} (memory);
 * reading a key that is not hot looks in the write buffer, then in the hot keys' copies of the
 * checkpoint under way (one buffer of its own, reused checkpoint after checkpoint), then in the
 * buffer of changes of the checkpoint being taken, then in that of the checkpoint being written, then — unless the {@link StoredKeyFilter}
 * of keys ever stored says it never was (key tables; dedup ids are always looked up) — in RocksDB (block cache, bloom filters, disk). RocksDB keys are the key
 * table's name, a zero byte, then the key's bytes; values are key states as the key table
 * serialises them.
 *
 * <p><b>Checkpoints.</b> {@link #beginCheckpoint} sets the write buffer aside as the checkpoint's;
 * the task adds to it the hot keys changed before that point (its snapshot, saved a few keys per
 * event, copy on write), then {@link #finishCheckpoint} has the {@link CheckpointWriter}'s thread write it, with the
 * task's checkpoint record, as one synced atomic RocksDB batch, once the given future (the
 * reservoir's files being synced) completes. So RocksDB always holds exactly the last complete checkpoint: a
 * crash at any point leaves the previous checkpoint or the new one, never a mix. One checkpoint is
 * written at a time; the task's thread only waits when the write buffer reaches twice its budget
 * while one is still being written (back-pressure).
 *
 * <p>Owned by the task's thread, except the writer thread's read of frozen buffers.
 */
public final class DurableStateStore implements StateStore, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(DurableStateStore.class.getName());
    private static final byte[] CHECKPOINT_KEY = "checkpoint".getBytes(StandardCharsets.UTF_8);
    /** The key table of the dedup ids moved out of memory ({@link #dedupIds()}); key tables are named "by...". */
    private static final String DEDUP_TABLE = "ids";

    static {
        RocksDB.loadLibrary();
    }

    private final Path directory;
    private final DurableStateOptions options;
    private final List<AutoCloseable> resources = new ArrayList<>();
    private final RocksDB db;
    private final ColumnFamilyHandle stateFamily;
    private final ColumnFamilyHandle metaFamily;
    private final ReadOptions readOptions = new ReadOptions();
    private final CheckpointWriter writer;
    private final AutoCloseable budgetLease; // null without a shared budget
    private StoreTable dedupIds;

    private final Map<String, StoreTable> tables = new HashMap<>();
    private final HotTierSizing sizing;
    private WriteBuffer current = new WriteBuffer();
    private WriteBuffer spare = new WriteBuffer();
    private WriteBuffer snapshot; // the checkpoint being taken: changes before it began, then the keys it saves
    private WriteBuffer writing; // frozen, being written by the writer thread
    // the hot keys' copies of the checkpoint being taken or written (never both: a checkpoint begins
    // once the last one is written), newer than that checkpoint's changes; one buffer, reused, so
    // its arena grows once to the copies' size rather than once in each of the rotating buffers
    private final WriteBuffer copies = new WriteBuffer();
    private CompletableFuture<Void> written = CompletableFuture.completedFuture(null);
    private final byte[] lastRecord;

    private ByteBuffer keyBuffer = ByteBuffer.allocateDirect(256);
    private ByteBuffer valueBuffer = ByteBuffer.allocateDirect(4096);
    private byte[] readScratch = new byte[4096];
    private byte[] keyScratch = new byte[256];

    private long coldReads;
    private long filteredReads;
    private final StoredKeyFilter stored;

    private DurableStateStore(Path directory, DurableStateOptions options) throws RocksDBException {
        this.directory = directory;
        this.options = options;
        StateMemory memory = options.memory();
        BloomFilter bloom = new BloomFilter(10);
        BlockBasedTableConfig table = new BlockBasedTableConfig().setFilterPolicy(bloom);
        DBOptions dbOptions = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true)
                .setMaxBackgroundJobs(2);
        ColumnFamilyOptions stateOptions = new ColumnFamilyOptions().setCompressionType(CompressionType.LZ4_COMPRESSION);
        ColumnFamilyOptions metaOptions = new ColumnFamilyOptions();
        resources.addAll(List.of(readOptions, dbOptions, stateOptions, metaOptions, bloom));
        if (memory == null) {
            LRUCache cache = new LRUCache(options.blockCacheBytes());
            resources.add(cache);
            table.setBlockCache(cache);
        } else {
            // the node's one cache holds index and filter blocks too, and the memtables are charged
            // to it: RocksDB's memory is the cache's usage, bounded by the budget's share
            table.setBlockCache(memory.cache()).setCacheIndexAndFilterBlocks(true)
                    .setPinL0FilterAndIndexBlocksInCache(true);
            dbOptions.setWriteBufferManager(memory.writeBufferManager());
            long memtable = Math.max(1L << 20, Math.min(64L << 20, memory.rocksDbBytes() / 8));
            stateOptions.setWriteBufferSize(memtable);
            metaOptions.setWriteBufferSize(1L << 20);
        }
        stateOptions.setTableFormatConfig(table);
        List<ColumnFamilyDescriptor> families = List.of(
                new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, metaOptions),
                new ColumnFamilyDescriptor("state".getBytes(StandardCharsets.UTF_8), stateOptions));
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        this.db = RocksDB.open(dbOptions, directory.toString(), families, handles);
        this.metaFamily = handles.get(0);
        this.stateFamily = handles.get(1);
        this.lastRecord = db.get(metaFamily, CHECKPOINT_KEY);
        this.budgetLease = memory == null ? null : memory.attach();
        // the filter covers the key tables' keys, not the dedup ids (see StoreTable#filtered): the
        // ids of a long horizon are not read back at open, and their lookups go to RocksDB
        this.sizing = new HotTierSizing(memory, options.hotKeys());
        // a first layer for twice the hot keys, at most 2^21 (8 MiB): the cap may be "unbounded"
        // (a budget decides) and the filter adds layers as keys come anyway
        this.stored = new StoredKeyFilter(Math.min(1L << 21, 2L * options.hotKeys()));
        byte[] dedupPrefix = prefixOf(DEDUP_TABLE);
        byte[] afterDedup = dedupPrefix.clone();
        afterDedup[afterDedup.length - 1] = 1;
        try (RocksIterator it = db.newIterator(stateFamily)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                byte[] k = it.key();
                if (Arrays.equals(k, 0, Math.min(k.length, dedupPrefix.length), dedupPrefix, 0, dedupPrefix.length)) {
                    it.seek(afterDedup);
                    if (!it.isValid()) {
                        break;
                    }
                    k = it.key();
                }
                stored.add(k, 0, k.length);
            }
        }
        this.writer = new CheckpointWriter(db, stateFamily, metaFamily, CHECKPOINT_KEY, directory);
    }

    /**
     * Opens (creating) the store in {@code directory}, which it owns. Its content is the last
     * complete checkpoint ({@link #checkpointRecord()}).
     *
     * @throws DurableStateException when RocksDB cannot open it
     */
    public static DurableStateStore open(Path directory, DurableStateOptions options) {
        try {
            Files.createDirectories(directory);
            return new DurableStateStore(directory, options);
        } catch (RocksDBException | java.io.IOException e) {
            throw new DurableStateException("cannot open the state store in " + directory + ": " + e.getMessage(), e);
        }
    }

    /** The record of the last complete checkpoint when the store was opened, or null when none. */
    public byte[] checkpointRecord() {
        return lastRecord == null ? null : lastRecord.clone();
    }

    public DurableStateOptions options() {
        return options;
    }

    @Override
    public KeyedState keyedState(String name) {
        StoreTable t = tables.get(name);
        if (t == null) {
            t = new StoreTable(this, name, true);
            tables.put(name, t);
            resizeAll(); // one more table shares the task's hot share
        }
        return t;
    }

    /** Drops a key table: its hot keys now, its stored keys with the next checkpoint. */
    @Override
    public void drop(String name) {
        StoreTable t = tables.remove(name);
        current.dropPrefix(t != null ? t.prefix : prefixOf(name));
        resizeAll();
    }

    /**
     * The dedup ids kept out of memory: keys are ids, values their events' timestamps (8 bytes,
     * little-endian), written and deleted like key states, so with the checkpoints. Not a key
     * table: it takes no share of the hot tier.
     */
    public ColdKeys dedupIds() {
        if (dedupIds == null) {
            dedupIds = new StoreTable(this, DEDUP_TABLE, false);
        }
        return dedupIds;
    }

    /**
     * Whether the changes since the last checkpoint exceed the write-buffer budget: the option's
     * bytes, or a quarter of the task's share of a shared budget (the checkpoint's buffers take the rest).
     */
    public boolean overBudget() {
        return current.bytes() >= writeBufferLimit();
    }

    private long writeBufferLimit() {
        return options.memory() == null ? options.writeBufferBytes() : options.memory().writeBufferBytesPerTask() / 4;
    }

    /**
     * Heap bytes of the changes held (the write-buffer share): since the last checkpoint, and the
     * checkpoints' being taken and written, without the hot keys' copies
     * ({@link #checkpointCopyBytes()}, counted with the hot tier).
     */
    public long bufferedBytes() {
        return current.bytes() + (snapshot == null ? 0 : snapshot.bytes()) + (writing == null ? 0 : writing.bytes());
    }

    /**
     * Heap bytes of the hot keys' copies in the checkpoint being taken or written: part of what a
     * hot key costs ({@code StoreTable#bytesPerKey}), so counted in the hot tiers' share.
     */
    public long checkpointCopyBytes() {
        return copies.bytes();
    }

    /**
     * The smallest hot-key limit of the key tables now (the option's with none): the option, or
     * what a shared budget's share holds at the keys' measured size ({@link HotTierSizing}).
     */
    public int hotKeyLimit() {
        if (sizingStale()) {
            resizeAll();
        }
        int min = options.memory() == null ? options.hotKeys() : Integer.MAX_VALUE;
        for (StoreTable t : tables.values()) {
            min = Math.min(min, t.hotLimit());
        }
        return min == Integer.MAX_VALUE ? options.hotKeys() : min;
    }

    /** Heap bytes a hot key of the key tables costs now, as measured (the largest over the tables; 0 with none). */
    public long hotBytesPerKey() {
        long max = 0;
        for (StoreTable t : tables.values()) {
            max = Math.max(max, t.bytesPerKey());
        }
        return max;
    }

    /**
     * The most bytes the hot keys' copies in one checkpoint can take: every hot key of every table
     * changed. A buffer keeps arrays that size (see {@link WriteBuffer#clear}): the hot share
     * reserves it anyway, and giving it back made every checkpoint allocate its copies' arena anew.
     */
    private long copyBound() {
        long bytes = 0;
        for (StoreTable t : tables.values()) {
            // the keys there can be: the limit, or (a large limit without a budget) those present with room to grow
            bytes += (long) Math.min(t.hotLimit(), t.size() * 2L + 1024) * t.copyBytesPerKey();
        }
        return bytes;
    }

    /**
     * What this checkpoint's copies may take: every hot key now, at its measured copy size, and a
     * quarter more (keys come during the snapshot); 0 before any was measured.
     */
    private long expectedCopyBytes() {
        long bytes = 0;
        for (StoreTable t : tables.values()) {
            bytes += (long) t.size() * t.copyBytesPerKey();
        }
        return bytes + bytes / 4;
    }

    boolean sizingStale() {
        return sizing.stale();
    }

    /** Recomputes every table's limit: the task or table count changed. */
    void resizeAll() {
        sizing.share(tables.size());
        for (StoreTable t : tables.values()) {
            t.resize(sizing);
        }
    }

    /** Recomputes one table's limit: its key size was measured anew. */
    void resize(StoreTable t) {
        if (sizing.stale()) {
            resizeAll();
        } else {
            t.resize(sizing);
        }
    }

    /**
     * Whether a checkpoint is being written; when the last one is done, recycles its buffer (so:
     * the task's thread only).
     *
     * @throws DurableStateException when the last checkpoint failed to be written
     */
    public boolean checkpointRunning() {
        if (writing == null) {
            return false;
        }
        if (!written.isDone()) {
            return true;
        }
        try {
            written.join();
        } catch (java.util.concurrent.CompletionException e) {
            throw new DurableStateException("checkpoint of " + directory + " failed: " + e.getCause(), e.getCause());
        }
        writing.clear(writeBufferLimit());
        copies.clear(copyBound());
        spare = writing;
        writing = null;
        return false;
    }

    /**
     * Begins a checkpoint: the changes so far become its buffer, which the task completes with the
     * keys of its snapshot ({@link ColdKeys#storeSnapshot}); later changes go to a new buffer.
     * Waits first for the previous checkpoint's write.
     */
    public void beginCheckpoint() {
        if (snapshot != null) {
            throw new IllegalStateException("a checkpoint is already being taken");
        }
        awaitCheckpoint();
        copies.reserve(expectedCopyBytes());
        snapshot = current;
        current = spare;
        spare = null;
    }

    /** Whether a checkpoint was begun and not yet handed to the writer. */
    public boolean checkpointBegun() {
        return snapshot != null;
    }

    /**
     * Hands the checkpoint begun to the writer thread: its buffer plus {@code record}, atomically,
     * after {@code after} completes. The returned future completes when it is durable.
     */
    public CompletableFuture<Void> finishCheckpoint(byte[] record, CompletableFuture<Void> after) {
        WriteBuffer frozen = snapshot;
        snapshot = null;
        writing = frozen;
        written = writer.write(frozen, copies, record, after);
        return written;
    }

    /** Waits until no checkpoint is being written (rethrows its failure). */
    public void awaitCheckpoint() {
        if (writing != null) {
            try {
                written.join();
            } catch (java.util.concurrent.CompletionException e) {
                // checkpointRunning() below throws it, wrapped
            }
            checkpointRunning();
        }
    }

    /**
     * Whether the buffers are so far over budget that the task must wait for the running checkpoint:
     * twice the option's bytes, or, with a shared budget, the task's whole share counting the
     * checkpoints' buffers.
     */
    public boolean mustWait() {
        StateMemory memory = options.memory();
        if (memory == null) {
            return current.bytes() >= 2 * options.writeBufferBytes();
        }
        return bufferedBytes() >= memory.writeBufferBytesPerTask();
    }

    /**
     * Whether RocksDB holds a complete checkpoint: one was restored at open or written since.
     * Task's thread.
     */
    public boolean hasCheckpoint() {
        return lastRecord != null || writer.checkpoints() > 0;
    }

    /**
     * Makes a RocksDB checkpoint of the store in {@code target} (a new directory): SST files hard-linked
     * where possible, the rest copied. It holds exactly the last checkpoint written before it, since
     * a checkpoint is one atomic batch. Any thread, while the store is open; the caller keeps new
     * checkpoints from being written meanwhile when it must know which one it gets.
     *
     * @throws DurableStateException when RocksDB cannot make it
     */
    public void checkpointTo(Path target) {
        try (Checkpoint cp = Checkpoint.create(db)) {
            cp.createCheckpoint(target.toString());
        } catch (RocksDBException e) {
            throw new DurableStateException("cannot make a RocksDB checkpoint of " + directory + " in " + target + ": "
                    + e.getMessage(), e);
        }
    }

    /** Checkpoints written since the store was opened (read after {@link #awaitCheckpoint()}). */
    public long checkpoints() {
        return writer.checkpoints();
    }

    public long lastCheckpointBytes() {
        return writer.lastBytes();
    }

    public long lastCheckpointNanos() {
        return writer.lastNanos();
    }

    /**
     * RocksDB's own account of this store's memory (for stats and tests): its memtables, and its
     * table readers' index and filter blocks held outside the block cache. Any thread.
     */
    public long[] rocksDbMemory() {
        try {
            return new long[] {db.getAggregatedLongProperty("rocksdb.cur-size-all-mem-tables"),
                    db.getAggregatedLongProperty("rocksdb.estimate-table-readers-mem")};
        } catch (RocksDBException e) {
            throw new DurableStateException("cannot read the memory properties of " + directory + ": " + e.getMessage(), e);
        }
    }

    /** Keys read from RocksDB (not found in the write buffers, and maybe stored). */
    public long coldReads() {
        return coldReads;
    }

    /** Keys not looked up in RocksDB because the filter of stored keys knows they never were. */
    public long filteredReads() {
        return filteredReads;
    }

    /** Bytes of changes held in memory since the last checkpoint. */
    public long writeBufferBytes() {
        return current.bytes();
    }

    /** Waits for the running checkpoint, then closes RocksDB. Does not take a checkpoint: the task does. */
    @Override
    public void close() {
        try {
            awaitCheckpoint();
        } finally {
            writer.close();
            stateFamily.close();
            metaFamily.close();
            db.close();
            for (AutoCloseable r : resources) {
                try {
                    r.close();
                } catch (Exception e) {
                    LOG.log(System.Logger.Level.DEBUG, "closing " + r, e);
                }
            }
            if (budgetLease != null) {
                try {
                    budgetLease.close();
                } catch (Exception e) {
                    LOG.log(System.Logger.Level.DEBUG, "leaving the state memory budget", e);
                }
            }
        }
    }

    static byte[] prefixOf(String table) {
        byte[] name = table.getBytes(StandardCharsets.UTF_8);
        return Arrays.copyOf(name, name.length + 1); // name, then a zero byte
    }

    /** Builds the full store key of a table's key in {@link #keyScratch}; returns its length. */
    private int fullKey(byte[] prefix, byte[] key, int offset, int length) {
        int n = prefix.length + length;
        if (keyScratch.length < n) {
            keyScratch = new byte[Math.max(n, keyScratch.length * 2)];
        }
        System.arraycopy(prefix, 0, keyScratch, 0, prefix.length);
        System.arraycopy(key, offset, keyScratch, prefix.length, length);
        return n;
    }

    /** A table's key, under its prefix: its newest value from the write buffers, then RocksDB. */
    boolean load(byte[] prefix, boolean filtered, byte[] key, int offset, int length, StateReader into) {
        return load(fullKey(prefix, key, offset, length), filtered, into);
    }

    /** Keeps a table's key's state: a change since the last checkpoint, or a part of the snapshot being taken. */
    void store(byte[] prefix, boolean filtered, boolean toSnapshot, byte[] key, int offset, int length, byte[] value,
            int valueOffset, int valueLength) {
        int n = fullKey(prefix, key, offset, length);
        if (filtered) {
            stored.add(keyScratch, 0, n);
        }
        if (toSnapshot) {
            copies.put(keyScratch, 0, n, value, valueOffset, valueLength);
        } else {
            current.put(keyScratch, 0, n, value, valueOffset, valueLength);
        }
    }

    /** Deletes a table's key with the next checkpoint. */
    void delete(byte[] prefix, byte[] key, int offset, int length) {
        current.delete(keyScratch, 0, fullKey(prefix, key, offset, length));
    }

    /** Finds a full key's newest value: write buffers, then RocksDB. */
    private boolean load(int keyLength, boolean filtered, StateReader into) {
        for (int layer = 0; layer < 4; layer++) {
            // newest first: changes since the checkpoint under way, its copies, its changes
            WriteBuffer b = layer == 0 ? current : layer == 1 ? copies : layer == 2 ? snapshot : writing;
            if (b == null) {
                continue;
            }
            int slot = b.count() == 0 ? -1 : b.find(keyScratch, 0, keyLength); // (no hash for an empty buffer)
            if (slot >= 0) {
                int len = b.valueLength(slot);
                if (len == WriteBuffer.DELETED) {
                    return false;
                }
                into.reset(b.arena(), b.valueOffset(slot), len);
                return true;
            }
            if (b.dropped(keyScratch, 0, keyLength)) {
                return false;
            }
        }
        if (filtered && !stored.mightContain(keyScratch, 0, keyLength)) {
            filteredReads++;
            return false; // never stored: RocksDB does not have it
        }
        coldReads++;
        try {
            if (keyBuffer.capacity() < keyLength) {
                keyBuffer = ByteBuffer.allocateDirect(Math.max(keyLength, keyBuffer.capacity() * 2));
            }
            keyBuffer.clear();
            keyBuffer.put(keyScratch, 0, keyLength).flip();
            valueBuffer.clear();
            int size = db.get(stateFamily, readOptions, keyBuffer, valueBuffer);
            if (size == RocksDB.NOT_FOUND) {
                return false;
            }
            if (size > valueBuffer.capacity()) {
                valueBuffer = ByteBuffer.allocateDirect(Math.max(size, valueBuffer.capacity() * 2));
                keyBuffer.rewind();
                size = db.get(stateFamily, readOptions, keyBuffer, valueBuffer);
            }
            if (readScratch.length < size) {
                readScratch = new byte[Math.max(size, readScratch.length * 2)];
            }
            valueBuffer.get(0, readScratch, 0, size);
            into.reset(readScratch, 0, size);
            return true;
        } catch (RocksDBException e) {
            throw new DurableStateException("cannot read state from " + directory + ": " + e.getMessage(), e);
        }
    }
}
