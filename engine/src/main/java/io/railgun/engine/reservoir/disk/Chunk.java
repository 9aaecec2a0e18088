package io.railgun.engine.reservoir.disk;

/**
 * The events of one closed chunk, decoded: the body (layout in {@link SegmentDescriptor}) with the
 * timestamp, seq and row offset of each event pulled out into columns, so a cursor steps through it
 * without parsing. Immutable once built, so it is shared freely between the task's thread, the
 * writer and the readers (published through their queues); a chunk the reservoir cut may have its
 * arrays handed back to a {@link ChunkPool} once nothing reads it. Identified by its chunk id, a number
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
    /** Bytes of {@link #body} that are the chunk's (a pooled body may be longer). */
    final int bodyLength;
    final long maxSeq;

    /** Arrays for a chunk, possibly longer than it needs ({@link ChunkPool}). */
    record Arrays(byte[] body, long[] timestamps, long[] seqs, int[] rowOffsets) {}

    Chunk(long id, int schemaId, int count, long[] timestamps, long[] seqs, int[] rowOffsets, byte[] body, long maxSeq) {
        this(id, schemaId, count, timestamps, seqs, rowOffsets, body, body.length, maxSeq);
    }

    Chunk(long id, int schemaId, int count, long[] timestamps, long[] seqs, int[] rowOffsets, byte[] body, int bodyLength,
          long maxSeq) {
        this.id = id;
        this.schemaId = schemaId;
        this.count = count;
        this.timestamps = timestamps;
        this.seqs = seqs;
        this.rowOffsets = rowOffsets;
        this.body = body;
        this.bodyLength = bodyLength;
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
        return 64L + body.length + 20L * timestamps.length;
    }
}
