package io.railgun.engine.reservoir;

import io.railgun.engine.event.EventRow;
import java.util.ArrayList;
import java.util.List;

/**
 * An {@link EventReservoir} held entirely in heap arrays: parallel primitive columns
 * (timestamp, seq, row reference) over the row bytes in a {@link RowArena}, whose chunks are
 * reused as cursors pass events. The columns are rings indexed by logical position (position &
 * (capacity - 1)), grown only when every entry is live, so a full window reuses them. (Columns
 * compacted when their end was reached doubled whenever half of them were live then, which could be
 * long after the growth that filled them: in a benchmark's timed part, or a node's steady state.)
 * Inserting out of order shifts the entries after the insertion point; late events are close to
 * the end, so the shift is short.
 */
public final class InMemoryReservoir implements EventReservoir {
    private long[] timestamps = new long[1024];
    private long[] seqs = new long[1024];
    private long[] rowRefs = new long[1024];
    private int mask = 1023;
    private long start; // logical position of the first live entry
    private long end;   // logical position after the last entry

    private final RowArena rows = new RowArena();

    private final List<Cursor> cursors = new ArrayList<>();

    @Override
    public void insert(long timestamp, long seq, EventRow row) {
        if (end - start == timestamps.length) {
            grow();
        }
        long ref = rows.append(row);
        long p = end;
        while (p > start && timestamps[(int) (p - 1) & mask] > timestamp) {
            p--;
        }
        for (long k = end; k > p; k--) {
            int to = (int) k & mask;
            int from = (int) (k - 1) & mask;
            timestamps[to] = timestamps[from];
            seqs[to] = seqs[from];
            rowRefs[to] = rowRefs[from];
        }
        int i = (int) p & mask;
        timestamps[i] = timestamp;
        seqs[i] = seq;
        rowRefs[i] = ref;
        end++;
        for (int c = 0, n = cursors.size(); c < n; c++) {
            Cursor cursor = cursors.get(c);
            if (timestamp <= cursor.boundary) {
                cursor.position++;
            }
        }
    }

    @Override
    public void advanceWatermark(long timestamp) {
        // everything is in memory: nothing to close
    }

    @Override
    public ReservoirCursor openCursor(long boundary) {
        Cursor c = new Cursor(boundary);
        long p = start;
        while (p < end && timestamps[(int) p & mask] <= boundary) {
            p++;
        }
        c.position = p;
        cursors.add(c);
        return c;
    }

    @Override
    public void trim() {
        long min = end;
        for (int c = 0, n = cursors.size(); c < n; c++) {
            min = Math.min(min, cursors.get(c).position);
        }
        for (long p = start; p < min; p++) {
            rows.release(rowRefs[(int) p & mask]);
        }
        start = Math.max(start, min);
    }

    @Override
    public long size() {
        return end - start;
    }

    @Override
    public long memoryBytes() {
        return rows.memoryBytes() + (long) timestamps.length * 24;
    }

    @Override
    public void close() {
        cursors.clear();
    }

    /** Doubles the rings, every entry keeping its logical position. */
    private void grow() {
        int n = 2 * timestamps.length;
        long[] t = new long[n];
        long[] s = new long[n];
        long[] r = new long[n];
        for (long p = start; p < end; p++) {
            int from = (int) p & mask;
            int to = (int) p & (n - 1);
            t[to] = timestamps[from];
            s[to] = seqs[from];
            r[to] = rowRefs[from];
        }
        timestamps = t;
        seqs = s;
        rowRefs = r;
        mask = n - 1;
    }

    private final class Cursor implements ReservoirCursor {
        long boundary;
        long position; // logical index of the first event not passed
        private final EventRow row = new EventRow();

        Cursor(long boundary) {
            this.boundary = boundary;
        }

        @Override
        public long boundary() {
            return boundary;
        }

        @Override
        public void advanceTo(long newBoundary, EventSink sink) {
            if (newBoundary <= boundary) {
                return;
            }
            boundary = newBoundary;
            while (position < end && timestamps[(int) position & mask] <= newBoundary) {
                int i = (int) position & mask;
                position++;
                long ref = rowRefs[i];
                sink.accept(timestamps[i], seqs[i], row.wrap(rows.chunk(ref), RowArena.offset(ref)));
            }
        }

        @Override
        public void close() {
            cursors.remove(this);
        }
    }
}
