package io.railgun.engine.state.durable;

import io.railgun.engine.state.LayeredBloomFilter;
import io.railgun.engine.state.ColdKeys;
import io.railgun.engine.state.KeyedState;
import io.railgun.engine.state.StateReader;
import io.railgun.engine.state.StateStore;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import org.rocksdb.RocksDBException;

/**
 * A task's durable aggregation state: RocksDB is the store of record, a bounded in-memory hot tier
 * (the key tables, each at most the keys {@link HotTierSizing} gives it: the option's
 * {@link DurableStateOptions#hotKeys()}, or what its share of a node's budget holds) serves the common case,
 * and RocksDB is never written on an event's path.
 *
 * <p><b>Tiers.</b> A key evicted from the hot tier changed goes to a {@link WriteBuffer} (memory);
 * reading a key that is not hot first asks a {@link LayeredBloomFilter} of the keys evicted (and
 * those in RocksDB at open); unless it says the key's state never left the hot tier, it looks in
 * the write buffers, then in RocksDB (block cache, bloom filters, disk): see {@link ChangeBuffers}.
 * RocksDB's layout and on-disk format: {@link StateDb}.
 *
 * <p><b>Checkpoints.</b> {@link #beginCheckpoint} sets the write buffer aside as the checkpoint's;
 * the task adds to it the hot keys changed before that point (its snapshot, saved a few keys per
 * event, copy on write), then {@link #finishCheckpoint} has the {@link CheckpointWriter}'s thread write it, with the
 * task's checkpoint record, as one synced atomic RocksDB batch (a hot key changed in only some of
 * its nodes is written as a patch of those, see {@code KeyRecordCodec}), once the given future (the
 * reservoir's files being synced) completes. So RocksDB always holds exactly the last complete checkpoint: a
 * crash at any point leaves the previous checkpoint or the new one, never a mix. One checkpoint is
 * written at a time; the task's thread only waits when the write buffer reaches twice its budget
 * while one is still being written (back-pressure).
 *
 * <p>Owned by the task's thread, except the writer thread's read of frozen buffers.
 */
public final class DurableStateStore implements StateStore, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(DurableStateStore.class.getName());
    /** The key table of the dedup ids moved out of memory ({@link #dedupIds()}); key tables are named "by...". */
    private static final String DEDUP_TABLE = "ids";

    private final Path directory;
    private final DurableStateOptions options;
    private final StateDb db;
    private final CheckpointWriter writer;
    private final StateMemory.Lease budgetLease; // null without a shared budget
    private StoreTable dedupIds;

    private final StoreTables tables;
    private final ChangeBuffers buffers;
    private CompletableFuture<Void> written = CompletableFuture.completedFuture(null);

    private DurableStateStore(Path directory, DurableStateOptions options) throws RocksDBException {
        this.directory = directory;
        this.options = options;
        this.db = new StateDb(directory, options);
        StateMemory memory = options.memory();
        this.budgetLease = memory == null ? null : memory.attach();
        try {
            this.tables = new StoreTables(new HotTierSizing(budgetLease, options.hotKeys()), options);
            // the filter of the keys whose state may be outside their hot tier (ChangeBuffers#stored):
            // at open, all that RocksDB holds. It covers the key tables' keys, not the dedup ids (see
            // StoreTable#filtered): the ids of a long horizon are not read back at open, and their
            // lookups go to RocksDB.
            // A first layer for twice the hot keys, at most 2^21 (8 MiB): the cap may be "unbounded"
            // (a budget decides) and the filter adds layers as keys come anyway
            LayeredBloomFilter stored = new LayeredBloomFilter(Math.min(1L << 21, 2L * options.hotKeys()));
            db.addStoredKeys(stored, prefixOf(DEDUP_TABLE));
            this.buffers = new ChangeBuffers(db, stored);
            this.writer = new CheckpointWriter(db.db, db.stateFamily, db.metaFamily, StateDb.CHECKPOINT_KEY, directory,
                    options.memory());
            tables.resizeAll(); // says it wants nothing yet: until it has key tables, the others need not leave it a part
        } catch (RuntimeException | Error e) {
            if (budgetLease != null) {
                budgetLease.close();
            }
            db.close();
            throw e;
        }
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
        byte[] lastRecord = db.lastRecord();
        return lastRecord == null ? null : lastRecord.clone();
    }

    public DurableStateOptions options() {
        return options;
    }

    @Override
    public KeyedState keyedState(String name) {
        return tables.get(name, () -> new StoreTable(this, buffers, name, true));
    }

    /** Drops a key table: its hot keys now, its stored keys with the next checkpoint. */
    @Override
    public void drop(String name) {
        StoreTable t = tables.remove(name);
        buffers.dropPrefix(t != null ? t.prefix : prefixOf(name));
    }

    /**
     * The dedup ids kept out of memory: keys are ids, values their events' timestamps (8 bytes,
     * little-endian), written and deleted like key states, so with the checkpoints. Not a key
     * table: it takes no share of the hot tier.
     */
    public ColdKeys dedupIds() {
        if (dedupIds == null) {
            dedupIds = new StoreTable(this, buffers, DEDUP_TABLE, false);
        }
        return dedupIds;
    }

    /**
     * Whether the changes since the last checkpoint exceed the write-buffer budget: the option's
     * bytes, or a quarter of the task's share of a shared budget (the checkpoint's buffers take the rest).
     */
    public boolean overBudget() {
        return buffers.currentBytes() >= writeBufferLimit();
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
        return buffers.bufferedBytes();
    }

    /** Times this store's checkpoint writer waited for a flush of its memtables, RocksDB's share being full. */
    public long memtableWaits() {
        return writer.memtableWaits();
    }

    /**
     * Heap bytes of the hot keys' copies in the checkpoint being taken or written: part of what a
     * hot key costs ({@code StoreTable#bytesPerKey}), so counted in the hot tiers' share.
     */
    public long checkpointCopyBytes() {
        return buffers.copiesBytes();
    }

    /**
     * The largest hot-key limit of the key tables now (the option's with none): the option, or
     * what a shared budget's share holds at the keys' measured size ({@link HotTierSizing}).
     */
    public int hotKeyLimit() {
        return tables.hotKeyLimit();
    }

    /** This task's part of the node's hot share now, split among its key tables ({@link Long#MAX_VALUE} without a budget). */
    public long hotShareBytes() {
        return tables.hotShareBytes();
    }

    /** Heap bytes a hot key of the key tables costs now, as measured (the largest over the tables; 0 with none). */
    public long hotBytesPerKey() {
        return tables.hotBytesPerKey();
    }

    boolean sizingStale() {
        return tables.sizingStale();
    }

    void resizeAll() {
        tables.resizeAll();
    }

    /**
     * Whether a checkpoint is being written; when the last one is done, recycles its buffer (so:
     * the task's thread only).
     *
     * @throws DurableStateException when the last checkpoint failed to be written
     */
    public boolean checkpointRunning() {
        if (!buffers.writing()) {
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
        buffers.recycle(writeBufferLimit(), tables.copyBound());
        return false;
    }

    /**
     * Begins a checkpoint: the changes so far become its buffer, which the task completes with the
     * keys of its snapshot ({@link ColdKeys#storeSnapshot}); later changes go to a new buffer.
     * Waits first for the previous checkpoint's write.
     */
    public void beginCheckpoint() {
        if (buffers.begun()) {
            throw new IllegalStateException("a checkpoint is already being taken");
        }
        awaitCheckpoint();
        buffers.begin(tables.expectedCopies(), tables.expectedCopyKeyBytes());
    }

    /** Whether a checkpoint was begun and not yet handed to the writer. */
    public boolean checkpointBegun() {
        return buffers.begun();
    }

    /**
     * Hands the checkpoint begun to the writer thread: its buffer plus {@code record}, atomically,
     * after {@code after} completes. The returned future completes when it is durable.
     */
    public CompletableFuture<Void> finishCheckpoint(byte[] record, CompletableFuture<Void> after) {
        written = writer.write(buffers.freeze(), buffers.copies(), record, after);
        return written;
    }

    /** Waits until no checkpoint is being written (rethrows its failure). */
    public void awaitCheckpoint() {
        if (buffers.writing()) {
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
            return buffers.currentBytes() >= 2 * options.writeBufferBytes();
        }
        return bufferedBytes() >= memory.writeBufferBytesPerTask();
    }

    /**
     * Whether RocksDB holds a complete checkpoint: one was restored at open or written since.
     * Task's thread.
     */
    public boolean hasCheckpoint() {
        return db.lastRecord() != null || writer.checkpoints() > 0;
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
        db.checkpointTo(target);
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

    /** Bytes (keys and values) written by every checkpoint since the store was opened. Any thread. */
    public long checkpointBytesWritten() {
        return writer.totalBytes();
    }

    /**
     * For stats: RocksDB's SST files' bytes, and the state's bytes as read back (every stored key
     * and value, one scan: not for a hot path). Any thread, while the store is open.
     */
    public long[] storedBytes() {
        return db.storedBytes();
    }

    /**
     * Values stored since the store was opened (keys evicted changed or saved by a snapshot, dedup
     * ids): whole, and as patches of the key's changed nodes; then the bytes of each.
     */
    public long[] valuesStored() {
        return buffers.valuesStored();
    }

    /**
     * RocksDB's own account of this store's memory (for stats and tests): its memtables, and its
     * table readers' index and filter blocks held outside the block cache. Any thread.
     */
    public long[] rocksDbMemory() {
        return db.memory();
    }

    /** Keys read from RocksDB (not found in the write buffers, and maybe stored). */
    public long coldReads() {
        return buffers.coldReads();
    }

    /** Keys not looked up in RocksDB because the filter of stored keys knows they never were. */
    public long filteredReads() {
        return buffers.filteredReads();
    }

    /** Bytes of changes held in memory since the last checkpoint. */
    public long writeBufferBytes() {
        return buffers.currentBytes();
    }

    /** Waits for the running checkpoint, then closes RocksDB. Does not take a checkpoint: the task does. */
    @Override
    public void close() {
        try {
            awaitCheckpoint();
        } finally {
            writer.close();
            db.close();
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
}
