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
 * carries its count and body length. Holds at most {@value #MAX_SETS} sets; a request that none
 * fits, made when the pool is full, drops the oldest set, so sets too small do not hold the pool.
 * With assertions on (the tests), a set released twice fails and a released set is overwritten
 * with garbage, so a chunk read after its release reads nonsense at once.
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
        int best = -1; // the smallest body that fits: a set of one oversized chunk is taken last
        for (int i = 0; i < size; i++) {
            if (bodies[i].length >= length && timestamps[i].length >= count
                    && (best < 0 || bodies[i].length < bodies[best].length)) {
                best = i;
            }
        }
        if (best >= 0) {
            Chunk.Arrays a = new Chunk.Arrays(bodies[best], timestamps[best], seqs[best], offsets[best]);
            drop(best);
            return a;
        }
        if (size == MAX_SETS) {
            drop(0); // none fits: room for a set that may
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
        System.arraycopy(bodies, i + 1, bodies, i, size - i - 1); // (order kept: index 0 is the oldest)
        System.arraycopy(timestamps, i + 1, timestamps, i, size - i - 1);
        System.arraycopy(seqs, i + 1, seqs, i, size - i - 1);
        System.arraycopy(offsets, i + 1, offsets, i, size - i - 1);
        size--;
        bodies[size] = null;
        timestamps[size] = null;
        seqs[size] = null;
        offsets[size] = null;
    }

    /** Hands back the arrays of a chunk nothing reads any more. */
    synchronized void release(Chunk c) {
        assert notHeld(c) : "chunk " + c.id + " released twice";
        assert poisoned(c);
        if (size == MAX_SETS) {
            return;
        }
        bodies[size] = c.body;
        timestamps[size] = c.timestamps;
        seqs[size] = c.seqs;
        offsets[size] = c.rowOffsets;
        size++;
    }

    private boolean notHeld(Chunk c) {
        for (int i = 0; i < size; i++) {
            if (bodies[i] == c.body || timestamps[i] == c.timestamps) {
                return false;
            }
        }
        return true;
    }

    /** Overwrites a released chunk's arrays (assertions only): whatever still reads it reads garbage. */
    private static boolean poisoned(Chunk c) {
        java.util.Arrays.fill(c.body, (byte) 0xA5);
        java.util.Arrays.fill(c.timestamps, 0x5A5A_5A5A_5A5A_5A5AL);
        java.util.Arrays.fill(c.seqs, -777);
        java.util.Arrays.fill(c.rowOffsets, Integer.MIN_VALUE);
        return true;
    }
}
