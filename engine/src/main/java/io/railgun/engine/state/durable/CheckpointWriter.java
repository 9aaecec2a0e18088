package io.railgun.engine.state.durable;

import io.railgun.engine.state.ByteKeyIndex;
import io.railgun.engine.thread.BackgroundThreads;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.FlushOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Writes a {@link DurableStateStore}'s checkpoints to RocksDB on a thread of its own: a frozen
 * buffer of changes, the hot keys' copies and the checkpoint record as one synced atomic batch, so
 * RocksDB always holds exactly the last complete checkpoint. One checkpoint at a time (the store
 * begins the next once this one is written).
 *
 * <p>Batch order: the dropped key tables' ranges, the changes (but keys the copies hold whole too:
 * a key evicted, loaded back and changed before the checkpoint began is in both, and goes into the
 * memtables once; found by walking both in key order, as the copies are not indexed), the copies (newer; a patch as a merge, which the state family's merge operator
 * appends to the key's value, see {@link StateDb}), the record. Keys and values go to RocksDB through direct
 * buffers of this thread's, not a {@code byte[]} pair per key.
 *
 * <p>Threads: {@link #write} from the task's thread; the batch is built and written on the writer
 * thread, which only reads the frozen buffers; the counters are read by any thread.
 */
final class CheckpointWriter implements AutoCloseable {
    private final RocksDB db;
    private final ColumnFamilyHandle stateFamily;
    private final ColumnFamilyHandle metaFamily;
    private final byte[] recordKey;
    private final Path directory;
    private final StateMemory memory;
    private final ExecutorService thread;
    // the writer thread's
    private final KeyOrder keyOrder = new KeyOrder(); // (the writer's thread only)
    private int[] copiesOrder = new int[0]; // the copies' slots in key order, while the changes are sorted
    private ByteBuffer batchKey = ByteBuffer.allocateDirect(256);
    private byte[] batchKeyBytes = new byte[256];
    private ByteBuffer batchValue = ByteBuffer.allocateDirect(4096);
    // written by the writer thread, read by any
    private volatile long checkpoints;
    private volatile long lastBytes;
    private volatile long lastNanos;
    private volatile long totalBytes;
    private volatile long memtableWaits;

    CheckpointWriter(RocksDB db, ColumnFamilyHandle stateFamily, ColumnFamilyHandle metaFamily, byte[] recordKey,
            Path directory, StateMemory memory) {
        this.memory = memory;
        this.db = db;
        this.stateFamily = stateFamily;
        this.metaFamily = metaFamily;
        this.recordKey = recordKey;
        this.directory = directory;
        this.thread = Executors.newSingleThreadExecutor(BackgroundThreads.factory("state-checkpoint-" + directory.getFileName()));
    }

    /** Writes {@code changes}, {@code copies} and {@code record} once {@code after} completes; the future completes when durable. */
    CompletableFuture<Void> write(WriteBuffer changes, WriteBuffer copies, byte[] record, CompletableFuture<Void> after) {
        long start = System.nanoTime();
        return after.thenRunAsync(() -> writeNow(changes, copies, record, start), thread);
    }

    private void writeNow(WriteBuffer changes, WriteBuffer copies, byte[] record, long start) {
        long bytes = record.length;
        try (WriteBatch batch = new WriteBatch(batchReserve(changes, copies, record));
                WriteOptions sync = new WriteOptions().setSync(true)) {
            for (byte[] prefix : changes.droppedPrefixes()) {
                byte[] end = prefix.clone();
                end[end.length - 1] = 1;
                batch.deleteRange(stateFamily, prefix, end);
            }
            int copiesCount = copies.count();
            if (copiesOrder.length < copiesCount) {
                copiesOrder = new int[Math.max(copiesCount, 2 * copiesOrder.length)];
            }
            System.arraycopy(keyOrder.sort(copies), 0, copiesOrder, 0, copiesCount);
            bytes += addTo(batch, changes, keyOrder.sort(changes), copies);
            bytes += addTo(batch, copies, copiesOrder, null);
            batch.put(metaFamily, recordKey, record);
            awaitMemtableRoom();
            db.write(sync, batch);
        } catch (RocksDBException e) {
            throw new DurableStateException("cannot write a checkpoint to " + directory + ": " + e.getMessage(), e);
        }
        checkpoints = checkpoints + 1; // one writer thread
        lastBytes = bytes;
        totalBytes = totalBytes + bytes; // one writer thread
        lastNanos = System.nanoTime() - start;
    }

    /**
     * Bytes reserved for a checkpoint's batch: its buffers' bytes (their values, overwritten ones
     * too, keys, and 16 bytes an entry, against RocksDB's few bytes of tag and lengths), so more
     * than it takes. RocksDB's batch otherwise doubles as it fills, each time copying into freshly
     * mapped memory: for FRAUD's 80 MB checkpoints, page faults and copies were 40% of the writer
     * thread's time, zeroing and copying memory the task's thread shares the caches and memory
     * bus with. Pages reserved and never written are never mapped in.
     */
    private static int batchReserve(WriteBuffer changes, WriteBuffer copies, byte[] record) {
        return (int) Math.min(Integer.MAX_VALUE - 64, changes.bytes() + copies.bytes() + record.length + 64);
    }

    /**
     * Past its flush limit the write-buffer manager has the store that writes switch to a new memtable
     * and flush the full one in the background, but does not stall writers (see {@link StateMemory});
     * when the disk is slower than the writes, memtables waiting to be flushed pile up (measured with
     * flushes held to 1 MB/s: 56 MiB of memtables in a 26 MiB RocksDB share). So a writer that finds
     * the share's unevictable part over {@link StateMemory#memtableWaitBytes()} flushes this store's
     * memtables and waits for that before writing: the checkpoint waits, then the task (its buffers
     * fill), never an event on its own. Only a store whose memtables have had no write since they
     * were switched writes on (RocksDB reports a fresh memtable as its 2 KiB first block): once
     * written to, a memtable's bloom alone (a tenth of it, allocated with it) is over the line of a
     * sixteenth. Letting stores with a few keys write on unflushed was measured to take 45 such
     * stores in 64 MiB to 150% of RocksDB's share (configuration.md).
     */
    private void awaitMemtableRoom() throws RocksDBException {
        if (memory == null || memory.rocksDbPinnedBytes() <= memory.memtableWaitBytes()) {
            return;
        }
        if (db.getLongProperty(stateFamily, "rocksdb.cur-size-all-mem-tables") < memory.memtableBytes() / 16) {
            return;
        }
        try (FlushOptions wait = new FlushOptions().setWaitForFlush(true)) {
            db.flush(wait, stateFamily);
        }
        memtableWaits = memtableWaits + 1; // one writer thread
    }

    /** Times this store's writer flushed its memtables and waited, RocksDB's share being full. */
    long memtableWaits() {
        return memtableWaits;
    }

    /**
     * Adds a buffer's entries to a batch in key order ({@code sorted}: {@link KeyOrder}, the skip
     * list's cheap case), but those that {@code newer} (in order in {@link #copiesOrder}) holds whole;
     * returns the bytes put.
     */
    private long addTo(WriteBatch batch, WriteBuffer buffer, int[] sorted, WriteBuffer newer) throws RocksDBException {
        long bytes = 0;
        ByteKeyIndex keys = buffer.keys();
        ByteKeyIndex newerKeys = newer == null ? null : newer.keys();
        int newerAt = 0; // the first of newer's entries, in key order, not below the key
        int newerCount = newer == null ? 0 : newer.count();
        for (int i = 0, n = buffer.count(); i < n; i++) {
            int slot = sorted[i];
            int keyLength = keys.keyLength(slot);
            if (batchKey.capacity() < keyLength) {
                batchKey = ByteBuffer.allocateDirect(Math.max(keyLength, batchKey.capacity() * 2));
            }
            if (batchKeyBytes.length < keyLength) {
                batchKeyBytes = new byte[batchKey.capacity()];
            }
            keys.copyKey(slot, batchKeyBytes, 0);
            int order = 1;
            while (newerAt < newerCount
                    && (order = compare(newerKeys, copiesOrder[newerAt], batchKeyBytes, keyLength)) < 0) {
                newerAt++;
            }
            if (newerAt < newerCount && order == 0 && !newer.isPatch(copiesOrder[newerAt])) {
                continue; // (a patch there extends this value: both go)
            }
            batchKey.clear();
            batchKey.put(batchKeyBytes, 0, keyLength).flip();
            int len = buffer.valueLength(slot);
            if (len == WriteBuffer.DELETED) {
                batch.delete(stateFamily, batchKey);
            } else if (buffer.isPatch(slot)) {
                // (no direct-buffer merge in RocksJava: arrays, on this thread only)
                batch.merge(stateFamily, Arrays.copyOf(batchKeyBytes, keyLength),
                        Arrays.copyOfRange(buffer.valueArray(slot), buffer.valueOffset(slot), buffer.valueOffset(slot) + len));
                bytes += len + keyLength;
            } else {
                if (batchValue.capacity() < len) {
                    batchValue = ByteBuffer.allocateDirect(Math.max(len, batchValue.capacity() * 2));
                }
                batchValue.clear();
                batchValue.put(buffer.valueArray(slot), buffer.valueOffset(slot), len).flip();
                batch.put(stateFamily, batchKey, batchValue);
                bytes += len + keyLength;
            }
        }
        return bytes;
    }

    /** A key of {@code keys} at {@code slot} against {@code key}'s first {@code length} bytes, unsigned, as {@link KeyOrder}. */
    private static int compare(ByteKeyIndex keys, int slot, byte[] key, int length) {
        int offset = keys.keyOffset(slot);
        return Arrays.compareUnsigned(keys.keyArena(), offset, offset + keys.keyLength(slot), key, 0, length);
    }

    /** Checkpoints written since the store was opened. */
    long checkpoints() {
        return checkpoints;
    }

    long lastBytes() {
        return lastBytes;
    }

    long lastNanos() {
        return lastNanos;
    }

    /** Bytes (keys and values) of every checkpoint written since the store was opened. */
    long totalBytes() {
        return totalBytes;
    }

    /** Stops the thread once the checkpoint under way is written (the caller waited for it). */
    @Override
    public void close() {
        thread.shutdown();
        try {
            thread.awaitTermination(1, TimeUnit.MINUTES);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
