package io.railgun.engine.reservoir.disk;

/**
 * The arrays of chunks the reservoir cut and no longer needs, for the next cuts: a chunk closed
 * from the open region is written, then usually dropped (no cursor is about to enter it: windows'
 * tails read it back from disk much later), so its body and columns are handed back here instead of
 * becoming garbage, and cutting a chunk allocates nothing in steady state.
 *
 * <p>Invariant: an array set is released only when nothing else can read it — the writer has
 * written the chunk, no cursor is in it and the chunk cache does not hold it
 * ({@link DiskReservoir} checks all three). Arrays may be longer than a chunk needs: {@link Chunk}
 * carries its count and body length. Holds at most {@value #MAX_SETS} sets.
 *
 * <p>Owned by the task's thread (cuts and releases both happen there).
 */
final class ChunkPool {
    private static final int MAX_SETS = 16;

    private final byte[][] bodies = new byte[MAX_SETS][];
    private final long[][] timestamps = new long[MAX_SETS][];
    private final long[][] seqs = new long[MAX_SETS][];
    private final int[][] offsets = new int[MAX_SETS][];
    private int size;

    /** A body of at least {@code length} bytes and columns of at least {@code count}: pooled, else new. */
    Chunk.Arrays take(int length, int count) {
        for (int i = size - 1; i >= 0; i--) {
            if (bodies[i].length >= length && timestamps[i].length >= count) {
                Chunk.Arrays a = new Chunk.Arrays(bodies[i], timestamps[i], seqs[i], offsets[i]);
                size--;
                bodies[i] = bodies[size];
                timestamps[i] = timestamps[size];
                seqs[i] = seqs[size];
                offsets[i] = offsets[size];
                bodies[size] = null;
                timestamps[size] = null;
                seqs[size] = null;
                offsets[size] = null;
                return a;
            }
        }
        // a little room over, so that the next chunks (of about the same size) fit
        int n = count + (count >>> 3) + 8;
        return new Chunk.Arrays(new byte[length + (length >>> 3) + 64], new long[n], new long[n], new int[n]);
    }

    /** Hands back the arrays of a chunk nothing reads any more. */
    void release(Chunk c) {
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
