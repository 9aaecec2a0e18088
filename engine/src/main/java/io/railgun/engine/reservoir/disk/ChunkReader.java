package io.railgun.engine.reservoir.disk;

import static io.railgun.engine.reservoir.disk.SegmentDescriptor.BODY_LENGTH_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.CHUNK_HEADER_LENGTH;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.CODEC_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.COUNT_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.CRC_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.CRC_START;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.FIRST_SEQ_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.FIRST_TIMESTAMP_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.FRAME_LENGTH_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.SCHEMA_ID_OFFSET;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.zip.CRC32C;

/**
 * Reads one chunk frame from its segment, checks it (length, checksum, header against the index)
 * and decodes it into a {@link Chunk}. Called by the task's thread (a stall) and by reader threads
 * (prefetch) concurrently: decompressors are borrowed from a pool, everything else is local.
 */
final class ChunkReader implements AutoCloseable {
    private final SegmentFiles files;
    /** Idle decompressors, indexed by codec ordinal. */
    private final List<ConcurrentLinkedQueue<ChunkCodec.Decompressor>> pools;
    private volatile boolean closed;

    ChunkReader(SegmentFiles files) {
        this.files = files;
        List<ConcurrentLinkedQueue<ChunkCodec.Decompressor>> p = new ArrayList<>();
        for (int i = 0; i < ChunkCodec.values().length; i++) {
            p.add(new ConcurrentLinkedQueue<>());
        }
        this.pools = List.copyOf(p);
    }

    /**
     * Reads chunk {@code id} of the index.
     *
     * @throws IOException              when the file cannot be read
     * @throws ReservoirFormatException when the frame is not the chunk the index expects
     */
    Chunk read(long id, long segmentId, long offset, int frameLength, long firstTs, long firstSeq, int count)
            throws IOException {
        byte[] frame = new byte[frameLength];
        files.read(segmentId, offset, frame, frameLength);
        String where = "segment " + segmentId + " offset " + offset;
        if (SegmentDescriptor.getInt(frame, FRAME_LENGTH_OFFSET) != frameLength) {
            throw new ReservoirFormatException(where + ": frame length differs from the index");
        }
        CRC32C crc = new CRC32C();
        crc.update(frame, CRC_START, frameLength - CRC_START);
        if ((int) crc.getValue() != SegmentDescriptor.getInt(frame, CRC_OFFSET)) {
            throw new ReservoirFormatException(where + ": chunk checksum mismatch (the file changed after it was written)");
        }
        if (SegmentDescriptor.getInt(frame, COUNT_OFFSET) != count
                || SegmentDescriptor.getLong(frame, FIRST_TIMESTAMP_OFFSET) != firstTs
                || SegmentDescriptor.getLong(frame, FIRST_SEQ_OFFSET) != firstSeq) {
            throw new ReservoirFormatException(where + ": chunk header differs from the index");
        }
        ChunkCodec codec = ChunkCodec.byId(frame[CODEC_OFFSET]);
        if (codec == null) {
            throw new ReservoirFormatException(where + ": unknown codec " + frame[CODEC_OFFSET]);
        }
        int bodyLength = SegmentDescriptor.getInt(frame, BODY_LENGTH_OFFSET);
        if (bodyLength < 0 || bodyLength > SegmentDescriptor.MAX_BODY_LENGTH) {
            throw new ReservoirFormatException(where + ": body length " + bodyLength);
        }
        byte[] body = new byte[bodyLength];
        ConcurrentLinkedQueue<ChunkCodec.Decompressor> pool = pools.get(codec.ordinal());
        ChunkCodec.Decompressor d = pool.poll();
        if (d == null) {
            d = codec.newDecompressor();
        }
        try {
            d.decompress(frame, CHUNK_HEADER_LENGTH, frameLength - CHUNK_HEADER_LENGTH, body, 0, bodyLength);
        } finally {
            if (closed) {
                d.close();
            } else {
                pool.offer(d);
            }
        }
        return ChunkBody.decode(id, body, SegmentDescriptor.getInt(frame, SCHEMA_ID_OFFSET), count, firstTs, firstSeq);
    }

    /** Releases the pooled decompressors (reads still running create and drop their own). */
    @Override
    public void close() {
        closed = true;
        for (ConcurrentLinkedQueue<ChunkCodec.Decompressor> pool : pools) {
            ChunkCodec.Decompressor d;
            while ((d = pool.poll()) != null) {
                d.close();
            }
        }
    }
}
