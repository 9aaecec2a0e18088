package io.railgun.engine.state.durable;

import io.railgun.engine.state.ByteKeyIndex;
import java.util.Arrays;

/**
 * The order a checkpoint writes a buffer's entries in: by key, bytes compared unsigned, as RocksDB's
 * default comparator orders them. RocksDB's memtable is a skip list that starts each insertion from
 * where the previous one ended, so a key just after the previous one takes a few steps, and a key
 * far from it a search from the top with a cache miss per level. A FRAUD checkpoint of 1.3 M keys
 * (178 MB) spent 4.8-5.6 s in {@code db.write} in the order the task changed its keys, and
 * 1.5-1.9 s in key order (docs/benchmarks.md, 2026-12-03).
 *
 * <p>A sort by 8 key bytes at a time, read into an array once per entry and level: a range of
 * entries that agree before byte {@code at} first skips the bytes they all share from there, is
 * merge-sorted on the next 8, and each run of entries equal on those becomes a range of its own
 * at 8 bytes further; an entry whose key has ended is ordered before the longer ones, and among
 * ended keys the shorter first. Comparisons never read the keys themselves (a comparison that did
 * read them on ties, FRAUD's cards equal in their first 8 bytes, spent more than the skip list
 * saved). The ranges wait on a stack of their own, not the thread's: a key may be as long as an
 * event allows, a level per 8 bytes. Owned by the checkpoint writer's thread; its arrays are kept
 * from one checkpoint to the next.
 */
final class KeyOrder {
    private static final int RUN = 32; // sorted by insertion first, then merged

    private int[] order = new int[0]; // positions of the entries, being sorted
    private int[] scratch = new int[0];
    private int[] slots = new int[0]; // per position: the entry's slot in the buffer
    private long[] words = new long[0]; // per position: 8 of its key's bytes at the level sorted, big-endian, zero-padded
    private int[] ranges = new int[3 * 16]; // the ranges still to sort: lo, hi, at
    private int rangeCount;
    private byte[] arena;
    private ByteKeyIndex keys;

    /**
     * Sorts {@code buffer}'s entries by key; returns their slots in that order, the first
     * {@code buffer.count()} of the array (valid until the next call).
     */
    int[] sort(WriteBuffer buffer) {
        int n = buffer.count();
        if (order.length < n) {
            int size = Math.max(n, order.length * 2);
            order = new int[size];
            scratch = new int[size];
            slots = new int[size];
            words = new long[size];
        }
        keys = buffer.keys();
        arena = keys.keyArena();
        for (int i = 0; i < n; i++) {
            slots[i] = buffer.slotAt(i);
            order[i] = i;
        }
        push(0, n, 0);
        while (rangeCount > 0) {
            rangeCount--;
            sortFrom(ranges[3 * rangeCount], ranges[3 * rangeCount + 1], ranges[3 * rangeCount + 2]);
        }
        for (int i = 0; i < n; i++) {
            scratch[i] = slots[order[i]];
        }
        arena = null; // (not kept past the write: the buffer's keys are recycled)
        keys = null;
        return scratch;
    }

    private void push(int lo, int hi, int at) {
        if (hi - lo < 2) {
            return;
        }
        if (3 * rangeCount + 3 > ranges.length) {
            ranges = Arrays.copyOf(ranges, 2 * ranges.length);
        }
        ranges[3 * rangeCount] = lo;
        ranges[3 * rangeCount + 1] = hi;
        ranges[3 * rangeCount + 2] = at;
        rangeCount++;
    }

    /**
     * Sorts the entries at {@code order[lo, hi)}, whose keys all have the same bytes before
     * {@code at}, on their next 8 bytes past those they all share; the runs equal there are pushed.
     */
    private void sortFrom(int lo, int hi, int at) {
        int first = slots[order[lo]];
        int shared = Integer.MAX_VALUE;
        for (int i = lo + 1; i < hi; i++) {
            shared = Math.min(shared, sharedBytes(first, slots[order[i]], at));
        }
        at += shared;
        boolean longer = false; // whether a key goes on past these 8 bytes
        for (int i = lo; i < hi; i++) {
            int slot = slots[order[i]];
            words[order[i]] = word(slot, at);
            longer |= keys.keyLength(slot) > at + 8;
        }
        sortByWord(lo, hi);
        for (int i = lo; i < hi; ) {
            int j = i + 1;
            while (j < hi && words[order[j]] == words[order[i]]) {
                j++;
            }
            if (j - i > 1) { // equal in these 8 bytes (zero past a key's end)
                if (longer) {
                    push(i, j, at + 8);
                } else {
                    sortByLength(i, j); // every one ended: each a prefix of the next
                }
            }
            i = j;
        }
    }

    /** Merge-sorts {@code order[lo, hi)} by {@code words}, unsigned. */
    private void sortByWord(int lo, int hi) {
        for (int start = lo; start < hi; start += RUN) {
            int end = Math.min(hi, start + RUN);
            for (int i = start + 1; i < end; i++) {
                int e = order[i];
                int j = i - 1;
                while (j >= start && Long.compareUnsigned(words[order[j]], words[e]) > 0) {
                    order[j + 1] = order[j];
                    j--;
                }
                order[j + 1] = e;
            }
        }
        int[] src = order;
        int[] dst = scratch;
        for (int width = RUN; width < hi - lo; width *= 2) {
            for (int left = lo; left < hi; left += 2 * width) {
                int mid = Math.min(hi, left + width);
                int right = Math.min(hi, left + 2 * width);
                int i = left;
                int j = mid;
                for (int k = left; k < right; k++) {
                    dst[k] = i < mid && (j >= right || Long.compareUnsigned(words[src[i]], words[src[j]]) <= 0) ? src[i++] : src[j++];
                }
            }
            int[] t = src;
            src = dst;
            dst = t;
        }
        if (src != order) { // (an odd number of passes: the sorted order is in the scratch array)
            System.arraycopy(src, lo, order, lo, hi - lo);
        }
    }

    /** Sorts {@code order[lo, hi)} by key length: keys that all ended, so each is a prefix of the longer. */
    private void sortByLength(int lo, int hi) {
        for (int i = lo + 1; i < hi; i++) {
            int e = order[i];
            int j = i - 1;
            while (j >= lo && keys.keyLength(slots[order[j]]) > keys.keyLength(slots[e])) {
                order[j + 1] = order[j];
                j--;
            }
            order[j + 1] = e;
        }
    }

    /** Bytes {@code [at, at + 8)} of the key at {@code slot}, big-endian, zero past its end. */
    private long word(int slot, int at) {
        int offset = keys.keyOffset(slot) + at;
        int length = keys.keyLength(slot) - at;
        long w = 0;
        for (int i = 0; i < 8; i++) {
            w = w << 8 | (i < length ? arena[offset + i] & 0xFFL : 0);
        }
        return w;
    }

    /** Bytes the keys at slots {@code a} and {@code b} share from byte {@code at} on (0 when one ends there). */
    private int sharedBytes(int a, int b, int at) {
        int offsetA = keys.keyOffset(a) + at;
        int offsetB = keys.keyOffset(b) + at;
        int length = Math.min(keys.keyLength(a), keys.keyLength(b)) - at;
        if (length <= 0) {
            return 0;
        }
        int m = Arrays.mismatch(arena, offsetA, offsetA + length, arena, offsetB, offsetB + length);
        return m < 0 ? length : m;
    }
}
