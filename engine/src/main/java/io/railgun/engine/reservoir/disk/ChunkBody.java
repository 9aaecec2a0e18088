package io.railgun.engine.reservoir.disk;

import static io.railgun.engine.event.EventRowDescriptor.BITMAP_OFFSET;
import static io.railgun.engine.event.EventRowDescriptor.LENGTH_OFFSET;

/**
 * Encoding and decoding of a chunk body (layout in {@link SegmentDescriptor}): per event a varint
 * timestamp delta, a zigzag varint seq delta and the row bytes.
 */
final class ChunkBody {
    private ChunkBody() {}

    /** Bytes of the unsigned LEB128 encoding of {@code v}. */
    static int varintLength(long v) {
        int n = 1;
        while ((v & ~0x7FL) != 0) {
            v >>>= 7;
            n++;
        }
        return n;
    }

    /** Writes {@code v} as unsigned LEB128 at {@code p}; returns the position after it. */
    static int putVarint(byte[] b, int p, long v) {
        while ((v & ~0x7FL) != 0) {
            b[p++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        b[p++] = (byte) v;
        return p;
    }

    static long zigzag(long v) {
        return (v << 1) ^ (v >> 63);
    }

    static long unzigzag(long v) {
        return (v >>> 1) ^ -(v & 1);
    }

    /**
     * Decodes a body, the first {@code bodyLength} bytes of {@code arrays}' (which may be longer, as
     * its columns: {@link ChunkPool}), into a {@link Chunk} over those arrays.
     *
     * @throws ReservoirFormatException when the body does not hold exactly {@code count} well-formed
     *                                  events of {@code schemaId} starting at the given first values
     */
    static Chunk decode(long id, Chunk.Arrays arrays, int bodyLength, int schemaId, int count, long firstTimestamp,
            long firstSeq) {
        byte[] body = arrays.body();
        long[] timestamps = arrays.timestamps();
        long[] seqs = arrays.seqs();
        int[] rowOffsets = arrays.rowOffsets();
        long ts = firstTimestamp;
        long seq = firstSeq;
        long maxSeq = Long.MIN_VALUE;
        int p = 0;
        int end = bodyLength;
        for (int i = 0; i < count; i++) {
            long v = 0;
            int shift = 0;
            byte b;
            do {
                check(p < end && shift < 64, id, "timestamp delta", i);
                b = body[p++];
                v |= (long) (b & 0x7F) << shift;
                shift += 7;
            } while (b < 0);
            ts += v;
            v = 0;
            shift = 0;
            do {
                check(p < end && shift < 64, id, "seq delta", i);
                b = body[p++];
                v |= (long) (b & 0x7F) << shift;
                shift += 7;
            } while (b < 0);
            seq += unzigzag(v);
            check(p + BITMAP_OFFSET <= end, id, "row header", i);
            int len = (int) SegmentDescriptor.INT.get(body, p + LENGTH_OFFSET);
            check(len >= BITMAP_OFFSET && len <= end - p, id, "row length", i);
            check((int) SegmentDescriptor.INT.get(body, p + 4) == schemaId, id, "row schema id", i);
            timestamps[i] = ts;
            seqs[i] = seq;
            rowOffsets[i] = p;
            maxSeq = Math.max(maxSeq, seq);
            p += len;
        }
        check(p == end, id, "body end", count);
        return new Chunk(id, schemaId, count, timestamps, seqs, rowOffsets, body, bodyLength, maxSeq);
    }

    private static void check(boolean ok, long id, String what, int event) {
        if (!ok) {
            throw new ReservoirFormatException("chunk " + id + ": bad " + what + " at event " + event);
        }
    }
}
