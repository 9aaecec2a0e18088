package io.railgun.engine.reservoir.disk;

/**
 * The events of one closed chunk, decoded: the body (layout in {@link SegmentDescriptor}) with the
 * timestamp, seq and row offset of each event pulled out into columns, so a cursor steps through it
 * without parsing. Immutable once built, so it is shared freely between the task's thread, the
 * writer and the readers (published through their queues). Identified by its chunk id, a number
 * the reservoir gives chunks in order (not stored on disk).
 */
final class Chunk {
    final long id;
    final int schemaId;
    final int count;
    final long[] timestamps;
    final long[] seqs;
    /** Offset of each event's row in {@link #body}. */
    final int[] rowOffsets;
    final byte[] body;
    final long maxSeq;

    Chunk(long id, int schemaId, int count, long[] timestamps, long[] seqs, int[] rowOffsets, byte[] body, long maxSeq) {
        this.id = id;
        this.schemaId = schemaId;
        this.count = count;
        this.timestamps = timestamps;
        this.seqs = seqs;
        this.rowOffsets = rowOffsets;
        this.body = body;
        this.maxSeq = maxSeq;
    }

    long firstTimestamp() {
        return timestamps[0];
    }

    long lastTimestamp() {
        return timestamps[count - 1];
    }

    long firstSeq() {
        return seqs[0];
    }

    long lastSeq() {
        return seqs[count - 1];
    }

    /** Heap bytes this chunk holds (body and columns). */
    long memoryBytes() {
        return 64L + body.length + 20L * count;
    }
}
