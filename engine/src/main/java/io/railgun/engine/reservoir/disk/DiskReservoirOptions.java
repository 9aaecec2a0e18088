package io.railgun.engine.reservoir.disk;

/**
 * Settings of a {@link DiskReservoir}, validated once when built. Defaults in {@link #defaults()}.
 *
 * @param chunkTargetBytes row bytes after which a chunk (all of whose events are below the
 *                         watermark) is closed; default 64 KiB. Larger chunks compress better and
 *                         cost fewer I/Os; each cursor holds about one in memory
 * @param segmentMaxBytes  size bound of a segment file, after which it is immutable and a new one
 *                         starts; whole files are the unit of deletion; default 64 MiB
 * @param cacheMaxChunks   chunks the shared chunk cache holds at most; default 256 (more than the
 *                         distinct cursors of a task, so every cursor's next chunk fits); 0 disables it
 * @param cacheMaxBytes    heap bytes the chunk cache holds at most; default 32 MiB
 * @param codec            compression of new chunks; default {@link ChunkCodec#ZSTD} (chosen by
 *                         measurement, see {@link SegmentDescriptor})
 * @param compressionLevel codec level: Zstd 1..22 (default 3), LZ4 0 = fast or 1..17 = HC
 * @param pendingMaxBytes  heap bytes of closed chunks waiting for their write above which closing
 *                         one waits for the writer until they are within it again (back-pressure: a
 *                         disk slower than the events slows the task instead of filling its heap);
 *                         default 8 MiB, about a hundred chunks, some 0.2 s of writes at a million
 *                         events a second. So they take at most the bound and one chunk; a chunk
 *                         larger than the bound waits for its own write
 */
public record DiskReservoirOptions(int chunkTargetBytes, long segmentMaxBytes, int cacheMaxChunks, long cacheMaxBytes,
                                   ChunkCodec codec, int compressionLevel, long pendingMaxBytes) {
    public static final int DEFAULT_CHUNK_TARGET_BYTES = 64 * 1024;
    public static final long DEFAULT_SEGMENT_MAX_BYTES = 64L * 1024 * 1024;
    public static final int DEFAULT_CACHE_MAX_CHUNKS = 256;
    public static final long DEFAULT_CACHE_MAX_BYTES = 32L * 1024 * 1024;
    public static final int DEFAULT_ZSTD_LEVEL = 3;
    public static final long DEFAULT_PENDING_MAX_BYTES = 8L * 1024 * 1024;

    public DiskReservoirOptions {
        if (chunkTargetBytes < 1 || chunkTargetBytes > SegmentDescriptor.MAX_BODY_LENGTH / 2) {
            throw new IllegalArgumentException("chunkTargetBytes must be in [1, 512 MiB], was " + chunkTargetBytes);
        }
        if (segmentMaxBytes < SegmentDescriptor.FILE_HEADER_LENGTH + SegmentDescriptor.CHUNK_HEADER_LENGTH + 1) {
            throw new IllegalArgumentException("segmentMaxBytes must hold a file header and a chunk, was " + segmentMaxBytes);
        }
        if (cacheMaxChunks < 0 || cacheMaxChunks > 1 << 20) {
            throw new IllegalArgumentException("cacheMaxChunks must be in [0, 2^20], was " + cacheMaxChunks);
        }
        if (cacheMaxBytes < 0) {
            throw new IllegalArgumentException("cacheMaxBytes must not be negative, was " + cacheMaxBytes);
        }
        if (pendingMaxBytes < 1) {
            throw new IllegalArgumentException("pendingMaxBytes must be positive, was " + pendingMaxBytes);
        }
        if (codec == null) {
            throw new IllegalArgumentException("codec is required (ZSTD, LZ4 or NONE)");
        }
        boolean levelOk = switch (codec) {
            case ZSTD -> compressionLevel >= 1 && compressionLevel <= 22;
            case LZ4 -> compressionLevel >= 0 && compressionLevel <= 17;
            case NONE -> true;
        };
        if (!levelOk) {
            throw new IllegalArgumentException("compressionLevel " + compressionLevel + " is not valid for " + codec
                    + " (ZSTD: 1..22, LZ4: 0 = fast or 1..17 = HC)");
        }
    }

    public static DiskReservoirOptions defaults() {
        return new DiskReservoirOptions(DEFAULT_CHUNK_TARGET_BYTES, DEFAULT_SEGMENT_MAX_BYTES, DEFAULT_CACHE_MAX_CHUNKS,
                DEFAULT_CACHE_MAX_BYTES, ChunkCodec.ZSTD, DEFAULT_ZSTD_LEVEL, DEFAULT_PENDING_MAX_BYTES);
    }

    public DiskReservoirOptions withChunkTargetBytes(int bytes) {
        return new DiskReservoirOptions(bytes, segmentMaxBytes, cacheMaxChunks, cacheMaxBytes, codec, compressionLevel,
                pendingMaxBytes);
    }

    public DiskReservoirOptions withSegmentMaxBytes(long bytes) {
        return new DiskReservoirOptions(chunkTargetBytes, bytes, cacheMaxChunks, cacheMaxBytes, codec, compressionLevel,
                pendingMaxBytes);
    }

    public DiskReservoirOptions withCache(int maxChunks, long maxBytes) {
        return new DiskReservoirOptions(chunkTargetBytes, segmentMaxBytes, maxChunks, maxBytes, codec, compressionLevel,
                pendingMaxBytes);
    }

    /** Another codec, at its default level (Zstd 3, LZ4 fast). */
    public DiskReservoirOptions withCodec(ChunkCodec newCodec) {
        return new DiskReservoirOptions(chunkTargetBytes, segmentMaxBytes, cacheMaxChunks, cacheMaxBytes, newCodec,
                newCodec == ChunkCodec.ZSTD ? DEFAULT_ZSTD_LEVEL : 0, pendingMaxBytes);
    }

    public DiskReservoirOptions withCompressionLevel(int level) {
        return new DiskReservoirOptions(chunkTargetBytes, segmentMaxBytes, cacheMaxChunks, cacheMaxBytes, codec, level,
                pendingMaxBytes);
    }

    public DiskReservoirOptions withPendingMaxBytes(long bytes) {
        return new DiskReservoirOptions(chunkTargetBytes, segmentMaxBytes, cacheMaxChunks, cacheMaxBytes, codec,
                compressionLevel, bytes);
    }
}
