package io.railgun.engine.reservoir;

import io.railgun.engine.event.EventRow;
import java.util.Arrays;

/**
 * The row bytes of an {@link InMemoryReservoir}: rows appended into 1 MiB chunks (a row never spans
 * two), each chunk counting its live rows; a chunk whose rows have all been released, and all older
 * ones, goes back to a pool and is reused. So a reservoir whose window is full allocates nothing,
 * and one that grows allocates a chunk at a time, when it grows: a single arena compacted by copying
 * had to double (copying every live row) whenever it filled past half, long after the growth that
 * caused it, and kept twice the live bytes.
 *
 * <p>A row is named by a reference {@code (chunk number << 32) | offset}; chunk numbers only grow.
 * Rows are released in any order (late events are released before rows appended before them); a
 * chunk is freed once it and every older chunk are empty, so a late event's row holds at most the
 * chunks appended after it. A row longer than a chunk gets a chunk of its own, not pooled.
 *
 * <p>Owned by the reservoir's (the task's) thread.
 */
final class RowArena {
    static final int CHUNK_BYTES = 1 << 20;

    private byte[][] chunks = new byte[16][]; // ring: chunk c at c & (length - 1), for c in [oldest, current]
    private int[] liveRows = new int[16];
    private int oldest;
    private int current = -1;
    private int end = CHUNK_BYTES; // write position in the current chunk (full: none yet)
    private byte[][] pool = new byte[16][];
    private int pooled;
    private long chunkBytes; // bytes of the chunks in the ring
    private long allocated; // chunks allocated, ever (tests: steady state allocates none)

    /** Copies a row in; returns its reference. */
    long append(EventRow row) {
        int len = row.length();
        if (current < 0 || end + len > chunks[current & (chunks.length - 1)].length) {
            startChunk(len);
        }
        int i = current & (chunks.length - 1);
        System.arraycopy(row.buffer(), row.offset(), chunks[i], end, len);
        long ref = ((long) current << 32) | end;
        end += len;
        liveRows[i]++;
        return ref;
    }

    /** The chunk holding a row. */
    byte[] chunk(long ref) {
        return chunks[(int) (ref >>> 32) & (chunks.length - 1)];
    }

    /** A row's offset in its chunk. */
    static int offset(long ref) {
        return (int) ref;
    }

    /** A row has left the reservoir: its chunk, and older empty ones, may go back to the pool. */
    void release(long ref) {
        int mask = chunks.length - 1;
        liveRows[(int) (ref >>> 32) & mask]--;
        while (oldest < current && liveRows[oldest & mask] == 0) {
            free(oldest & mask);
            oldest++;
        }
    }

    /** Bytes held: chunks in use and pooled. */
    long memoryBytes() {
        return chunkBytes + (long) pooled * CHUNK_BYTES;
    }

    /** Bytes of the chunks in use (not pooled). */
    long usedBytes() {
        return chunkBytes;
    }

    /** Chunks allocated since the arena was created. */
    long chunksAllocated() {
        return allocated;
    }

    private void startChunk(int len) {
        if (current + 1 - oldest == chunks.length) {
            growRing();
        }
        current++;
        int i = current & (chunks.length - 1);
        byte[] c;
        if (len > CHUNK_BYTES) {
            c = new byte[len];
            allocated++;
        } else if (pooled > 0) {
            c = pool[--pooled];
            pool[pooled] = null;
        } else {
            c = new byte[CHUNK_BYTES];
            allocated++;
        }
        chunks[i] = c;
        liveRows[i] = 0;
        chunkBytes += c.length;
        end = 0;
    }

    private void free(int i) {
        byte[] c = chunks[i];
        chunks[i] = null;
        chunkBytes -= c.length;
        if (c.length == CHUNK_BYTES) {
            if (pooled == pool.length) {
                pool = Arrays.copyOf(pool, pooled * 2);
            }
            pool[pooled++] = c;
        }
    }

    private void growRing() {
        int n = chunks.length;
        byte[][] c = new byte[2 * n][];
        int[] live = new int[2 * n];
        for (int k = oldest; k <= current; k++) {
            c[k & (2 * n - 1)] = chunks[k & (n - 1)];
            live[k & (2 * n - 1)] = liveRows[k & (n - 1)];
        }
        chunks = c;
        liveRows = live;
    }
}
