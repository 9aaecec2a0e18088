package io.railgun.engine.aggregate;

import io.railgun.engine.state.StateReader;
import io.railgun.engine.state.StateWriter;

/**
 * The monotonic deque of one key for MIN or MAX over a window whose events leave in
 * (timestamp, seq) order but may arrive out of order. It keeps only the events that can still become
 * the extremum: from front (oldest) to back (newest) values strictly improve towards the front
 * (for MAX: strictly decreasing), so the front is the current extremum. An arriving event is dropped
 * when a newer-or-equal entry at least as good exists; otherwise it is inserted at its
 * (timestamp, seq) position and removes the older entries it beats. An expiring event is popped
 * when it is the front. Values are encoded with {@link SortableValue}; {@code sign} is +1 for MAX
 * and -1 for MIN.
 *
 * <p>A deque is one long array, so a key's deque is one object (one or two cache lines when short):
 * <pre>
 *  index          content
 *  0              head: index of the front entry in the ring
 *  1              size: number of entries
 *  2 + 3 i ..     entry i of the ring (capacity = (length - 2) / 3, a power of two):
 *                 timestamp, seq, value
 * </pre>
 * Static methods; arrays are reused after {@link #clear} (no allocation in steady state).
 *
 * <p>Saved form ({@link #save}, {@link #load}), little-endian: {@code int n}, then the n live entries
 * from front to back, each {@code long timestamp, long seq, long value}. A missing deque saves as
 * n = 0; {@link #load} rebuilds the entries compactly from ring index 0.
 */
final class ExtremumDeque {
    private static final int HEAD = 0;
    private static final int SIZE = 1;
    private static final int ENTRIES = 2;
    private static final int MIN_CAPACITY = 4;
    /** The largest saved entry count whose bytes (24 per entry) fit an int. */
    private static final int MAX_SAVED = Integer.MAX_VALUE / 24;

    private ExtremumDeque() {}

    static long[] create() {
        return new long[ENTRIES + 3 * MIN_CAPACITY];
    }

    static int size(long[] d) {
        return (int) d[SIZE];
    }

    static boolean isEmpty(long[] d) {
        return d[SIZE] == 0;
    }

    static long front(long[] d) {
        return d[ENTRIES + 3 * (int) d[HEAD] + 2];
    }

    /** The timestamp of the front entry (the deque must not be empty). */
    static long frontTimestamp(long[] d) {
        return d[ENTRIES + 3 * (int) d[HEAD]];
    }

    /** The seq of the front entry (the deque must not be empty). */
    static long frontSeq(long[] d) {
        return d[ENTRIES + 3 * (int) d[HEAD] + 1];
    }

    static void clear(long[] d) {
        d[HEAD] = 0;
        d[SIZE] = 0;
    }

    /** Index in {@code d} of entry k (0 = front). */
    private static int at(long[] d, int k) {
        int mask = (d.length - ENTRIES) / 3 - 1;
        return ENTRIES + 3 * (((int) d[HEAD] + k) & mask);
    }

    /** Adds an event; returns the deque (a new, larger array when it had to grow). */
    static long[] arrive(long[] d, long t, long seq, long value, int sign) {
        int size = (int) d[SIZE];
        // position p = number of entries older than (t, seq)
        int p = size;
        while (p > 0) {
            int e = at(d, p - 1);
            if (d[e] > t || (d[e] == t && d[e + 1] > seq)) {
                p--;
            } else {
                break;
            }
        }
        if (p < size && Long.compare(d[at(d, p) + 2], value) * sign >= 0) {
            return d; // a newer entry is at least as good: this one can never be the extremum
        }
        // drop older entries that this one beats or equals
        int q = p;
        while (q > 0 && Long.compare(d[at(d, q - 1) + 2], value) * sign <= 0) {
            q--;
        }
        int removed = p - q;
        if (removed > 0) {
            for (int k = p; k < size; k++) {
                copy(d, at(d, k), at(d, k - removed));
            }
            size -= removed;
            p = q;
        }
        if (size == (d.length - ENTRIES) / 3) {
            d = grow(d, size);
        }
        for (int k = size; k > p; k--) {
            copy(d, at(d, k - 1), at(d, k));
        }
        int e = at(d, p);
        d[e] = t;
        d[e + 1] = seq;
        d[e + 2] = value;
        d[SIZE] = size + 1;
        return d;
    }

    static void expire(long[] d, long t, long seq) {
        if (d[SIZE] > 0) {
            int e = ENTRIES + 3 * (int) d[HEAD];
            if (d[e] == t && d[e + 1] == seq) {
                int mask = (d.length - ENTRIES) / 3 - 1;
                d[HEAD] = (d[HEAD] + 1) & mask;
                d[SIZE]--;
            }
        }
    }

    private static void copy(long[] d, int from, int to) {
        d[to] = d[from];
        d[to + 1] = d[from + 1];
        d[to + 2] = d[from + 2];
    }

    private static long[] grow(long[] d, int size) {
        long[] n = new long[ENTRIES + 2 * (d.length - ENTRIES)];
        for (int k = 0; k < size; k++) {
            int e = at(d, k);
            System.arraycopy(d, e, n, ENTRIES + 3 * k, 3);
        }
        n[HEAD] = 0;
        n[SIZE] = size;
        return n;
    }

    /** Appends the live entries of {@code d} (null: none) to {@code out}, front first. */
    static void save(long[] d, StateWriter out) {
        int size = d == null ? 0 : (int) d[SIZE];
        out.putInt(size);
        for (int k = 0; k < size; k++) {
            out.putLongs(d, at(d, k), 3);
        }
    }

    /**
     * Reads what {@link #save} wrote into {@code d} (null, or reused when large enough, whatever it
     * held); returns the deque, which is {@code d} unless a larger array was needed.
     */
    static long[] load(long[] d, StateReader in) {
        int n = in.getInt();
        if (n < 0 || n > MAX_SAVED) {
            throw new IllegalStateException("corrupt state value: MIN/MAX deque of " + n + " entries");
        }
        if (n == 0) {
            if (d != null) {
                clear(d);
            }
            return d;
        }
        if (d == null || (d.length - ENTRIES) / 3 < n) {
            int capacity = Math.max(MIN_CAPACITY, Integer.highestOneBit(n - 1) << 1);
            d = new long[ENTRIES + 3 * capacity];
        }
        in.getLongs(d, ENTRIES, 3 * n);
        d[HEAD] = 0;
        d[SIZE] = n;
        return d;
    }
}
