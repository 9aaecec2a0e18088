package io.railgun.node.http;

import java.io.IOException;
import java.io.InputStream;
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
     * Replaces the content with what {@code in} holds, reading at most {@code maxBytes + 1} bytes.
     *
     * @return true when the stream ended within {@code maxBytes}, false when it holds more (nothing
     *         past the extra byte is read)
     */
    boolean readFrom(InputStream in, long maxBytes) throws IOException {
        length = 0;
        long limit = maxBytes + 1;
        while (length < limit) {
            if (length == bytes.length) {
                grow(length + 1);
            }
            int want = (int) Math.min(bytes.length - length, limit - length);
            int n = in.read(bytes, length, want);
            if (n < 0) {
                return true;
            }
            length += n;
        }
        return false;
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
