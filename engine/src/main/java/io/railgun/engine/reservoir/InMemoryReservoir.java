package io.railgun.engine.reservoir;

import io.railgun.engine.event.EventRow;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * An {@link EventReservoir} held entirely in heap arrays: parallel primitive columns
 * (timestamp, seq, row reference) over the row bytes in a {@link RowArena}, whose chunks are
 * reused as cursors pass events. Positions are logical (they survive compaction of the columns):
 * physical index = position - base.
 * Inserting out of order shifts the entries after the insertion point; late events are close to
 * the end, so the shift is short.
 */
public final class InMemoryReservoir implements EventReservoir {
    private long[] timestamps = new long[1024];
    private long[] seqs = new long[1024];
    private long[] rowRefs = new long[1024];
    private int start; // physical index of the first live entry
    private int end;   // physical index after the last entry
    private long base; // logical position of physical index 0

    private final RowArena rows = new RowArena();

    private final List<Cursor> cursors = new ArrayList<>();

    @Override
    public void insert(long timestamp, long seq, EventRow row) {
        if (end == timestamps.length) {
            makeRoomForEntry();
        }
        long ref = rows.append(row);
        int i = end;
        while (i > start && timestamps[i - 1] > timestamp) {
            i--;
        }
        if (i < end) {
            System.arraycopy(timestamps, i, timestamps, i + 1, end - i);
            System.arraycopy(seqs, i, seqs, i + 1, end - i);
            System.arraycopy(rowRefs, i, rowRefs, i + 1, end - i);
        }
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
        int i = start;
        while (i < end && timestamps[i] <= boundary) {
            i++;
        }
        c.position = base + i;
        cursors.add(c);
        return c;
    }

    @Override
    public void trim() {
        long min = base + end;
        for (int c = 0, n = cursors.size(); c < n; c++) {
            min = Math.min(min, cursors.get(c).position);
        }
        int next = (int) (min - base);
        for (int i = start; i < next; i++) {
            rows.release(rowRefs[i]);
        }
        start = next;
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

    private void makeRoomForEntry() {
        if (start > timestamps.length / 2) {
            compactEntries();
        } else {
            int n = timestamps.length * 2;
            timestamps = Arrays.copyOf(timestamps, n);
            seqs = Arrays.copyOf(seqs, n);
            rowRefs = Arrays.copyOf(rowRefs, n);
        }
    }

    private void compactEntries() {
        int live = end - start;
        System.arraycopy(timestamps, start, timestamps, 0, live);
        System.arraycopy(seqs, start, seqs, 0, live);
        System.arraycopy(rowRefs, start, rowRefs, 0, live);
        base += start;
        start = 0;
        end = live;
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
            // Re-read the physical index each step: the sink may not insert, but base is stable here.
            while (position - base < end && timestamps[(int) (position - base)] <= newBoundary) {
                int i = (int) (position - base);
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
