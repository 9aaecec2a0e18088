package io.railgun.engine.reservoir.disk;

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdException;
import net.jpountz.lz4.LZ4Compressor;
import net.jpountz.lz4.LZ4Exception;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4SafeDecompressor;

/**
 * How a chunk body is compressed; its {@link #id()} is stored in every chunk header
 * ({@link SegmentDescriptor}), so one reservoir may hold chunks of several codecs. Compressors and
 * decompressors hold native state: each is owned by one thread at a time and must be closed.
 */
public enum ChunkCodec {
    /** Stored as is (tests, debugging). */
    NONE(0) {
        @Override
        public Compressor newCompressor(int level) {
            return new Compressor() {
                @Override
                public int maxCompressedLength(int length) {
                    return length;
                }

                @Override
                public int compress(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
                    System.arraycopy(src, srcOffset, dst, dstOffset, length);
                    return length;
                }
            };
        }

        @Override
        public Decompressor newDecompressor() {
            return (src, srcOffset, srcLength, dst, dstOffset, dstLength) -> {
                if (srcLength != dstLength) {
                    throw new ReservoirFormatException("stored chunk of " + srcLength + " bytes, expected " + dstLength);
                }
                System.arraycopy(src, srcOffset, dst, dstOffset, dstLength);
            };
        }
    },

    /** LZ4 block format (lz4-java, native when available): fastest decompression, larger files. */
    LZ4(1) {
        @Override
        public Compressor newCompressor(int level) {
            LZ4Factory factory = LZ4Factory.fastestInstance();
            LZ4Compressor c = level <= 0 ? factory.fastCompressor() : factory.highCompressor(level);
            return new Compressor() {
                @Override
                public int maxCompressedLength(int length) {
                    return c.maxCompressedLength(length);
                }

                @Override
                public int compress(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
                    return c.compress(src, srcOffset, length, dst, dstOffset, dst.length - dstOffset);
                }
            };
        }

        @Override
        public Decompressor newDecompressor() {
            LZ4SafeDecompressor d = LZ4Factory.fastestInstance().safeDecompressor();
            return (src, srcOffset, srcLength, dst, dstOffset, dstLength) -> {
                int n;
                try {
                    n = d.decompress(src, srcOffset, srcLength, dst, dstOffset, dstLength);
                } catch (LZ4Exception e) {
                    throw new ReservoirFormatException("LZ4 payload does not decompress: " + e.getMessage());
                }
                if (n != dstLength) {
                    throw new ReservoirFormatException("LZ4 payload decompressed to " + n + " bytes, expected " + dstLength);
                }
            };
        }
    },

    /** Zstandard frames (zstd-jni): the default, about 1.5x smaller than LZ4 on event rows. */
    ZSTD(2) {
        @Override
        public Compressor newCompressor(int level) {
            ZstdCompressCtx ctx = new ZstdCompressCtx();
            ctx.setLevel(level);
            ctx.setChecksum(false); // the frame has its own CRC32C
            ctx.setContentSize(true);
            return new Compressor() {
                @Override
                public int maxCompressedLength(int length) {
                    return (int) com.github.luben.zstd.Zstd.compressBound(length);
                }

                @Override
                public int compress(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset) {
                    return ctx.compressByteArray(dst, dstOffset, dst.length - dstOffset, src, srcOffset, length);
                }

                @Override
                public void close() {
                    ctx.close();
                }
            };
        }

        @Override
        public Decompressor newDecompressor() {
            ZstdDecompressCtx ctx = new ZstdDecompressCtx();
            return new Decompressor() {
                @Override
                public void decompress(byte[] src, int srcOffset, int srcLength, byte[] dst, int dstOffset, int dstLength) {
                    int n;
                    try {
                        n = ctx.decompressByteArray(dst, dstOffset, dstLength, src, srcOffset, srcLength);
                    } catch (ZstdException e) {
                        throw new ReservoirFormatException("Zstd payload does not decompress: " + e.getMessage());
                    }
                    if (n != dstLength) {
                        throw new ReservoirFormatException("Zstd payload decompressed to " + n + " bytes, expected " + dstLength);
                    }
                }

                @Override
                public void close() {
                    ctx.close();
                }
            };
        }
    };

    private final int id;

    ChunkCodec(int id) {
        this.id = id;
    }

    /** The codec byte stored in chunk headers. */
    public int id() {
        return id;
    }

    /** The codec with that id, or null when unknown. */
    public static ChunkCodec byId(int id) {
        for (ChunkCodec c : values()) {
            if (c.id == id) {
                return c;
            }
        }
        return null;
    }

    /**
     * A compressor at {@code level} (Zstd: 1..22, 3 by default; LZ4: 0 = fast, 1..17 = HC;
     * ignored by NONE).
     */
    public abstract Compressor newCompressor(int level);

    public abstract Decompressor newDecompressor();

    /** Compresses whole bodies into caller buffers. One thread at a time. */
    public interface Compressor extends AutoCloseable {
        /** Bytes of {@code dst} that a body of {@code length} bytes may need. */
        int maxCompressedLength(int length);

        /** Compresses {@code src}[srcOffset, +length) into {@code dst} at {@code dstOffset}; returns the size. */
        int compress(byte[] src, int srcOffset, int length, byte[] dst, int dstOffset);

        @Override
        default void close() {}
    }

    /** Decompresses whole payloads of a known body length. One thread at a time. */
    public interface Decompressor extends AutoCloseable {
        /**
         * Decompresses exactly {@code dstLength} bytes into {@code dst}.
         *
         * @throws ReservoirFormatException when the payload is not a valid one of that length
         */
        void decompress(byte[] src, int srcOffset, int srcLength, byte[] dst, int dstOffset, int dstLength);

        @Override
        default void close() {}
    }
}
