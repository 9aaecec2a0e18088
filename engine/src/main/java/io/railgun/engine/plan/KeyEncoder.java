package io.railgun.engine.plan;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.schema.Field;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.List;

/**
 * Encodes the group-by values of a row into a reusable byte buffer, the key of a
 * {@link io.railgun.engine.state.KeyedState}. Per field: one byte 0 (NULL — NULLs group together)
 * or 1, then for strings a 4-byte length and the UTF-8 bytes, for other types the 8-byte value
 * slot (doubles with -0.0 normalised to 0.0). The result is unambiguous for any number of fields.
 */
final class KeyEncoder {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private final int[] fields;
    private final ValueType[] types;
    private byte[] buffer = new byte[64];

    KeyEncoder(List<Field> groupBy) {
        fields = new int[groupBy.size()];
        types = new ValueType[groupBy.size()];
        for (int i = 0; i < fields.length; i++) {
            fields[i] = groupBy.get(i).index();
            types[i] = ValueType.of(groupBy.get(i).type());
        }
    }

    private KeyEncoder(int[] fields, ValueType[] types) {
        this.fields = fields;
        this.types = types;
    }

    /** An encoder of the same fields with a buffer of its own (the field arrays, never written, shared). */
    KeyEncoder copy() {
        return new KeyEncoder(fields, types);
    }

    byte[] buffer() {
        return buffer;
    }

    /** Encodes the key of {@code row}; returns its length in {@link #buffer()}. */
    int encode(EventRow row) {
        int p = 0;
        for (int i = 0; i < fields.length; i++) {
            int f = fields[i];
            ensure(p + 13);
            if (row.isNull(f)) {
                buffer[p++] = 0;
                continue;
            }
            buffer[p++] = 1;
            switch (types[i]) {
                case STRING -> {
                    int len = row.stringLength(f);
                    ensure(p + 4 + len);
                    INT.set(buffer, p, len);
                    System.arraycopy(row.buffer(), row.stringOffset(f), buffer, p + 4, len);
                    p += 4 + len;
                }
                case DOUBLE -> {
                    double d = row.getDouble(f);
                    LONG.set(buffer, p, Double.doubleToLongBits(d == 0.0 ? 0.0 : d));
                    p += 8;
                }
                default -> {
                    LONG.set(buffer, p, row.getSlot(f));
                    p += 8;
                }
            }
        }
        return p;
    }

    private void ensure(int n) {
        if (n > buffer.length) {
            buffer = java.util.Arrays.copyOf(buffer, Math.max(n, buffer.length * 2));
        }
    }
}
