package io.railgun.node.http;

import io.netty.buffer.ByteBuf;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * A reusable, growing byte array: request bodies are read into it and responses written to it, so a
 * pooled instance serves many requests without allocating. Not thread-safe: one request at a time.
 */
final class GrowableBytes extends OutputStream {
    private byte[] bytes;
    private int length;

    GrowableBytes(int initialCapacity) {
        bytes = new byte[Math.max(16, initialCapacity)];
    }

    /** Forgets the content, keeps the capacity. */
    GrowableBytes reset() {
        length = 0;
        return this;
    }

    byte[] array() {
        return bytes;
    }

    int length() {
        return length;
    }

    /**
     * Replaces the content with {@code buf}'s readable bytes, without moving its reader index.
     *
     * @return true when they are at most {@code maxBytes}, false (and the content empty) when more
     */
    boolean readFrom(ByteBuf buf, long maxBytes) {
        length = 0;
        int n = buf.readableBytes();
        if (n > maxBytes) {
            return false;
        }
        if (n > bytes.length) {
            grow(n);
        }
        buf.getBytes(buf.readerIndex(), bytes, 0, n);
        length = n;
        return true;
    }

    @Override
    public void write(int b) {
        if (length == bytes.length) {
            grow(length + 1);
        }
        bytes[length++] = (byte) b;
    }

    @Override
    public void write(byte[] src, int offset, int count) {
        if (length + count > bytes.length) {
            grow(length + count);
        }
        System.arraycopy(src, offset, bytes, length, count);
        length += count;
    }

    private void grow(int minCapacity) {
        if (minCapacity < 0) {
            throw new OutOfMemoryError("buffer larger than 2 GiB");
        }
        int doubled = bytes.length > Integer.MAX_VALUE / 2 ? Integer.MAX_VALUE - 8 : bytes.length * 2;
        bytes = Arrays.copyOf(bytes, Math.max(minCapacity, doubled));
    }
}
