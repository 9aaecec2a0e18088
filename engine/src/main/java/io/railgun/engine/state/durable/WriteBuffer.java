package io.railgun.engine.state.durable;

import io.railgun.engine.state.ByteKeyIndex;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The changes to the durable store since the last checkpoint, in memory: the newest value (or a
 * deletion) of every key written, and the key prefixes of key tables dropped. RocksDB only ever
 * receives a whole buffer, as one atomic batch with the checkpoint record, so the store always
 * equals the last complete checkpoint. Values are appended to one arena (an overwritten value's
 * bytes stay until the buffer is cleared), so writing allocates only when the arena grows.
 * A value is whole, or a patch ({@link #isPatch}: a snapshot's part of a key whose stored value it
 * extends, see {@code KeyRecordCodec}); a patch put over a value of the same key is appended to it.
 * Written by the task's thread; once handed to the writer thread it is only read, by both.
 */
final class WriteBuffer {
    static final int DELETED = -1;
    /** Bytes an entry costs beside its key and value, as {@link #bytes()} counts them. */
    static final int ENTRY_BYTES = 16;

    private ByteKeyIndex keys = new ByteKeyIndex(1024);
    private byte[] arena = new byte[1 << 16];
    private int used;
    private int[] valueOffsets = new int[1024];
    private int[] valueLengths = new int[1024];
    private boolean[] patches = new boolean[1024];
    private boolean inserted; // whether the last entry() added the key
    private int[] order = new int[1024];
    private int count;
    private long keyBytes;
    private final List<byte[]> droppedPrefixes = new ArrayList<>();

    /** Bytes held: values written (including overwritten ones) and keys. */
    long bytes() {
        return used + keyBytes + (long) ENTRY_BYTES * count;
    }


    int count() {
        return count;
    }

    /** Bytes of values written (including overwritten ones). */
    long valueBytes() {
        return used;
    }

    /** Bytes of the keys written. */
    long keyBytes() {
        return keyBytes;
    }

    /** Keeps a key's whole value, replacing any. */
    void put(byte[] key, int keyOffset, int keyLength, byte[] value, int offset, int length) {
        put(key, keyOffset, keyLength, value, offset, length, false);
    }

    /**
     * Keeps a key's value: whole (replacing any), or a patch, appended to the value held for the key
     * if any (which keeps its kind).
     *
     * @throws IllegalStateException for a patch of a key this buffer holds deleted
     */
    void put(byte[] key, int keyOffset, int keyLength, byte[] value, int offset, int length, boolean patch) {
        int slot = entry(key, keyOffset, keyLength);
        int before = inserted || !patch ? 0 : valueLengths[slot];
        if (before == DELETED) {
            throw new IllegalStateException("a patch of a deleted key");
        }
        if (used + before + length > arena.length) {
            arena = Arrays.copyOf(arena, Math.max(used + before + length, arena.length * 2));
        }
        System.arraycopy(arena, valueOffsets[slot], arena, used, before);
        System.arraycopy(value, offset, arena, used + before, length);
        valueOffsets[slot] = used;
        valueLengths[slot] = before + length;
        patches[slot] = before == 0 ? patch : patches[slot];
        used += before + length;
    }

    /** Whether an entry's value is a patch, to append to the key's older value. */
    boolean isPatch(int slot) {
        return patches[slot];
    }

    /**
     * Grows the arena to hold {@code bytes} of values, and the index {@code entries} entries of
     * {@code keyBytes} in all, at once when it is less than half that: one
     * allocation of the size expected instead of a chain of doublings (which allocate twice the
     * final size). Not when it is merely smaller: the estimate moves a little from one checkpoint
     * to the next, and growing to each new estimate copied the whole arena every checkpoint (E1:
     * 67 B/event allocated instead of 22); a put past the arena still doubles it.
     */
    void reserve(long bytes, int entries, long keyBytes) {
        long target = Math.min(Integer.MAX_VALUE - 8, bytes);
        if (target > 2L * arena.length) {
            arena = Arrays.copyOf(arena, (int) target);
        }
        // the index and the entries' arrays likewise (E1: 550k keys a checkpoint, ~100 MB of doublings)
        if (entries > 2L * valueOffsets.length) {
            keys.reserve(entries, keyBytes);
            valueOffsets = Arrays.copyOf(valueOffsets, entries);
            valueLengths = Arrays.copyOf(valueLengths, entries);
            patches = Arrays.copyOf(patches, entries);
            order = Arrays.copyOf(order, entries);
        }
    }

    /** Notes a load of the index bucket a write of this key will probe ({@link ByteKeyIndex#prefetch}). */
    void prefetch(byte[] key, int keyOffset, int keyLength) {
        keys.prefetch(key, keyOffset, keyLength);
    }

    /** Loads the buckets {@link #prefetch} noted; returns anything. */
    long issuePrefetches() {
        return keys.issuePrefetches();
    }

    void delete(byte[] key, int keyOffset, int keyLength) {
        int slot = entry(key, keyOffset, keyLength);
        valueLengths[slot] = DELETED;
        patches[slot] = false;
    }

    /** Forgets every key starting with {@code prefix} (a dropped key table): deleted from the store too. */
    void dropPrefix(byte[] prefix) {
        for (int i = 0; i < count; i++) {
            int slot = order[i];
            if (startsWith(slot, prefix)) {
                valueLengths[slot] = DELETED;
                patches[slot] = false;
            }
        }
        droppedPrefixes.add(prefix.clone());
    }

    boolean dropped(byte[] key, int offset, int length) {
        // indexed, not for-each: a cold load asks every buffer, and an iterator per ask was garbage per event
        for (int i = 0, n = droppedPrefixes.size(); i < n; i++) {
            byte[] p = droppedPrefixes.get(i);
            if (length >= p.length && Arrays.equals(key, offset, offset + p.length, p, 0, p.length)) {
                return true;
            }
        }
        return false;
    }

    /** The entry of a key, or -1 when this buffer has none. */
    int find(byte[] key, int offset, int length) {
        return keys.find(key, offset, length);
    }

    /** Length of an entry's value, or {@link #DELETED}. */
    int valueLength(int slot) {
        return valueLengths[slot];
    }

    int valueOffset(int slot) {
        return valueOffsets[slot];
    }

    byte[] arena() {
        return arena;
    }

    /** The {@code i}-th key written (for the batch): its slot. */
    int slotAt(int i) {
        return order[i];
    }

    ByteKeyIndex keys() {
        return keys;
    }

    List<byte[]> droppedPrefixes() {
        return droppedPrefixes;
    }

    /**
     * Empties the buffer for reuse. Its arrays are kept (a buffer is reused checkpoint after
     * checkpoint), unless the arena grew beyond twice {@code keepBytes}: then they are given back
     * (shrunk after a checkpoint, so a burst of changes does not hold its memory until the next
     * one). Twice, because a buffer is filled up to its limit and a little past it (a checkpoint adds
     * its snapshot's keys) every cycle, and the arena doubles as it grows: giving back an arena
     * between one and two limits made every cycle regrow it from 64 KiB (E1 durable, 250,000 hot
     * keys: 320 bytes allocated per event against 225 without the shrink).
     */
    void clear(long keepBytes) {
        if (arena.length > Math.max(1 << 16, 2 * keepBytes)) {
            int n = Math.max(1024, Math.min(count, 1 << 16));
            keys = new ByteKeyIndex(n);
            arena = new byte[1 << 16];
            valueOffsets = new int[n];
            valueLengths = new int[n];
            patches = new boolean[n];
            order = new int[n];
        } else {
            keys.clear();
        }
        used = 0;
        count = 0;
        keyBytes = 0;
        droppedPrefixes.clear();
    }

    private int entry(byte[] key, int offset, int length) {
        int r = keys.findOrInsert(key, offset, length);
        inserted = r < 0;
        if (r >= 0) {
            return r;
        }
        int slot = -r - 1;
        if (slot >= valueOffsets.length) {
            int n = Math.max(slot + 1, valueOffsets.length * 2);
            valueOffsets = Arrays.copyOf(valueOffsets, n);
            valueLengths = Arrays.copyOf(valueLengths, n);
            patches = Arrays.copyOf(patches, n);
        }
        if (count == order.length) {
            order = Arrays.copyOf(order, count * 2);
        }
        order[count++] = slot;
        keyBytes += length;
        return slot;
    }

    private boolean startsWith(int slot, byte[] prefix) {
        int len = keys.keyLength(slot);
        if (len < prefix.length) {
            return false;
        }
        byte[] k = new byte[len];
        keys.copyKey(slot, k, 0);
        return Arrays.equals(k, 0, prefix.length, prefix, 0, prefix.length);
    }
}
