package io.railgun.engine.aggregate;

/**
 * The monotonic deque of one key for MIN or MAX over a window whose events leave in
 * (timestamp, seq) order but may arrive out of order. It keeps only the events that can still become
 * the extremum: from front (oldest) to back (newest) values strictly improve towards the front
 * (for MAX: strictly decreasing), so the front is the current extremum. An arriving event is dropped
 * when a newer-or-equal entry at least as good exists; otherwise it is inserted at its
 * (timestamp, seq) position and removes the older entries it beats. An expiring event is popped
 * when it is the front. Values are encoded with {@link SortableValue}; {@code sign} is +1 for MAX
 * and -1 for MIN. A ring buffer, reused after {@link #clear}: no allocation in steady state.
 */
final class ExtremumDeque {
    private long[] ts = new long[4];
    private long[] seqs = new long[4];
    private long[] values = new long[4];
    private int head;
    private int size;

    boolean isEmpty() {
        return size == 0;
    }

    long front() {
        return values[head];
    }

    void clear() {
        head = 0;
        size = 0;
    }

    void arrive(long t, long seq, long value, int sign) {
        int mask = ts.length - 1;
        // position p (0-based from head) = number of entries older than (t, seq)
        int p = size;
        while (p > 0 && newer(ts[(head + p - 1) & mask], seqs[(head + p - 1) & mask], t, seq)) {
            p--;
        }
        if (p < size && Long.compare(values[(head + p) & mask], value) * sign >= 0) {
            return; // a newer entry is at least as good: this one can never be the extremum
        }
        // drop older entries that this one beats or equals
        int q = p;
        while (q > 0 && Long.compare(values[(head + q - 1) & mask], value) * sign <= 0) {
            q--;
        }
        int removed = p - q;
        if (removed > 0) {
            // close the gap [q, p) by moving entries [p, size) down
            for (int k = p; k < size; k++) {
                copy((head + k) & mask, (head + k - removed) & mask);
            }
            size -= removed;
            p = q;
        }
        if (size == ts.length) {
            grow();
            mask = ts.length - 1;
        }
        for (int k = size; k > p; k--) {
            copy((head + k - 1) & mask, (head + k) & mask);
        }
        int at = (head + p) & mask;
        ts[at] = t;
        seqs[at] = seq;
        values[at] = value;
        size++;
    }

    void expire(long t, long seq) {
        if (size > 0 && ts[head] == t && seqs[head] == seq) {
            head = (head + 1) & (ts.length - 1);
            size--;
        }
    }

    private static boolean newer(long t1, long s1, long t2, long s2) {
        return t1 > t2 || (t1 == t2 && s1 > s2);
    }

    private void copy(int from, int to) {
        ts[to] = ts[from];
        seqs[to] = seqs[from];
        values[to] = values[from];
    }

    private void grow() {
        int n = ts.length * 2;
        long[] nt = new long[n];
        long[] ns = new long[n];
        long[] nv = new long[n];
        int mask = ts.length - 1;
        for (int k = 0; k < size; k++) {
            int i = (head + k) & mask;
            nt[k] = ts[i];
            ns[k] = seqs[i];
            nv[k] = values[i];
        }
        ts = nt;
        seqs = ns;
        values = nv;
        head = 0;
    }
}
