package io.railgun.engine.reservoir.disk;

/**
 * A closed chunk handed to the {@link SegmentWriter}, readable from memory until its write is
 * done. The writer sets the location fields, then publishes them through the volatile
 * {@link #segmentId}; the task's thread reads the location only once it sees a segment id.
 */
final class PendingChunk {
    final Chunk chunk;
    long offset;
    int frameLength;
    volatile long segmentId = -1;

    PendingChunk(Chunk chunk) {
        this.chunk = chunk;
    }

    boolean written() {
        return segmentId >= 0;
    }
}
