package io.railgun.engine.state.durable;

import io.railgun.engine.state.ByteKeyIndex;
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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
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
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * A task's durable aggregation state: RocksDB is the store of record, a bounded in-memory hot tier
 * (the key tables, at most {@link DurableStateOptions#hotKeys()} keys each) serves the common case,
 * and RocksDB is never written on an event's path.
 *
 * <p><b>Tiers.</b> A key evicted from the hot tier changed goes to the {@link WriteBuffer} (memory);
 * reading a key that is not hot looks in the write buffer, then in the buffer of the checkpoint
 * being taken, then in that of the checkpoint being written, then — unless the {@link StoredKeyFilter}
 * of keys ever stored says it never was — in RocksDB (block cache, bloom filters, disk). RocksDB keys are the key
 * table's name, a zero byte, then the key's bytes; values are key states as the key table
 * serialises them.
 *
 * <p><b>Checkpoints.</b> {@link #beginCheckpoint} sets the write buffer aside as the checkpoint's;
 * the task adds to it the hot keys changed before that point (its snapshot, saved a few keys per
 * event, copy on write), then {@link #finishCheckpoint} has a background thread write it, with the
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
    private final ExecutorService writer;

    private final Map<String, TableState> tables = new HashMap<>();
    private WriteBuffer current = new WriteBuffer();
    private WriteBuffer spare = new WriteBuffer();
    private WriteBuffer snapshot; // the checkpoint being taken: changes before it began, then the keys it saves
    private WriteBuffer writing; // frozen, being written by the writer thread
    private CompletableFuture<Void> written = CompletableFuture.completedFuture(null);
    private final byte[] lastRecord;

    private ByteBuffer keyBuffer = ByteBuffer.allocateDirect(256);
    private ByteBuffer valueBuffer = ByteBuffer.allocateDirect(4096);
    private byte[] readScratch = new byte[4096];
    private byte[] keyScratch = new byte[256];

    // written by the checkpoint writer thread, read by any
    private volatile long checkpoints;
    private volatile long lastCheckpointBytes;
    private volatile long lastCheckpointNanos;
    private long coldReads;
    private long filteredReads;
    private final StoredKeyFilter stored;

    private DurableStateStore(Path directory, DurableStateOptions options) throws RocksDBException {
        this.directory = directory;
        this.options = options;
        LRUCache cache = new LRUCache(options.blockCacheBytes());
        BloomFilter bloom = new BloomFilter(10);
        BlockBasedTableConfig table = new BlockBasedTableConfig().setBlockCache(cache).setFilterPolicy(bloom);
        ColumnFamilyOptions stateOptions = new ColumnFamilyOptions().setTableFormatConfig(table)
                .setCompressionType(CompressionType.LZ4_COMPRESSION);
        ColumnFamilyOptions metaOptions = new ColumnFamilyOptions();
        DBOptions dbOptions = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true)
                .setMaxBackgroundJobs(2);
        resources.addAll(List.of(readOptions, dbOptions, stateOptions, metaOptions, bloom, cache));
        List<ColumnFamilyDescriptor> families = List.of(
                new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, metaOptions),
                new ColumnFamilyDescriptor("state".getBytes(StandardCharsets.UTF_8), stateOptions));
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        this.db = RocksDB.open(dbOptions, directory.toString(), families, handles);
        this.metaFamily = handles.get(0);
        this.stateFamily = handles.get(1);
        this.lastRecord = db.get(metaFamily, CHECKPOINT_KEY);
        this.stored = new StoredKeyFilter(2L * options.hotKeys());
        try (RocksIterator it = db.newIterator(stateFamily)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                byte[] k = it.key();
                stored.add(k, 0, k.length);
            }
        }
        this.writer = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "state-checkpoint-" + directory.getFileName());
            t.setDaemon(true);
            return t;
        });
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
        return tables.computeIfAbsent(name, TableState::new);
    }

    /** Drops a key table: its hot keys now, its stored keys with the next checkpoint. */
    @Override
    public void drop(String name) {
        TableState t = tables.remove(name);
        current.dropPrefix(t != null ? t.prefix : prefixOf(name));
    }

    /** Whether the changes since the last checkpoint exceed the write-buffer budget. */
    public boolean overBudget() {
        return current.bytes() >= options.writeBufferBytes();
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
        writing.clear();
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
        long start = System.nanoTime();
        written = after.thenRunAsync(() -> write(frozen, record, start), writer);
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

    /** Whether the write buffer is so far over budget that the task must wait for the running checkpoint. */
    public boolean mustWait() {
        return current.bytes() >= 2 * options.writeBufferBytes();
    }

    private void write(WriteBuffer buffer, byte[] record, long start) {
        long bytes = record.length;
        try (WriteBatch batch = new WriteBatch(); WriteOptions sync = new WriteOptions().setSync(true)) {
            for (byte[] prefix : buffer.droppedPrefixes()) {
                byte[] end = prefix.clone();
                end[end.length - 1] = 1;
                batch.deleteRange(stateFamily, prefix, end);
            }
            ByteKeyIndex keys = buffer.keys();
            for (int i = 0, n = buffer.count(); i < n; i++) {
                int slot = buffer.slotAt(i);
                byte[] key = new byte[keys.keyLength(slot)];
                keys.copyKey(slot, key, 0);
                int len = buffer.valueLength(slot);
                if (len == WriteBuffer.DELETED) {
                    batch.delete(stateFamily, key);
                } else {
                    int off = buffer.valueOffset(slot);
                    batch.put(stateFamily, key, Arrays.copyOfRange(buffer.arena(), off, off + len));
                    bytes += len + key.length;
                }
            }
            batch.put(metaFamily, CHECKPOINT_KEY, record);
            db.write(sync, batch);
        } catch (RocksDBException e) {
            throw new DurableStateException("cannot write a checkpoint to " + directory + ": " + e.getMessage(), e);
        }
        checkpoints = checkpoints + 1; // one writer thread
        lastCheckpointBytes = bytes;
        lastCheckpointNanos = System.nanoTime() - start;
    }

    /** Checkpoints written since the store was opened (read after {@link #awaitCheckpoint()}). */
    public long checkpoints() {
        return checkpoints;
    }

    public long lastCheckpointBytes() {
        return lastCheckpointBytes;
    }

    public long lastCheckpointNanos() {
        return lastCheckpointNanos;
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
            writer.shutdown();
            try {
                writer.awaitTermination(1, TimeUnit.MINUTES);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
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
        }
    }

    private static byte[] prefixOf(String table) {
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

    /** Finds a full key's newest value: write buffers, then RocksDB. */
    private boolean load(int keyLength, StateReader into) {
        for (int layer = 0; layer < 3; layer++) {
            WriteBuffer b = layer == 0 ? current : layer == 1 ? snapshot : writing;
            if (b == null) {
                continue;
            }
            int slot = b.find(keyScratch, 0, keyLength);
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
        if (!stored.mightContain(keyScratch, 0, keyLength)) {
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

    /** One key table: its hot keys in memory, the others behind {@link ColdKeys}. */
    private final class TableState implements KeyedState, ColdKeys {
        final byte[] prefix;
        final ByteKeyIndex hot = new ByteKeyIndex(1024);

        TableState(String name) {
            this.prefix = prefixOf(name);
        }

        @Override
        public int find(byte[] key, int offset, int length) {
            return hot.find(key, offset, length);
        }

        @Override
        public int findOrInsert(byte[] key, int offset, int length) {
            return hot.findOrInsert(key, offset, length);
        }

        @Override
        public void release(int slot) {
            hot.removeSlot(slot);
        }

        @Override
        public int capacity() {
            return hot.capacity();
        }

        @Override
        public int size() {
            return hot.size();
        }

        @Override
        public int copyKey(int slot, byte[] dst, int dstOffset) {
            return hot.copyKey(slot, dst, dstOffset);
        }

        @Override
        public int keyLength(int slot) {
            return hot.keyLength(slot);
        }

        @Override
        public int hotLimit() {
            return options.hotKeys();
        }

        @Override
        public ColdKeys cold() {
            return this;
        }

        @Override
        public boolean load(byte[] key, int offset, int length, StateReader into) {
            return DurableStateStore.this.load(fullKey(prefix, key, offset, length), into);
        }

        @Override
        public void store(byte[] key, int offset, int length, byte[] value, int valueOffset, int valueLength) {
            int n = fullKey(prefix, key, offset, length);
            stored.add(keyScratch, 0, n);
            current.put(keyScratch, 0, n, value, valueOffset, valueLength);
        }

        @Override
        public void storeSnapshot(byte[] key, int offset, int length, byte[] value, int valueOffset, int valueLength) {
            int n = fullKey(prefix, key, offset, length);
            stored.add(keyScratch, 0, n);
            snapshot.put(keyScratch, 0, n, value, valueOffset, valueLength);
        }

        @Override
        public void delete(byte[] key, int offset, int length) {
            int n = fullKey(prefix, key, offset, length);
            current.delete(keyScratch, 0, n);
        }
    }
}
