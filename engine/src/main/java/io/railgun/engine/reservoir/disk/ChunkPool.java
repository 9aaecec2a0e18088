package io.railgun.engine.reservoir.disk;

/**
 * The arrays of chunks the reservoir no longer needs, for the next chunks it cuts or reads: a chunk
 * closed from the open region is written, then dropped (no cursor is about to enter it: windows'
 * tails read it back from disk much later), and a chunk cursors entered leaves the cache or the
 * last cursor in it; its body and columns are handed back here instead of becoming garbage, so
 * cutting and reading chunks allocate nothing in steady state.
 *
 * <p>Invariant: an array set is released only when nothing else can read it — the writer has
 * written the chunk, no cursor is in it and the chunk cache does not hold it
 * ({@link DiskReservoir} checks all three). Arrays may be longer than a chunk needs: {@link Chunk}
 * carries its count and body length. Holds at most {@value #MAX_SETS} sets; a set that fits no
 * request made when the pool is full is dropped for it, so sets too small do not hold the pool.
 *
 * <p>Shared by the task's thread (cuts, releases, stalled reads) and the reader threads
 * (prefetches): a lock per chunk cut, read or released, so per some thousands of events.
 */
final class ChunkPool {
    private static final int MAX_SETS = 16;

    private final byte[][] bodies = new byte[MAX_SETS][];
    private final long[][] timestamps = new long[MAX_SETS][];
    private final long[][] seqs = new long[MAX_SETS][];
    private final int[][] offsets = new int[MAX_SETS][];
    private int size;

    /** A body of at least {@code length} bytes and columns of at least {@code count}: pooled, else new. */
    synchronized Chunk.Arrays take(int length, int count) {
        for (int i = size - 1; i >= 0; i--) {
            if (bodies[i].length >= length && timestamps[i].length >= count) {
                Chunk.Arrays a = new Chunk.Arrays(bodies[i], timestamps[i], seqs[i], offsets[i]);
                drop(i);
                return a;
            }
        }
        if (size == MAX_SETS) {
            drop(0); // fits no request now: room for one that may
        }
        // a little room over, so that the next chunks (of about the same size) fit
        int n = count + (count >>> 3) + 8;
        return new Chunk.Arrays(new byte[length + (length >>> 3) + 64], new long[n], new long[n], new int[n]);
    }

    /** Sets held (for tests). */
    synchronized int size() {
        return size;
    }

    private void drop(int i) {
        size--;
        bodies[i] = bodies[size];
        timestamps[i] = timestamps[size];
        seqs[i] = seqs[size];
        offsets[i] = offsets[size];
        bodies[size] = null;
        timestamps[size] = null;
        seqs[size] = null;
        offsets[size] = null;
    }

    /** Hands back the arrays of a chunk nothing reads any more. */
    synchronized void release(Chunk c) {
        if (size == MAX_SETS) {
            return;
        }
        bodies[size] = c.body;
        timestamps[size] = c.timestamps;
        seqs[size] = c.seqs;
        offsets[size] = c.rowOffsets;
        size++;
    }
}
