package io.railgun.engine.state;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A growable little-endian byte buffer that a key's state is serialised into when the key leaves the
 * hot tier or is checkpointed. Reused: {@link #clear} keeps the buffer, so writing allocates only
 * when a state larger than any before it is written.
 */
public final class StateWriter {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private byte[] buffer;
    private int length;

    public StateWriter() {
        this(256);
    }

    /**
     * A writer whose buffer starts at {@code capacity} bytes: when the final size is known (a
     * checkpoint's open region, megabytes), one allocation instead of a doubling series of them.
     */
    public StateWriter(int capacity) {
        buffer = new byte[Math.max(16, capacity)];
    }

    public void clear() {
        length = 0;
    }

    public byte[] buffer() {
        return buffer;
    }

    public int length() {
        return length;
    }

    /** The bytes written: the buffer itself when it is exactly full (a presized writer), else a copy. */
    public byte[] toArray() {
        return length == buffer.length ? buffer : Arrays.copyOf(buffer, length);
    }

    public StateWriter putLong(long v) {
        ensure(8);
        LONG.set(buffer, length, v);
        length += 8;
        return this;
    }

    public StateWriter putInt(int v) {
        ensure(4);
        INT.set(buffer, length, v);
        length += 4;
        return this;
    }

    public StateWriter putLongs(long[] values, int offset, int count) {
        ensure(8 * count);
        for (int i = 0; i < count; i++) {
            LONG.set(buffer, length + 8 * i, values[offset + i]);
        }
        length += 8 * count;
        return this;
    }

    /** Bytes as they are, without a length prefix. */
    public StateWriter putRaw(byte[] bytes, int offset, int count) {
        ensure(count);
        System.arraycopy(bytes, offset, buffer, length, count);
        length += count;
        return this;
    }

    /** A length-prefixed byte string. */
    public StateWriter putBytes(byte[] bytes, int offset, int count) {
        putInt(count);
        ensure(count);
        System.arraycopy(bytes, offset, buffer, length, count);
        length += count;
        return this;
    }

    /** Reserves 4 bytes for a length to be filled in later with {@link #patchInt}; returns their position. */
    public int reserveInt() {
        ensure(4);
        int at = length;
        length += 4;
        return at;
    }

    public void patchInt(int position, int v) {
        INT.set(buffer, position, v);
    }

    private void ensure(int more) {
        if (length + more > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(length + more, buffer.length * 2));
        }
    }
}
