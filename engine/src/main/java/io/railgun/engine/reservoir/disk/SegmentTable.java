package io.railgun.engine.reservoir.disk;

import java.util.Arrays;

/**
 * The segment files holding written chunks, oldest first: id, last chunk id and bytes of each.
 * The last one is the active file (the writer may still append to it); the others are immutable
 * and may be deleted once every cursor has passed their last chunk. Owned by the task's thread.
 */
final class SegmentTable {
    private long[] ids = new long[16];
    private long[] lastChunkIds = new long[16];
    private long[] bytes = new long[16];
    private int head;
    private int tail;
    private long totalBytes;

    int size() {
        return tail - head;
    }

    long firstId() {
        return ids[head];
    }

    long firstLastChunkId() {
        return lastChunkIds[head];
    }

    long totalBytes() {
        return totalBytes;
    }

    /** Records a chunk written (in chunk order) to {@code segmentId}. */
    void chunkWritten(long segmentId, long chunkId, int frameLength) {
        if (tail > head && ids[tail - 1] == segmentId) {
            lastChunkIds[tail - 1] = chunkId;
            bytes[tail - 1] += frameLength;
        } else {
            if (tail == ids.length) {
                int live = tail - head;
                int n = live < ids.length / 2 ? ids.length : ids.length * 2;
                ids = move(ids, n, live);
                lastChunkIds = move(lastChunkIds, n, live);
                bytes = move(bytes, n, live);
                head = 0;
                tail = live;
            }
            ids[tail] = segmentId;
            lastChunkIds[tail] = chunkId;
            bytes[tail] = SegmentDescriptor.FILE_HEADER_LENGTH + frameLength;
            totalBytes += SegmentDescriptor.FILE_HEADER_LENGTH;
            tail++;
        }
        totalBytes += frameLength;
    }

    void removeFirst() {
        totalBytes -= bytes[head];
        head++;
        if (head == tail) {
            head = 0;
            tail = 0;
        }
    }

    private long[] move(long[] a, int n, int live) {
        long[] b = n == a.length ? a : Arrays.copyOf(a, n);
        System.arraycopy(a, head, b, 0, live);
        return b;
    }
}
