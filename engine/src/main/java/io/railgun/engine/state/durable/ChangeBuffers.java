package io.railgun.engine.state.durable;

import io.railgun.engine.state.ByteKeyIndex;
import io.railgun.engine.state.LayeredBloomFilter;
import io.railgun.engine.state.StateReader;
import java.util.Arrays;

/**
 * A {@link DurableStateStore}'s values not yet in RocksDB, and the reads through them. Newest
 * first: {@code current} (changes since the checkpoint under way began: keys evicted changed,
 * deletions), {@code copies} (the hot keys' parts saved by that checkpoint's snapshot: one buffer,
 * reused checkpoint after checkpoint, so its pages grow once to the copies' size; a log, not
 * indexed, as a key saved there is hot, and a read is of a key that is not: a read finds there only
 * the copies of the keys that left their hot tier since the snapshot saved them, which the hot tier
 * reports, {@link #copyLeft}), then either
 * {@code snapshot} (the changes before the checkpoint being taken began) or {@code writing} (those
 * of the checkpoint being written: a checkpoint begins once the last one is written, so never
 * both), then RocksDB — unless the {@link LayeredBloomFilter} of the keys whose state may have left
 * their hot tier ({@link #stored}) says a key's never did (key tables; dedup ids are always looked
 * up): then none of these is asked.
 *
 * <p>A value is whole or a patch ({@link WriteBuffer#isPatch}); a read takes the newest whole value
 * (or RocksDB's, its parts already merged) and appends the patches newer than it, oldest first
 * (a buffer holds one value a key: a patch put over a value is appended to it).
 * RocksDB keys are the key table's name, a zero byte, then the key's bytes. Task's thread, but
 * for the writer thread's reads of the frozen buffers.
 */
final class ChangeBuffers {
    private static final int LAYERS = 4;
    private final StateDb db;
    /**
     * The key tables' keys whose state may have left their hot tier: those evicted (stored, or
     * dropped with their stored value current) and those RocksDB held at open. Not every key ever
     * stored: a checkpoint stores the hot keys that changed, but while a key is hot its state is in
     * memory, and when it leaves every window its stored value is deleted; only an eviction (or a
     * restart) leaves a key's state in the cold tier alone. With the checkpoints' keys in it, the
     * filter filled with every key, and a key back after leaving its window probed the buffers and
     * RocksDB for the value deleted when it left (E1, 2 s checkpoints: half the new keys, 188,000
     * RocksDB reads in 6 M events, 533 k ev/s against 638 k without).
     */
    private final LayeredBloomFilter stored;
    private WriteBuffer current = new WriteBuffer();
    private WriteBuffer spare = new WriteBuffer();
    private WriteBuffer snapshot;
    private WriteBuffer writing;
    private final WriteBuffer copies = WriteBuffer.log();
    // the copies of keys that left their hot tier since the snapshot saved them: the full key, at a
    // slot of this index, and its entry in the copies at that slot of copiesLeftEntries
    private final ByteKeyIndex copiesLeft = new ByteKeyIndex(64);
    private int[] copiesLeftEntries = new int[64];
    // copies of earlier checkpoints' snapshots: a copy's number is this plus its entry in the copies,
    // so a number kept by a hot tier past its checkpoint is told from one of the copies held by its
    // range alone, without comparing the key at that entry (a cache miss per freed key: FRAUD 2%)
    private long copiesBefore;
    private byte[] keyScratch = new byte[256];
    private byte[] assembled = new byte[4096];
    // the patches found on a read, newest first: their buffers and entries
    private final WriteBuffer[] patchBuffers = new WriteBuffer[LAYERS];
    private final int[] patchSlots = new int[LAYERS];
    private long coldReads;
    private long filteredReads;
    private long wholesStored;
    private long patchesStored;
    private long wholeBytes;
    private long patchBytes;

    ChangeBuffers(StateDb db, LayeredBloomFilter stored) {
        this.db = db;
        this.stored = stored;
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

    /** Keeps a table's key's value changed since the last checkpoint: whole, or a patch of its stored value. */
    void store(byte[] prefix, boolean filtered, boolean patch, byte[] key, int offset, int length, byte[] value,
            int valueOffset, int valueLength) {
        int n = fullKey(prefix, key, offset, length);
        if (filtered) {
            stored.add(keyScratch, 0, n);
        }
        current.put(keyScratch, 0, n, value, valueOffset, valueLength, patch);
        count(patch, valueLength);
    }

    /**
     * A table's key left its hot tier unchanged since its value was stored: its state is now only
     * there (see {@link #stored}).
     */
    void leftCurrent(byte[] prefix, boolean filtered, byte[] key, int offset, int length) {
        if (filtered) {
            stored.add(keyScratch, 0, fullKey(prefix, key, offset, length));
        }
    }

    /**
     * Keeps a part of the snapshot being taken: whole, or a patch of the key's stored value; returns
     * its copy number, for {@link #copyLeft}. Once a snapshot (each key at most once). Not
     * added to the filter: the key is hot ({@link #stored}).
     */
    long storeSnapshot(byte[] prefix, boolean patch, byte[] key, int offset, int length, byte[] value,
            int valueOffset, int valueLength) {
        int n = fullKey(prefix, key, offset, length);
        int entry = copies.put(keyScratch, 0, n, value, valueOffset, valueLength, patch);
        count(patch, valueLength);
        return copiesBefore + entry;
    }

    /**
     * A table's key saved into a snapshot's copies as copy number {@code copy} left its hot tier:
     * while those copies are held (until their checkpoint is written), a read of the key finds that
     * copy. Nothing when they are not held any more.
     */
    void copyLeft(byte[] prefix, byte[] key, int offset, int length, long copy) {
        long entry = copy - copiesBefore;
        if (entry < 0 || entry >= copies.count()) {
            return;
        }
        int n = fullKey(prefix, key, offset, length);
        int r = copiesLeft.findOrInsert(keyScratch, 0, n);
        int slot = r < 0 ? -r - 1 : r;
        if (slot >= copiesLeftEntries.length) {
            copiesLeftEntries = Arrays.copyOf(copiesLeftEntries, Math.max(slot + 1, 2 * copiesLeftEntries.length));
        }
        copiesLeftEntries[slot] = (int) entry;
    }

    private void count(boolean patch, int valueLength) {
        if (patch) {
            patchesStored++;
            patchBytes += valueLength;
        } else {
            wholesStored++;
            wholeBytes += valueLength;
        }
    }

    /**
     * Deletes a table's key in the snapshot being taken (newer than the changes it freezes); returns
     * the deletion's copy number, for {@link #copyLeft}. Once a snapshot.
     */
    long deleteSnapshot(byte[] prefix, byte[] key, int offset, int length) {
        return copiesBefore + copies.delete(keyScratch, 0, fullKey(prefix, key, offset, length));
    }

    /** Deletes a table's key with the next checkpoint. */
    void delete(byte[] prefix, byte[] key, int offset, int length) {
        current.delete(keyScratch, 0, fullKey(prefix, key, offset, length));
    }

    /**
     * Notes that a table's key will be stored or deleted soon: the bucket of the current buffer's
     * index its write probes is loaded by {@link #issueWritePrefetches}, with the others noted. The
     * index of a buffer holds a checkpoint interval's writes (a million keys and more), so each
     * write's first probe is a cache miss; loaded together, their misses overlap.
     */
    void prefetchWrite(byte[] prefix, byte[] key, int offset, int length) {
        current.prefetch(keyScratch, 0, fullKey(prefix, key, offset, length));
    }

    /** Loads what {@link #prefetchWrite} noted; returns anything. */
    long issueWritePrefetches() {
        return current.issuePrefetches();
    }

    /** Deletes a key table's keys with the next checkpoint. */
    void dropPrefix(byte[] prefix) {
        current.dropPrefix(prefix);
    }

    /** A table's key, under its prefix: its newest value from the write buffers, then RocksDB. */
    boolean load(byte[] prefix, boolean filtered, byte[] key, int offset, int length, StateReader into) {
        int keyLength = fullKey(prefix, key, offset, length);
        if (filtered && !stored.mightContain(keyScratch, 0, keyLength)) {
            // its state never left the hot tier (a key is added to the filter before a buffer takes
            // its evicted value), so nothing is kept for it: a new key costs one filter block, not a
            // probe of every buffer's index
            filteredReads++;
            return false;
        }
        int patches = 0;
        for (int layer = 0; layer < LAYERS; layer++) {
            // newest first: changes since the checkpoint under way, its copies, its changes
            WriteBuffer b = layer == 0 ? current : layer == 1 ? copies : layer == 2 ? snapshot : writing;
            if (b == null) {
                continue;
            }
            int slot;
            if (b == copies) {
                int left = copiesLeft.size() == 0 ? -1 : copiesLeft.find(keyScratch, 0, keyLength);
                slot = left < 0 ? -1 : copiesLeftEntries[left];
            } else {
                slot = b.count() == 0 ? -1 : b.find(keyScratch, 0, keyLength); // (no hash for an empty buffer)
            }
            if (slot >= 0) {
                int len = b.valueLength(slot);
                if (len == WriteBuffer.DELETED) {
                    return noBase(patches);
                }
                if (b.isPatch(slot)) {
                    patchBuffers[patches] = b;
                    patchSlots[patches++] = slot;
                    continue;
                }
                return found(b.valueArray(slot), b.valueOffset(slot), len, patches, into);
            }
            if (b.dropped(keyScratch, 0, keyLength)) {
                return noBase(patches);
            }
        }
        coldReads++;
        int size = db.get(keyScratch, keyLength);
        return size < 0 ? noBase(patches) : found(db.scratch(), 0, size, patches, into);
    }

    /** A base value found: points {@code into} at it, followed by the patches found newer than it. */
    private boolean found(byte[] base, int offset, int length, int patches, StateReader into) {
        if (patches == 0) {
            into.reset(base, offset, length);
            return true;
        }
        int total = length;
        for (int i = 0; i < patches; i++) {
            total += patchBuffers[i].valueLength(patchSlots[i]);
        }
        if (assembled.length < total) {
            assembled = new byte[Math.max(total, assembled.length * 2)];
        }
        System.arraycopy(base, offset, assembled, 0, length);
        int at = length;
        for (int i = patches - 1; i >= 0; i--) { // oldest first
            WriteBuffer b = patchBuffers[i];
            int len = b.valueLength(patchSlots[i]);
            System.arraycopy(b.valueArray(patchSlots[i]), b.valueOffset(patchSlots[i]), assembled, at, len);
            at += len;
            patchBuffers[i] = null;
        }
        into.reset(assembled, 0, total);
        return true;
    }

    /** No value under the patches found: none when there are none; else the patches lost their key. */
    private boolean noBase(int patches) {
        if (patches > 0) {
            throw new IllegalStateException("a patch of a stored key whose value is missing: the store is corrupt");
        }
        return false;
    }

    /** Heap bytes of the changes since the last checkpoint. */
    long currentBytes() {
        return current.bytes();
    }

    /** Heap bytes of the changes held: since the last checkpoint, and the checkpoints' being taken and written. */
    long bufferedBytes() {
        return current.bytes() + (snapshot == null ? 0 : snapshot.bytes()) + (writing == null ? 0 : writing.bytes());
    }

    /**
     * Heap bytes of the hot keys' copies in the checkpoint being taken or written, and of the index
     * of those that left their hot tier (its buckets at 60% load, slot and entry number: about
     * {@value #LEFT_ENTRY_BYTES} bytes a key beside its bytes).
     */
    long copiesBytes() {
        return copies.bytes() + copiesLeft.keyBytes() + (long) LEFT_ENTRY_BYTES * copiesLeft.size();
    }

    private static final int LEFT_ENTRY_BYTES = 52;

    /**
     * Sets the changes so far aside as the checkpoint's; later ones go to the spare buffer. The
     * copies' index is reserved for every hot key (their values need no reserve: see
     * {@link WriteBuffer}).
     */
    void begin(int expectedCopies, long expectedCopyKeyBytes) {
        copies.reserve(expectedCopies, expectedCopyKeyBytes);
        snapshot = current;
        current = spare;
        spare = null;
        // the next interval's changes are about this one's: one allocation for the arrays the first
        // time, not a chain of doublings (the two buffers alternate; each grew through its own)
        current.reserve(snapshot.count(), snapshot.keyBytes());
    }

    boolean begun() {
        return snapshot != null;
    }

    /** The checkpoint's changes, now frozen for the writer thread; its copies are {@link #copies()}. */
    WriteBuffer freeze() {
        writing = snapshot;
        snapshot = null;
        return writing;
    }

    WriteBuffer copies() {
        return copies;
    }

    boolean writing() {
        return writing != null;
    }

    /** The frozen buffers were written: emptied for reuse, keeping arrays up to the given bytes. */
    void recycle(long keepBytes, long keepCopyBytes) {
        writing.clear(keepBytes);
        copiesBefore += copies.count();
        copies.clear(keepCopyBytes);
        copiesLeft.clear();
        spare = writing;
        writing = null;
    }

    long coldReads() {
        return coldReads;
    }

    long filteredReads() {
        return filteredReads;
    }

    /**
     * Values stored (evicted or saved by a snapshot; the dedup ids' too): whole, as patches of
     * stored values, and their bytes (whole, patches).
     */
    long[] valuesStored() {
        return new long[] {wholesStored, patchesStored, wholeBytes, patchBytes};
    }
}
