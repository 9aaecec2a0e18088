package io.railgun.engine.state;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Reads what a {@link StateWriter} wrote, from a region of a byte array. Reusable: {@link #reset}. */
public final class StateReader {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private byte[] buffer;
    private int position;
    private int limit;

    public StateReader reset(byte[] buffer, int offset, int length) {
        this.buffer = buffer;
        this.position = offset;
        this.limit = offset + length;
        return this;
    }

    public boolean hasRemaining() {
        return position < limit;
    }

    /** Bytes left to read. */
    public int remaining() {
        return limit - position;
    }

    public int position() {
        return position;
    }

    public byte[] buffer() {
        return buffer;
    }

    public long getLong() {
        check(8);
        long v = (long) LONG.get(buffer, position);
        position += 8;
        return v;
    }

    public int getInt() {
        check(4);
        int v = (int) INT.get(buffer, position);
        position += 4;
        return v;
    }

    public void getLongs(long[] into, int offset, int count) {
        check(8 * count);
        for (int i = 0; i < count; i++) {
            into[offset + i] = (long) LONG.get(buffer, position + 8 * i);
        }
        position += 8 * count;
    }

    /**
     * Reads the length of a byte string written by {@link StateWriter#putBytes} and skips over it;
     * its bytes are at {@code position() - length} in {@link #buffer()}.
     */
    public int getBytesLength() {
        int n = getInt();
        check(n);
        position += n;
        return n;
    }

    public void skip(int n) {
        check(n);
        position += n;
    }

    private void check(int n) {
        if (n < 0 || position + n > limit) {
            throw new IllegalStateException("corrupt state value: read past its end");
        }
    }
}
