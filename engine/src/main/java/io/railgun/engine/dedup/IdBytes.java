package io.railgun.engine.dedup;

import io.railgun.engine.state.KeyTags;
import java.util.Arrays;

/**
 * The bytes of the ids a {@link DedupIndex} holds, appended in arrival order to a ring addressed by
 * absolute offsets ({@link ArrivalLog} keeps each id's offset and length). An id is contiguous: one
 * that would wrap skips to the ring's start. The held ids' bytes are {@code [head, tail)}; the ring
 * doubles when an append finds no room, and an id contiguous in it stays contiguous in one twice as
 * large. Owned by the index's thread.
 */
final class IdBytes {
    private byte[] bytes;
    private int mask;
    private long head; // absolute offset of the first held id's bytes (tail when none is held)
    private long tail;

    IdBytes(int capacity) {
        bytes = new byte[capacity];
        mask = capacity - 1;
    }

    /** Appends {@code length} bytes of {@code id}; returns their absolute offset. */
    long append(byte[] id, int offset, int length) {
        long start = reserve(length);
        System.arraycopy(id, offset, bytes, (int) (start & mask), length);
        return start;
    }

    /** The held ids' bytes now begin at absolute offset {@code offset} (at most {@link #tail()}). */
    void dropBefore(long offset) {
        head = offset;
    }

    /** The absolute offset after the last id. */
    long tail() {
        return tail;
    }

    /** Whether the bytes at absolute {@code at} are {@code id}'s ({@code length} of them). */
    boolean equalsAt(long at, byte[] id, int offset, int length) {
        int from = (int) (at & mask);
        return Arrays.equals(bytes, from, from + length, id, offset, offset + length);
    }

    /** {@link KeyTags#hash} of the {@code length} bytes at absolute {@code at}. */
    int hashAt(long at, int length) {
        return KeyTags.hash(bytes, (int) (at & mask), length);
    }

    /** Heap bytes of the ring. */
    long memoryBytes() {
        return bytes.length;
    }

    /** Room for {@code length} contiguous bytes at the tail (skipping to the ring's start when they would wrap). */
    private long reserve(int length) {
        while (true) {
            long start = tail;
            int into = (int) (start & mask);
            if (into + length > bytes.length) {
                start += bytes.length - into; // pad to the ring's start
            }
            if (start + length - head <= bytes.length) {
                tail = start + length;
                return start;
            }
            grow(length);
        }
    }

    private void grow(int length) {
        int n = bytes.length * 2;
        while (n < 2 * length) {
            n *= 2;
        }
        byte[] grown = new byte[n];
        // absolute offsets stay. The held ids' bytes are [head, tail) (the padding left at the ring's
        // end copied with them): a few ranges, not id by id (29 ms for a million 16-byte ids)
        for (long p = head; p < tail; ) {
            int from = (int) (p & mask);
            int to = (int) (p & (n - 1));
            int len = (int) Math.min(tail - p, Math.min(bytes.length - from, n - to));
            System.arraycopy(bytes, from, grown, to, len);
            p += len;
        }
        bytes = grown;
        mask = n - 1;
    }
}
