package io.railgun.engine.state.durable;

import io.railgun.engine.state.LayeredBloomFilter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
import org.rocksdb.StringAppendOperator;

/**
 * The RocksDB database of a {@link DurableStateStore}: opening it with the store's options, its
 * on-disk format, point reads, and figures. On-disk format version 3:
 *
 * <pre>
 *  column family  key                                  value
 *  default        "checkpoint"                         the task's record of the last complete checkpoint
 *  default        "format"                             int, little-endian: the format version (3)
 *  state          key table name, 0, key bytes         the key's stored parts ({@code KeyRecordCodec}): a whole
 *                                                      part, then patches appended by the merge operator
 *  state          "ids", 0, id bytes                   the dedup id's event timestamp (8 bytes, little-endian)
 * </pre>
 *
 * The state family's merge operator concatenates (a string append with no delimiter), so a patch
 * is written as a merge and read back after the value it extends. A store with a checkpoint and
 * no format key is of version 1 (whole values only, before incremental checkpoints); version 2 held
 * keys whose SUM/AVG/VAR/STDDEV state kept inexact sums of values outside the fixed-point range
 * ({@code KeyRecordCodec} version 2). Opening a store of a version other than 3 fails with a clear
 * error rather than misreading it.
 */
final class StateDb implements AutoCloseable {
    static final int FORMAT_VERSION = 3;
    static final byte[] CHECKPOINT_KEY = "checkpoint".getBytes(StandardCharsets.UTF_8);
    static final byte[] FORMAT_KEY = "format".getBytes(StandardCharsets.UTF_8);
    private static final System.Logger LOG = System.getLogger(StateDb.class.getName());

    static {
        RocksDB.loadLibrary();
    }

    final RocksDB db;
    final ColumnFamilyHandle stateFamily;
    final ColumnFamilyHandle metaFamily;
    private final Path directory;
    private final List<AutoCloseable> resources = new ArrayList<>();
    private final ReadOptions readOptions = new ReadOptions();
    private final byte[] lastRecord;
    private ByteBuffer keyBuffer = ByteBuffer.allocateDirect(256);
    private ByteBuffer valueBuffer = ByteBuffer.allocateDirect(4096);
    private byte[] readScratch = new byte[4096];

    StateDb(Path directory, DurableStateOptions options) throws RocksDBException {
        this.directory = directory;
        StateMemory memory = options.memory();
        BloomFilter bloom = new BloomFilter(10);
        BlockBasedTableConfig table = new BlockBasedTableConfig().setFilterPolicy(bloom);
        DBOptions dbOptions = new DBOptions().setCreateIfMissing(true).setCreateMissingColumnFamilies(true)
                .setMaxBackgroundJobs(2);
        StringAppendOperator append = new StringAppendOperator("");
        ColumnFamilyOptions stateOptions = new ColumnFamilyOptions().setCompressionType(CompressionType.LZ4_COMPRESSION)
                .setMergeOperator(append);
        ColumnFamilyOptions metaOptions = new ColumnFamilyOptions();
        resources.addAll(List.of(readOptions, dbOptions, stateOptions, metaOptions, bloom, append));
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
            stateOptions.setWriteBufferSize(memory.memtableBytes());
            // a memtable takes memory in arena blocks (RocksDB's default: an eighth of its size, at
            // most 1 MiB); with many stores in a small budget, every new memtable's first block was
            // a large part of the share: a 32nd instead (the same 1 MiB for a budget of 1 GiB)
            stateOptions.setArenaBlockSize(Math.min(1L << 20, memory.memtableBytes() / 32));
            if (memory.rateLimiter() != null) {
                dbOptions.setRateLimiter(memory.rateLimiter());
            }
            metaOptions.setWriteBufferSize(1L << 20);
        }
        stateOptions.setTableFormatConfig(table);
        // a whole-key bloom filter in each memtable (a tenth of its size, charged with it): a lookup
        // of a key the memtable does not hold (most cold dedup ids, new keys) skips its skip list
        stateOptions.setMemtableWholeKeyFiltering(true).setMemtablePrefixBloomSizeRatio(0.1);
        // The meta family takes one small record a checkpoint, so its memtable never fills, and
        // RocksDB keeps every log file it has data in: the logs grew to 4x the memtables (E1:
        // 300-440 MB on disk for 46 MB of SST files). Past twice the state memtable, RocksDB
        // flushes the families holding the oldest log (the meta one: a few KB) and deletes it.
        dbOptions.setMaxTotalWalSize(2 * stateOptions.writeBufferSize());
        List<ColumnFamilyDescriptor> families = List.of(
                new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, metaOptions),
                new ColumnFamilyDescriptor("state".getBytes(StandardCharsets.UTF_8), stateOptions));
        List<ColumnFamilyHandle> handles = new ArrayList<>();
        this.db = RocksDB.open(dbOptions, directory.toString(), families, handles);
        this.metaFamily = handles.get(0);
        this.stateFamily = handles.get(1);
        try {
            this.lastRecord = db.get(metaFamily, CHECKPOINT_KEY);
            checkFormat();
        } catch (RocksDBException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /** Refuses a store of another format version; marks a new one with this version's. */
    private void checkFormat() throws RocksDBException {
        byte[] format = db.get(metaFamily, FORMAT_KEY);
        int version = format == null ? (lastRecord == null ? 0 : 1)
                : format.length == 4 ? (format[0] & 0xFF) | (format[1] & 0xFF) << 8 | (format[2] & 0xFF) << 16 | format[3] << 24
                : -1;
        if (version == 0) {
            // new: its first checkpoint will be in this format (a crash before leaves no checkpoint: new again)
            db.put(metaFamily, FORMAT_KEY, new byte[] {FORMAT_VERSION, 0, 0, 0});
        } else if (version != FORMAT_VERSION) {
            throw new DurableStateException("the state store in " + directory + " is in on-disk format "
                    + (version < 0 ? "unknown" : String.valueOf(version)) + "; this version of Railgun reads format "
                    + FORMAT_VERSION + " only. Run the version that wrote it, or move the task's state directory away"
                    + " so that the task rebuilds its state from its input", null);
        }
    }

    /** The record of the last complete checkpoint when the store was opened, or null when none. */
    byte[] lastRecord() {
        return lastRecord;
    }

    /** Adds every stored key to {@code stored} but those of the table under {@code skipPrefix} (the dedup ids). */
    void addStoredKeys(LayeredBloomFilter stored, byte[] skipPrefix) {
        byte[] after = skipPrefix.clone();
        after[after.length - 1] = 1;
        try (RocksIterator it = db.newIterator(stateFamily)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                byte[] k = it.key();
                if (Arrays.equals(k, 0, Math.min(k.length, skipPrefix.length), skipPrefix, 0, skipPrefix.length)) {
                    it.seek(after);
                    if (!it.isValid()) {
                        break;
                    }
                    k = it.key();
                }
                stored.add(k, 0, k.length);
            }
        }
    }

    /**
     * Reads a full key's value (its parts merged) into {@link #scratch()}; returns its length, or
     * -1 when RocksDB has none.
     */
    int get(byte[] key, int keyLength) {
        try {
            if (keyBuffer.capacity() < keyLength) {
                keyBuffer = ByteBuffer.allocateDirect(Math.max(keyLength, keyBuffer.capacity() * 2));
            }
            keyBuffer.clear();
            keyBuffer.put(key, 0, keyLength).flip();
            valueBuffer.clear();
            int size = db.get(stateFamily, readOptions, keyBuffer, valueBuffer);
            if (size == RocksDB.NOT_FOUND) {
                return -1;
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
            return size;
        } catch (RocksDBException e) {
            throw new DurableStateException("cannot read state from " + directory + ": " + e.getMessage(), e);
        }
    }

    /** Where {@link #get} put the value. */
    byte[] scratch() {
        return readScratch;
    }

    /** See {@link DurableStateStore#checkpointTo}. */
    void checkpointTo(Path target) {
        try (Checkpoint cp = Checkpoint.create(db)) {
            cp.createCheckpoint(target.toString());
        } catch (RocksDBException e) {
            throw new DurableStateException("cannot make a RocksDB checkpoint of " + directory + " in " + target + ": "
                    + e.getMessage(), e);
        }
    }

    /** See {@link DurableStateStore#rocksDbMemory()}. */
    long[] memory() {
        try {
            return new long[] {db.getAggregatedLongProperty("rocksdb.cur-size-all-mem-tables"),
                    db.getAggregatedLongProperty("rocksdb.estimate-table-readers-mem")};
        } catch (RocksDBException e) {
            throw new DurableStateException("cannot read the memory properties of " + directory + ": " + e.getMessage(), e);
        }
    }

    /** See {@link DurableStateStore#storedBytes()}. */
    long[] storedBytes() {
        long live = 0;
        try (RocksIterator it = db.newIterator(stateFamily)) {
            for (it.seekToFirst(); it.isValid(); it.next()) {
                live += it.key().length + it.value().length;
            }
            return new long[] {db.getAggregatedLongProperty("rocksdb.total-sst-files-size"), live};
        } catch (RocksDBException e) {
            throw new DurableStateException("cannot read the size of " + directory + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
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
