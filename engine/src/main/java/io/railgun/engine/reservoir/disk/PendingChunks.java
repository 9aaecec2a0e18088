package io.railgun.engine.reservoir.disk;

/**
 * The closed chunks handed to the writer and not yet seen written, oldest first: a ring of
 * {@link PendingChunk}s with consecutive chunk ids (the newest ids of the index). The writer
 * completes them in order, so written ones leave from the front. Owned by the task's thread.
 */
final class PendingChunks {
    private PendingChunk[] ring = new PendingChunk[16];
    private int head;
    private int count;
    private long bytes;

    int count() {
        return count;
    }

    /** Heap bytes of the chunks held. */
    long bytes() {
        return bytes;
    }

    void push(PendingChunk p) {
        if (count == ring.length) {
            PendingChunk[] bigger = new PendingChunk[ring.length * 2];
            for (int i = 0; i < count; i++) {
                bigger[i] = at(i);
            }
            ring = bigger;
            head = 0;
        }
        ring[(head + count) % ring.length] = p;
        count++;
        bytes += p.chunk.memoryBytes();
    }

    /** Whether the oldest one has been written. */
    boolean firstWritten() {
        return count > 0 && at(0).written();
    }

    PendingChunk pop() {
        PendingChunk p = at(0);
        ring[head] = null;
        head = (head + 1) % ring.length;
        count--;
        bytes -= p.chunk.memoryBytes();
        return p;
    }

    /** The pending chunk with that id, or null. */
    PendingChunk get(long id) {
        if (count == 0) {
            return null;
        }
        long first = at(0).chunk.id;
        if (id < first || id >= first + count) {
            return null;
        }
        return at((int) (id - first));
    }

    private PendingChunk at(int i) {
        return ring[(head + i) % ring.length];
    }
}
