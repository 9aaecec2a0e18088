package io.railgun.engine.reservoir.disk;

/**
 * A {@link DiskReservoir}'s retention: deletes (through the {@link SegmentWriter}, in the
 * background) the sealed segment files whose events every cursor has passed, never the active one,
 * and none a checkpoint still being completed may need ({@link #allowTrimBelow}). Drops the
 * deleted chunks from the index and the cache.
 *
 * <p>Task's thread only.
 */
final class SegmentTrimmer {
    private final ChunkIndex index;
    private final SegmentTable segments;
    private final SegmentWriter writer;
    private final ChunkCache cache;
    // files holding events at or after this position are kept (a checkpoint's cursors may need them)
    private long trimLimit = Long.MAX_VALUE;

    SegmentTrimmer(ChunkIndex index, SegmentTable segments, SegmentWriter writer, ChunkCache cache) {
        this.index = index;
        this.segments = segments;
        this.writer = writer;
        this.cache = cache;
    }

    /** Files holding events at or after {@code position} are kept from now on (0: every file). */
    void allowTrimBelow(long position) {
        trimLimit = position;
    }

    /** Deletes the sealed files wholly before {@code minCursorPosition} and the trim limit. */
    void trim(long minCursorPosition) {
        long min = Math.min(trimLimit, minCursorPosition);
        boolean removed = false;
        while (segments.size() > 1 && index.endPos(segments.firstLastChunkId()) <= min) {
            index.removeThrough(segments.firstLastChunkId());
            writer.delete(segments.firstId());
            segments.removeFirst();
            removed = true;
        }
        if (removed) {
            cache.removeBelow(index.firstId());
        }
    }
}
