package io.railgun.engine.state;

import static io.railgun.engine.state.KeyTags.INLINE_BYTES;
import static io.railgun.engine.state.KeyTags.home;
import static io.railgun.engine.state.KeyTags.longTag;
import static io.railgun.engine.state.KeyTags.shortTag;
import static io.railgun.engine.state.KeyTags.tag;
import static io.railgun.engine.state.KeyTags.word0;
import static io.railgun.engine.state.KeyTags.word1;

import java.util.Arrays;

/**
 * An open-addressing hash index from byte-string keys to dense int slots, allocation-free in steady
 * state. Keys are copied into one byte arena; slots are reused through a free list ({@link
 * SlotKeys}), so callers keep per-key state in primitive arrays indexed by slot (see {@link
 * #capacity()}).
 *
 * <p>Layout: {@code table} holds three longs per bucket (all 0 = empty), linear probing with
 * backward-shift deletion (no tombstones):
 * <pre>
 *  index      content
 *  3 b        (tag << 32) | (slot + 1); tag = the key's 32-bit hash with its low 5 bits replaced by
 *             the key's length when at most 16 bytes, else by 31 ({@link KeyTags})
 *  3 b + 1    bytes 0..7 of a key of at most 16 bytes, little-endian, zero-padded (else 0)
 *  3 b + 2    bytes 8..15 of such a key (else 0)
 * </pre>
 * So a lookup of a short key (a GROUP BY on one number: 9 bytes; a COUNT DISTINCT entry: 12) reads
 * one bucket and never the arena: on tables far larger than the CPU caches, one cache miss instead
 * of three (bucket, slot's key offset, arena bytes). Longer keys are compared in the arena. A
 * bucket's home is the tag rotated right by 5 bits, masked, so rehashing and deletion find it from
 * the stored tag alone. Every key is also copied to the arena, for {@link #copyKey}.
 *
 * <p>Owned by one thread (a task's), which alone changes it. {@link #find} and the other reads
 * change no field, so other threads may read an index nobody changes meanwhile (a durable store's
 * checkpoint writer looks keys up in a frozen buffer while the task's thread reads it too); a
 * lookup that kept the probed key's words in fields once let two such readers overwrite each
 * other's, and report a present key absent.
 */
public final class ByteKeyIndex {
    private static final int MAX_LOAD_PERCENT = 60;
    /** Longs per bucket: the entry, then two words of a short key. */
    private static final int BUCKET = 3;

    private long[] table;
    private int mask; // buckets - 1
    private int size;

    private final SlotKeys keys;

    private final Prefetches prefetches = new Prefetches();
    private final PrefetchedTags prefetchedTags = new PrefetchedTags();

    public ByteKeyIndex(int expectedKeys) {
        int buckets = Integer.highestOneBit(Math.max(16, expectedKeys * 100 / MAX_LOAD_PERCENT) - 1) << 1;
        table = new long[BUCKET * buckets];
        mask = buckets - 1;
        keys = new SlotKeys(Math.max(16, expectedKeys));
    }

    /** Removes every key, keeping the arrays (no allocation: for indexes emptied and filled again). */
    public void clear() {
        if (size > 0 || keys.used()) {
            Arrays.fill(table, 0);
        }
        size = 0;
        keys.clear();
    }

    /**
     * Makes room for {@code expectedKeys} keys of {@code expectedKeyBytes} in all at once (buckets,
     * slots, and the key arena when the index is empty): one allocation of the size expected instead
     * of a chain of doublings, which allocate twice the final size. Does nothing where there is room.
     */
    public void reserve(int expectedKeys, long expectedKeyBytes) {
        reserveKeys(expectedKeys, expectedKeyBytes);
        long buckets = Long.highestOneBit(Math.max(16, expectedKeys * 100L / MAX_LOAD_PERCENT) - 1) << 1;
        if (buckets > mask + 1L && buckets <= 1 << 28) {
            rehash((int) buckets);
        }
    }

    /**
     * Makes room for {@code expectedKeys} keys of {@code expectedKeyBytes} in all in the slots and the
     * key arena only, not the buckets: for an index whose keys are {@link #append}ed.
     */
    public void reserveKeys(int expectedKeys, long expectedKeyBytes) {
        keys.reserve(expectedKeys, expectedKeyBytes);
    }

    /** Bytes of the keys present. */
    public long keyBytes() {
        return keys.keyBytes();
    }

    /** Number of keys present. */
    public int size() {
        return size;
    }

    /**
     * Heap bytes of the index's arrays (buckets, slot table, free list, key arena and its
     * compaction spare) once its slots are all used: the buckets it will have then (they double at
     * 60% load, not with the slots), so a hot tier sized from a memory budget pays for them before
     * they come.
     */
    public long heapBytesWhenFull() {
        long buckets = Long.highestOneBit(Math.max(16, keys.capacity() * 100L / MAX_LOAD_PERCENT) - 1) << 1;
        return 8L * Math.max(table.length, BUCKET * buckets) + keys.heapBytes();
    }

    /**
     * Grows the slot table (so {@link #capacity()}, and the per-slot arrays sized from it) no
     * further than {@code slots} while it is below that: for a hot tier holding at most that many
     * keys, whose limit need then not be a power of two. Past it, slots double as before.
     */
    public void capSlots(int slots) {
        keys.capSlots(slots);
    }

    /** Slots are in [0, capacity): per-slot state arrays must be at least this long. */
    public int capacity() {
        return keys.capacity();
    }

    /** The slot of a key, or -1 when absent. Reads only: see the class comment on threads. */
    public int find(byte[] key, int offset, int length) {
        long e = table[locate(key, offset, length)];
        return e == 0 ? -1 : (int) e - 1;
    }

    /** Notes a load of the bucket a lookup of this key starts at, for {@link #issuePrefetches} ({@link Prefetches}). */
    public void prefetch(byte[] key, int offset, int length) {
        int tag = KeyTags.tag(key, offset, length);
        prefetches.note(BUCKET * (home(tag) & mask));
        prefetchedTags.note(tag);
    }

    /** Loads the buckets {@link #prefetch} noted; returns anything. Their keys' slots: {@link #prefetchedSlots}. */
    public long issuePrefetches() {
        prefetchedTags.issue();
        return prefetches.issue(table);
    }

    /**
     * The slots of the keys whose buckets the last {@link #issuePrefetches} loaded, in the order they
     * were noted, found by their tag alone ({@link PrefetchedTags#slots}; -1: not found): a hint for
     * loading what the lookups will need next; written to {@code slots} (at least
     * {@link Prefetches#CAPACITY} long), their number returned. Once only: a second call returns 0.
     * Reads only.
     */
    public int prefetchedSlots(int[] slots) {
        return prefetchedTags.slots(table, mask, BUCKET, slots);
    }

    /** The table index of the bucket holding a key, or of the empty bucket ending its probe run. */
    private int locate(byte[] key, int offset, int length) {
        if (length > INLINE_BYTES) {
            return probeLong(longTag(key, offset, length), key, offset, length);
        }
        long w0 = word0(key, offset, length);
        long w1 = word1(key, offset, length);
        return probeShort(shortTag(length, w0, w1), w0, w1);
    }

    /**
     * The table index of the bucket holding a short key (its words {@code w0}, {@code w1}, compared
     * with the bucket's), or of the empty bucket ending its probe run (where it would go).
     */
    private int probeShort(int tag, long w0, long w1) {
        long[] t = table;
        int m = mask;
        int b = home(tag) & m;
        while (true) {
            int i = BUCKET * b;
            long e = t[i];
            if (e == 0 || ((int) (e >>> 32) == tag && t[i + 1] == w0 && t[i + 2] == w1)) {
                return i;
            }
            b = (b + 1) & m;
        }
    }

    /** As {@link #probeShort}, for a key longer than {@link KeyTags#INLINE_BYTES}: compared in the arena when the tag matches. */
    private int probeLong(int tag, byte[] key, int offset, int length) {
        long[] t = table;
        int m = mask;
        int b = home(tag) & m;
        while (true) {
            int i = BUCKET * b;
            long e = t[i];
            if (e == 0 || ((int) (e >>> 32) == tag && keys.keyEquals((int) e - 1, key, offset, length))) {
                return i;
            }
            b = (b + 1) & m;
        }
    }

    /**
     * The slot of a key, inserting it when absent. Returns {@code slot} when it was present, or
     * {@code -(slot + 1)} when it was just inserted (so callers initialise fresh state).
     */
    public int findOrInsert(byte[] key, int offset, int length) {
        int tag;
        int i;
        long w0 = 0;
        long w1 = 0;
        if (length > INLINE_BYTES) {
            tag = longTag(key, offset, length);
            i = probeLong(tag, key, offset, length);
        } else {
            w0 = word0(key, offset, length);
            w1 = word1(key, offset, length);
            tag = shortTag(length, w0, w1);
            i = probeShort(tag, w0, w1);
        }
        if (table[i] != 0) {
            return (int) table[i] - 1;
        }
        int slot = keys.add(key, offset, length);
        table[i] = ((long) tag << 32) | (slot + 1L);
        table[i + 1] = w0;
        table[i + 2] = w1;
        if (++size * 100L > (long) (mask + 1) * MAX_LOAD_PERCENT) {
            rehash(2 * (mask + 1));
        }
        return -(slot + 1);
    }

    /**
     * Gives a key a slot and a copy in the arena without entering it in the buckets: {@link #find}
     * never returns it, and nothing checks that it is not already present. For keys written once
     * each and read back by slot only (a snapshot's copies: {@code WriteBuffer}), which then cost no
     * random write into buckets the size of the keys. Not counted by {@link #size()}.
     */
    public int append(byte[] key, int offset, int length) {
        return keys.add(key, offset, length);
    }

    /** Whether the key at {@code slot} is {@code key}. */
    public boolean keyEquals(int slot, byte[] key, int offset, int length) {
        return keys.keyEquals(slot, key, offset, length);
    }

    /** Removes a key; returns its former slot (now free) or -1 when absent. */
    public int remove(byte[] key, int offset, int length) {
        int i = locate(key, offset, length);
        if (table[i] == 0) {
            return -1;
        }
        int slot = (int) table[i] - 1;
        removeAt(i, slot);
        return slot;
    }

    /** Removes the key held by {@code slot}. */
    public void removeSlot(int slot) {
        int b = home(tag(keys.arena(), keys.keyOffset(slot), keys.keyLength(slot))) & mask;
        while ((int) table[BUCKET * b] - 1 != slot) {
            b = (b + 1) & mask;
        }
        removeAt(BUCKET * b, slot);
    }

    private void removeAt(int i, int slot) {
        // Backward-shift deletion: move later entries of the probe run into the hole.
        long[] t = table;
        int hole = i / BUCKET;
        int j = (hole + 1) & mask;
        while (t[BUCKET * j] != 0) {
            int homeOfJ = home((int) (t[BUCKET * j] >>> 32)) & mask;
            // entry at j may move to hole if its home is not cyclically in (hole, j]
            if (((j - homeOfJ) & mask) >= ((j - hole) & mask)) {
                System.arraycopy(t, BUCKET * j, t, BUCKET * hole, BUCKET);
                hole = j;
            }
            j = (j + 1) & mask;
        }
        t[BUCKET * hole] = 0;
        t[BUCKET * hole + 1] = 0;
        t[BUCKET * hole + 2] = 0;
        size--;
        keys.free(slot);
    }

    /**
     * The arena the keys are in, at {@link #keyOffset} for {@link #keyLength} bytes: for reading a
     * frozen index's keys in place (never written through; replaced as the index grows).
     */
    public byte[] keyArena() {
        return keys.arena();
    }

    /** Copies a slot's key into {@code dst} at {@code dstOffset}; returns its length. */
    public int copyKey(int slot, byte[] dst, int dstOffset) {
        return keys.copyKey(slot, dst, dstOffset);
    }

    public int keyLength(int slot) {
        return keys.keyLength(slot);
    }

    public int keyOffset(int slot) {
        return keys.keyOffset(slot);
    }

    private void rehash(int buckets) {
        long[] old = table;
        table = new long[BUCKET * buckets];
        mask = buckets - 1;
        for (int o = 0; o < old.length; o += BUCKET) {
            long e = old[o];
            if (e != 0) {
                int b = home((int) (e >>> 32)) & mask;
                while (table[BUCKET * b] != 0) {
                    b = (b + 1) & mask;
                }
                System.arraycopy(old, o, table, BUCKET * b, BUCKET);
            }
        }
    }
}
