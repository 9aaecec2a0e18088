package io.railgun.engine.state.durable;

import io.railgun.engine.state.ByteKeyIndex;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The changes to the durable store since the last checkpoint, in memory: the newest value (or a
 * deletion) of every key written, and the key prefixes of key tables dropped. RocksDB only ever
 * receives a whole buffer, as one atomic batch with the checkpoint record, so the store always
 * equals the last complete checkpoint. Values are appended to pages of {@value #PAGE_BYTES} bytes
 * (a value longer than a page gets a page of its own; an overwritten value's bytes stay until the
 * buffer is cleared): a growing buffer allocates only its new pages and never copies what it holds,
 * where one arena doubled and copied (E1 durable: the first checkpoint's copies reserved 157 MB
 * for the 61 MB they took, every hot key counted whole, emptied ones too).
 * A value is whole, or a patch ({@link #isPatch}: a snapshot's part of a key whose stored value it
 * extends, see {@code KeyRecordCodec}); a patch put over a value of the same key is appended to it.
 * Written by the task's thread; once handed to the writer thread it is only read, by both.
 *
 * <p>A buffer is indexed (by key: a key written again replaces or extends its value, and
 * {@link #find} looks keys up), or a log ({@link #log()}: each key written once, the caller's
 * promise, and found by its entry number alone, which is its slot), for a snapshot's copies: a checkpoint of FRAUD
 * saves a million hot keys, and entering each in buckets the size of the keys was a cache miss per
 * key, 3.6% of the task's time.
 */
final class WriteBuffer {
    static final int DELETED = -1;
    /** Bytes an entry costs beside its key and value, as {@link #bytes()} counts them. */
    static final int ENTRY_BYTES = 16;

    static final int PAGE_BITS = 16;
    static final int PAGE_BYTES = 1 << PAGE_BITS;
    private static final int PAGE_MASK = PAGE_BYTES - 1;
    /** Pages a buffer can hold: a value's reference is its page's number and its offset there, in an int. */
    private static final int MAX_PAGES = 1 << (31 - PAGE_BITS);

    private final boolean indexed;
    private ByteKeyIndex keys;
    // the pages of values, in use [0, pageCount): whole pages of PAGE_BYTES and values' own pages
    private byte[][] pages = new byte[16][];
    private int pageCount;
    private int page = -1; // the page values are appended to, -1 none
    private int pageUsed = PAGE_BYTES; // bytes used of that page
    // whole pages kept from earlier cycles, for the next ones
    private byte[][] freePages = new byte[16][];
    private int freeCount;
    private long used; // (a long: values on their own pages can pass 2 GiB before the pages run out)
    private int[] valueRefs = new int[1024]; // page number << PAGE_BITS | offset in the page
    private int[] valueLengths = new int[1024];
    private boolean[] patches = new boolean[1024];
    private boolean inserted; // whether the last entry() added the key
    private int[] order = new int[1024];
    private int count;
    private long keyBytes;
    private final List<byte[]> droppedPrefixes = new ArrayList<>();

    /** An indexed buffer. */
    WriteBuffer() {
        this(true);
    }

    private WriteBuffer(boolean indexed) {
        this.indexed = indexed;
        this.keys = new ByteKeyIndex(indexed ? 1024 : 0);
    }

    /**
     * A buffer whose keys are not indexed: each is written once (a second write of a key is a second
     * entry, which nothing looks for), {@link #find} is refused, and an entry is known by the number
     * {@link #put} or {@link #delete} returned, from 0 up to {@link #count}.
     */
    static WriteBuffer log() {
        return new WriteBuffer(false);
    }

    /** Bytes held: values written (including overwritten ones) and keys, not the pages' unused ends. */
    long bytes() {
        return used + keyBytes + (long) ENTRY_BYTES * count;
    }


    int count() {
        return count;
    }

    /** Bytes of the keys written. */
    long keyBytes() {
        return keyBytes;
    }

    /** Keeps a key's whole value, replacing any. */
    int put(byte[] key, int keyOffset, int keyLength, byte[] value, int offset, int length) {
        return put(key, keyOffset, keyLength, value, offset, length, false);
    }

    /**
     * Keeps a key's value: whole (replacing any), or a patch, appended to the value held for the key
     * if any (which keeps its kind).
     *
     * @return the entry's number (see {@link #log()})
     * @throws IllegalStateException for a patch of a key this buffer holds deleted
     */
    int put(byte[] key, int keyOffset, int keyLength, byte[] value, int offset, int length, boolean patch) {
        int slot = entry(key, keyOffset, keyLength);
        int before = inserted || !patch ? 0 : valueLengths[slot];
        if (before == DELETED) {
            throw new IllegalStateException("a patch of a deleted key");
        }
        int ref = allocate(before + length);
        byte[] to = pages[ref >>> PAGE_BITS];
        int at = ref & PAGE_MASK;
        if (before > 0) {
            System.arraycopy(valueArray(slot), valueOffset(slot), to, at, before);
        }
        System.arraycopy(value, offset, to, at + before, length);
        valueRefs[slot] = ref;
        valueLengths[slot] = before + length;
        patches[slot] = inserted || !patch ? patch : patches[slot]; // (a patch appended keeps the kind, even of an empty value)
        used += before + length;
        return slot;
    }

    /** Room for a value of {@code length} bytes: its reference. */
    private int allocate(int length) {
        if (length > PAGE_BYTES) {
            int p = addPage(new byte[length]); // its own page; the page being filled stays
            return p << PAGE_BITS;
        }
        if (page < 0 || pageUsed + length > PAGE_BYTES || pageUsed == PAGE_BYTES) { // (an offset is < PAGE_BYTES)
            page = addPage(freeCount > 0 ? takeFreePage() : new byte[PAGE_BYTES]);
            pageUsed = 0;
        }
        int ref = page << PAGE_BITS | pageUsed;
        pageUsed += length;
        return ref;
    }

    private int addPage(byte[] p) {
        if (pageCount == MAX_PAGES) {
            throw new IllegalStateException("a write buffer holds at most " + MAX_PAGES + " pages of values");
        }
        if (pageCount == pages.length) {
            pages = Arrays.copyOf(pages, 2 * pageCount);
        }
        pages[pageCount] = p;
        return pageCount++;
    }

    private byte[] takeFreePage() {
        byte[] p = freePages[--freeCount];
        freePages[freeCount] = null;
        return p;
    }

    /** Whether an entry's value is a patch, to append to the key's older value. */
    boolean isPatch(int slot) {
        return patches[slot];
    }

    /**
     * Grows the index to {@code entries} entries of {@code keyBytes} in all, and the entries' arrays
     * with it, at once when they hold less than half that: one allocation of the size expected
     * instead of a chain of doublings (which allocate twice the final size). Not when they are merely
     * smaller: the estimate moves a little from one checkpoint to the next (E1: 550k keys a
     * checkpoint, ~100 MB of doublings). Values need no reserve: their pages grow without copying.
     */
    void reserve(int entries, long keyBytes) {
        if (entries > 2L * valueRefs.length) {
            if (indexed) {
                keys.reserve(entries, keyBytes);
            } else {
                keys.reserveKeys(entries, keyBytes);
            }
            valueRefs = Arrays.copyOf(valueRefs, entries);
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

    /** Keeps a key's deletion; returns the entry's number (see {@link #log()}). */
    int delete(byte[] key, int keyOffset, int keyLength) {
        int slot = entry(key, keyOffset, keyLength);
        valueLengths[slot] = DELETED;
        patches[slot] = false;
        return slot;
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

    /**
     * The entry of a key, or -1 when this buffer has none.
     *
     * @throws IllegalStateException for a {@link #log()}
     */
    int find(byte[] key, int offset, int length) {
        if (!indexed) {
            throw new IllegalStateException("a write buffer kept as a log is not looked up by key");
        }
        return keys.find(key, offset, length);
    }

    /** Length of an entry's value, or {@link #DELETED}. */
    int valueLength(int slot) {
        return valueLengths[slot];
    }

    /** The array holding an entry's value, at {@link #valueOffset}. */
    byte[] valueArray(int slot) {
        return pages[valueRefs[slot] >>> PAGE_BITS];
    }

    int valueOffset(int slot) {
        return valueRefs[slot] & PAGE_MASK;
    }

    /** Heap bytes of the pages of values, in use and kept. */
    long pageBytes() {
        long bytes = (long) freeCount * PAGE_BYTES;
        for (int i = 0; i < pageCount; i++) {
            bytes += pages[i].length;
        }
        return bytes;
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
     * Empties the buffer for reuse. It keeps whole pages of values up to twice {@code keepBytes}
     * (a buffer is reused checkpoint after checkpoint) and gives back the others (shrunk after a
     * checkpoint, so a burst of changes does not hold its memory until the next one). Twice, because
     * a buffer is filled up to its limit and a little past it (a checkpoint adds its snapshot's keys)
     * every cycle: keeping one limit made every cycle allocate the rest again (E1 durable, 250,000
     * hot keys: 320 bytes allocated per event against 225 without the shrink). The index and the
     * entries' arrays are made small again when the pages passed that bound.
     */
    void clear(long keepBytes) {
        int keepPages = (int) Math.min(MAX_PAGES, Math.max(PAGE_BYTES, 2 * keepBytes) / PAGE_BYTES);
        boolean burst = false;
        for (int i = 0; i < pageCount; i++) {
            byte[] p = pages[i];
            pages[i] = null;
            if (p.length != PAGE_BYTES) {
                continue; // a value's own page goes, but is no burst
            }
            if (freeCount < keepPages) {
                if (freeCount == freePages.length) {
                    freePages = Arrays.copyOf(freePages, 2 * freeCount);
                }
                freePages[freeCount++] = p;
            } else {
                burst = true;
            }
        }
        if (freeCount > keepPages) { // (a smaller bound than the last cycle's)
            Arrays.fill(freePages, keepPages, freeCount, null);
            freeCount = keepPages;
            burst = true;
        }
        if (burst) {
            int n = Math.max(1024, Math.min(count, 1 << 16));
            keys = new ByteKeyIndex(indexed ? n : 0);
            valueRefs = new int[n];
            valueLengths = new int[n];
            patches = new boolean[n];
            order = new int[n];
        } else {
            keys.clear();
        }
        pageCount = 0;
        page = -1;
        pageUsed = PAGE_BYTES;
        used = 0;
        count = 0;
        keyBytes = 0;
        droppedPrefixes.clear();
    }

    private int entry(byte[] key, int offset, int length) {
        int r = indexed ? keys.findOrInsert(key, offset, length) : -keys.append(key, offset, length) - 1;
        inserted = r < 0;
        if (r >= 0) {
            return r;
        }
        int slot = -r - 1;
        if (slot >= valueRefs.length) {
            int n = Math.max(slot + 1, valueRefs.length * 2);
            valueRefs = Arrays.copyOf(valueRefs, n);
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
