package io.railgun.engine.state;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * An open-addressing hash index from byte-string keys to dense int slots, allocation-free in steady
 * state. Keys are copied into one byte arena; slots are reused through a free list, so callers keep
 * per-key state in primitive arrays indexed by slot (see {@link #capacity()}).
 *
 * <p>Layout: {@code table} holds {@code (hash << 32) | (slot + 1)} per bucket (0 = empty), so a probe
 * touches one long; linear probing with backward-shift deletion (no tombstones). The arena is
 * compacted into a spare buffer, swapped with it, when more than half of it is garbage.
 *
 * <p>Owned by one thread (a task's); not thread-safe.
 */
public final class ByteKeyIndex {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int MAX_LOAD_PERCENT = 60;

    private long[] table;
    private int mask;
    private int size;

    // per slot: (arena offset << 32) | key length; length -1 marks a free slot
    private long[] keys;
    private int[] freeSlots;
    private int freeCount;
    private int slotsUsed; // high-water mark of slot numbers handed out

    private byte[] arena;
    private byte[] spare = new byte[0];
    private int arenaEnd;
    private long garbageBytes;

    public ByteKeyIndex(int expectedKeys) {
        int buckets = Integer.highestOneBit(Math.max(16, expectedKeys * 100 / MAX_LOAD_PERCENT) - 1) << 1;
        table = new long[buckets];
        mask = buckets - 1;
        int slots = Math.max(16, expectedKeys);
        keys = new long[slots];
        freeSlots = new int[16];
        arena = new byte[Math.max(256, slots * 16)];
    }

    /** Removes every key, keeping the arrays (no allocation: for indexes emptied and filled again). */
    public void clear() {
        if (size > 0 || slotsUsed > 0) {
            Arrays.fill(table, 0);
        }
        size = 0;
        freeCount = 0;
        slotsUsed = 0;
        arenaEnd = 0;
        garbageBytes = 0;
    }

    /** Number of keys present. */
    public int size() {
        return size;
    }

    /**
     * Heap bytes of the index's arrays now (buckets, slot table, free list, key arena and its
     * compaction spare): what the index really holds, for a hot tier sized from a memory budget.
     */
    public long heapBytes() {
        return 8L * table.length + 8L * keys.length + 4L * freeSlots.length + arena.length + spare.length;
    }

    /** Slots are in [0, capacity): per-slot state arrays must be at least this long. */
    public int capacity() {
        return keys.length;
    }

    /** The slot of a key, or -1 when absent. */
    public int find(byte[] key, int offset, int length) {
        long e = table[probe(hash(key, offset, length), key, offset, length)];
        return e == 0 ? -1 : (int) e - 1;
    }

    /**
     * The bucket holding a key, or the empty bucket ending its probe run (where it would go): one
     * long read per probed bucket, the key bytes compared only when the stored hash matches.
     */
    private int probe(int h, byte[] key, int offset, int length) {
        int i = h & mask;
        while (true) {
            long e = table[i];
            if (e == 0 || ((int) (e >>> 32) == h && equalsKey((int) e - 1, key, offset, length))) {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /**
     * The slot of a key, inserting it when absent. Returns {@code slot} when it was present, or
     * {@code -(slot + 1)} when it was just inserted (so callers initialise fresh state).
     */
    public int findOrInsert(byte[] key, int offset, int length) {
        int h = hash(key, offset, length);
        int i = probe(h, key, offset, length);
        if (table[i] != 0) {
            return (int) table[i] - 1;
        }
        int slot = allocateSlot();
        storeKey(slot, key, offset, length);
        table[i] = ((long) h << 32) | (slot + 1L);
        if (++size * 100L > (long) table.length * MAX_LOAD_PERCENT) {
            rehash(table.length * 2);
        }
        return -(slot + 1);
    }

    /** Removes a key; returns its former slot (now free) or -1 when absent. */
    public int remove(byte[] key, int offset, int length) {
        int i = probe(hash(key, offset, length), key, offset, length);
        if (table[i] == 0) {
            return -1;
        }
        int slot = (int) table[i] - 1;
        removeAt(i, slot);
        return slot;
    }

    /** Removes the key held by {@code slot}. */
    public void removeSlot(int slot) {
        int i = hash(arena, keyOffset(slot), keyLength(slot)) & mask;
        while ((int) table[i] - 1 != slot) {
            i = (i + 1) & mask;
        }
        removeAt(i, slot);
    }

    private void removeAt(int i, int slot) {
        // Backward-shift deletion: move later entries of the probe run into the hole.
        int hole = i;
        int j = (i + 1) & mask;
        while (table[j] != 0) {
            int home = (int) (table[j] >>> 32) & mask;
            // entry at j may move to hole if its home is not cyclically in (hole, j]
            if (((j - home) & mask) >= ((j - hole) & mask)) {
                table[hole] = table[j];
                hole = j;
            }
            j = (j + 1) & mask;
        }
        table[hole] = 0;
        size--;
        garbageBytes += keyLength(slot);
        keys[slot] = -1L;
        if (freeCount == freeSlots.length) {
            freeSlots = Arrays.copyOf(freeSlots, freeCount * 2);
        }
        freeSlots[freeCount++] = slot;
    }

    /** Copies a slot's key into {@code dst} at {@code dstOffset}; returns its length. */
    public int copyKey(int slot, byte[] dst, int dstOffset) {
        int len = keyLength(slot);
        System.arraycopy(arena, keyOffset(slot), dst, dstOffset, len);
        return len;
    }

    public int keyLength(int slot) {
        return (int) keys[slot];
    }

    public int keyOffset(int slot) {
        return (int) (keys[slot] >>> 32);
    }

    /** A 32-bit hash of bytes (64-bit multiply-xorshift mixing over 8-byte words). */
    public static int hash(byte[] b, int off, int len) {
        long h = 0x9E3779B97F4A7C15L ^ len;
        int i = 0;
        for (; i + 8 <= len; i += 8) {
            long k = (long) LONG.get(b, off + i);
            h = (h ^ (k * 0xBF58476D1CE4E5B9L)) * 0x94D049BB133111EBL;
            h ^= h >>> 29;
        }
        long tail = 0;
        for (int s = 0; i < len; i++, s += 8) {
            tail |= (b[off + i] & 0xFFL) << s;
        }
        h = (h ^ (tail * 0xBF58476D1CE4E5B9L)) * 0x94D049BB133111EBL;
        h ^= h >>> 31;
        h *= 0xD6E8FEB86659FD93L;
        h ^= h >>> 32;
        return (int) h;
    }

    private boolean equalsKey(int slot, byte[] key, int offset, int length) {
        long k = keys[slot];
        int start = (int) (k >>> 32);
        return (int) k == length && Arrays.equals(arena, start, start + length, key, offset, offset + length);
    }

    private int allocateSlot() {
        if (freeCount > 0) {
            return freeSlots[--freeCount];
        }
        int slot = slotsUsed++;
        if (slot == keys.length) {
            keys = Arrays.copyOf(keys, keys.length * 2);
        }
        return slot;
    }

    private void storeKey(int slot, byte[] key, int offset, int length) {
        if (arenaEnd + length > arena.length) {
            makeRoom(length);
        }
        System.arraycopy(key, offset, arena, arenaEnd, length);
        keys[slot] = ((long) arenaEnd << 32) | length;
        arenaEnd += length;
    }

    /** Compacts the arena into the spare buffer when half of it is garbage, else grows it. */
    private void makeRoom(int length) {
        long live = arenaEnd - garbageBytes;
        int needed = (int) Math.min(Integer.MAX_VALUE - 8, live + length);
        int newCapacity = arena.length;
        if (live > arena.length / 2 || needed > arena.length) {
            newCapacity = (int) Math.min(Integer.MAX_VALUE - 8, Math.max((long) arena.length * 2, needed + 1024L));
        }
        byte[] target = spare.length == newCapacity ? spare : new byte[newCapacity];
        int p = 0;
        for (int s = 0; s < slotsUsed; s++) {
            int len = keyLength(s);
            if (len >= 0) {
                System.arraycopy(arena, keyOffset(s), target, p, len);
                keys[s] = ((long) p << 32) | len;
                p += len;
            }
        }
        spare = arena.length == newCapacity ? arena : new byte[0];
        arena = target;
        arenaEnd = p;
        garbageBytes = 0;
    }

    private void rehash(int buckets) {
        long[] old = table;
        table = new long[buckets];
        mask = buckets - 1;
        for (long e : old) {
            if (e != 0) {
                int i = (int) (e >>> 32) & mask;
                while (table[i] != 0) {
                    i = (i + 1) & mask;
                }
                table[i] = e;
            }
        }
    }
}
