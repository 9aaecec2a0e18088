package io.railgun.engine.reservoir.disk;

import java.util.Arrays;

/**
 * The in-memory index of the closed chunks still held (on disk or waiting for their write), in
 * order: for each chunk its position (the global index of its first event in (timestamp, seq)
 * order), first and last timestamp, first seq, event count and where it is on disk (segment id,
 * offset, frame length; segment -1 until written). Chunk ids are consecutive: entry i has id
 * {@link #firstId()} + i. Lookups by position or timestamp are binary searches. Primitive columns,
 * no object per chunk. Owned by the task's thread.
 */
final class ChunkIndex {
    private long firstId;
    private int head;
    private int tail;
    private long[] startPos = new long[64];
    private long[] firstTs = new long[64];
    private long[] lastTs = new long[64];
    private long[] firstSeq = new long[64];
    private int[] count = new int[64];
    private long[] segment = new long[64];
    private long[] offset = new long[64];
    private int[] frameLength = new int[64];

    long firstId() {
        return firstId;
    }

    /** Id the next appended chunk gets. */
    long nextId() {
        return firstId + (tail - head);
    }

    int size() {
        return tail - head;
    }

    boolean contains(long id) {
        return id >= firstId && id < nextId();
    }

    /** Appends a chunk starting at position {@code pos}; returns its id. */
    long append(long pos, long first, long last, long firstSequence, int events) {
        if (tail == startPos.length) {
            grow();
        }
        startPos[tail] = pos;
        firstTs[tail] = first;
        lastTs[tail] = last;
        firstSeq[tail] = firstSequence;
        count[tail] = events;
        segment[tail] = -1;
        tail++;
        return nextId() - 1;
    }

    void setLocation(long id, long segmentId, long fileOffset, int length) {
        int i = slot(id);
        segment[i] = segmentId;
        offset[i] = fileOffset;
        frameLength[i] = length;
    }

    long startPos(long id) {
        return startPos[slot(id)];
    }

    long endPos(long id) {
        int i = slot(id);
        return startPos[i] + count[i];
    }

    long firstTimestamp(long id) {
        return firstTs[slot(id)];
    }

    long lastTimestamp(long id) {
        return lastTs[slot(id)];
    }

    long firstSeq(long id) {
        return firstSeq[slot(id)];
    }

    int count(long id) {
        return count[slot(id)];
    }

    long segment(long id) {
        return segment[slot(id)];
    }

    long offset(long id) {
        return offset[slot(id)];
    }

    int frameLength(long id) {
        return frameLength[slot(id)];
    }

    /** Id of the chunk holding position {@code pos}; the index must hold it. */
    long idAt(long pos) {
        int lo = head;
        int hi = tail - 1;
        while (lo < hi) {
            int mid = (lo + hi + 1) >>> 1;
            if (startPos[mid] <= pos) {
                lo = mid;
            } else {
                hi = mid - 1;
            }
        }
        return firstId + (lo - head);
    }

    /** Id of the first chunk with a last timestamp above {@code ts}, or {@link #nextId()} when none. */
    long firstIdWithLastAbove(long ts) {
        int lo = head;
        int hi = tail;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (lastTs[mid] <= ts) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return firstId + (lo - head);
    }

    /** Forgets every chunk up to and including {@code id}. */
    void removeThrough(long id) {
        int n = (int) (id - firstId + 1);
        head += n;
        firstId += n;
        if (head == tail) {
            head = 0;
            tail = 0;
        }
    }

    private int slot(long id) {
        return head + (int) (id - firstId);
    }

    private void grow() {
        int live = tail - head;
        int n = live < startPos.length / 2 ? startPos.length : startPos.length * 2;
        startPos = move(startPos, n, live);
        firstTs = move(firstTs, n, live);
        lastTs = move(lastTs, n, live);
        firstSeq = move(firstSeq, n, live);
        segment = move(segment, n, live);
        offset = move(offset, n, live);
        count = move(count, n, live);
        frameLength = move(frameLength, n, live);
        head = 0;
        tail = live;
    }

    private long[] move(long[] a, int n, int live) {
        long[] b = n == a.length ? a : Arrays.copyOf(a, n);
        System.arraycopy(a, head, b, 0, live);
        return b;
    }

    private int[] move(int[] a, int n, int live) {
        int[] b = n == a.length ? a : Arrays.copyOf(a, n);
        System.arraycopy(a, head, b, 0, live);
        return b;
    }
}
