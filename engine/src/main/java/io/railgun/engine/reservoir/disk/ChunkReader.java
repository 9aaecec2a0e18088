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
 * (prefetch) concurrently: decompressors are borrowed from a pool, the compressed frame is read into
 * a buffer of the calling thread's (kept up to {@value #KEPT_FRAME_BYTES} bytes: frames are read
 * per chunk entered or prefetched, in steady state, and were garbage each time), everything else
 * is local.
 */
final class ChunkReader implements AutoCloseable {
    private final SegmentFiles files;
    private final ChunkPool chunkPool;
    /** Idle decompressors, indexed by codec ordinal. */
    private final List<ConcurrentLinkedQueue<ChunkCodec.Decompressor>> pools;
    private static final int KEPT_FRAME_BYTES = 1 << 20;
    private final ThreadLocal<byte[]> frames = ThreadLocal.withInitial(() -> new byte[0]);
    private volatile boolean closed;

    ChunkReader(SegmentFiles files, ChunkPool chunkPool) {
        this.files = files;
        this.chunkPool = chunkPool;
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
        byte[] frame = frameBuffer(frameLength);
        files.read(segmentId, offset, frame, frameLength);
        if (SegmentDescriptor.getInt(frame, FRAME_LENGTH_OFFSET) != frameLength) {
            throw new ReservoirFormatException(where(segmentId, offset) + ": frame length differs from the index");
        }
        CRC32C crc = new CRC32C();
        crc.update(frame, CRC_START, frameLength - CRC_START);
        if ((int) crc.getValue() != SegmentDescriptor.getInt(frame, CRC_OFFSET)) {
            throw new ReservoirFormatException(where(segmentId, offset) + ": chunk checksum mismatch (the file changed after it was written)");
        }
        if (SegmentDescriptor.getInt(frame, COUNT_OFFSET) != count
                || SegmentDescriptor.getLong(frame, FIRST_TIMESTAMP_OFFSET) != firstTs
                || SegmentDescriptor.getLong(frame, FIRST_SEQ_OFFSET) != firstSeq) {
            throw new ReservoirFormatException(where(segmentId, offset) + ": chunk header differs from the index");
        }
        ChunkCodec codec = ChunkCodec.byId(frame[CODEC_OFFSET]);
        if (codec == null) {
            throw new ReservoirFormatException(where(segmentId, offset) + ": unknown codec " + frame[CODEC_OFFSET]);
        }
        int bodyLength = SegmentDescriptor.getInt(frame, BODY_LENGTH_OFFSET);
        if (bodyLength < 0 || bodyLength > SegmentDescriptor.MAX_BODY_LENGTH) {
            throw new ReservoirFormatException(where(segmentId, offset) + ": body length " + bodyLength);
        }
        Chunk.Arrays arrays = chunkPool.take(bodyLength, count);
        byte[] body = arrays.body();
        ConcurrentLinkedQueue<ChunkCodec.Decompressor> pool = pools.get(codec.ordinal());
        ChunkCodec.Decompressor d = pool.poll();
        if (d == null) {
            d = codec.newDecompressor();
        }
        try {
            d.decompress(frame, CHUNK_HEADER_LENGTH, frameLength - CHUNK_HEADER_LENGTH, body, 0, bodyLength);
        } finally {
            pool.offer(d);
            if (closed) {
                drain(pool); // close() may have drained the pool before this offer
            }
        }
        return ChunkBody.decode(id, arrays, bodyLength, SegmentDescriptor.getInt(frame, SCHEMA_ID_OFFSET), count, firstTs,
                firstSeq);
    }

    /** Where a frame is, for errors (not built per read: it was a string per chunk read). */
    private static String where(long segmentId, long offset) {
        return "segment " + segmentId + " offset " + offset;
    }

    /** A buffer of at least {@code length} bytes for a frame: the calling thread's, else (a large one) new. */
    private byte[] frameBuffer(int length) {
        byte[] frame = frames.get();
        if (frame.length >= length) {
            return frame;
        }
        if (length > KEPT_FRAME_BYTES) {
            return new byte[length];
        }
        frame = new byte[Math.min(KEPT_FRAME_BYTES, Math.max(length, 2 * frame.length))];
        frames.set(frame);
        return frame;
    }

    /** Releases the pooled decompressors; reads still running close theirs when they end. */
    @Override
    public void close() {
        closed = true;
        for (ConcurrentLinkedQueue<ChunkCodec.Decompressor> pool : pools) {
            drain(pool);
        }
    }

    /** Closes the decompressors in {@code pool} (each taken by one thread only: the queue's poll). */
    private static void drain(ConcurrentLinkedQueue<ChunkCodec.Decompressor> pool) {
        ChunkCodec.Decompressor d;
        while ((d = pool.poll()) != null) {
            d.close();
        }
    }
}
