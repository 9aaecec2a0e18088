package io.railgun.engine.event;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Binary layout of one event row, format version 1. All numbers little-endian.
 *
 * <pre>
 *  offset                 size        content
 *  0                      4           total row length in bytes (header included)
 *  4                      4           schema id the row was written with
 *  8                      2           field count n of that schema
 *  10                     2           format version (1)
 *  12                     ceil(n/8)   null bitmap: bit i set = field i is null
 *  F = 12 + ceil(n/8)     8 * n       fixed slots, one per field:
 *                                       long / timestamp: the value
 *                                       double: IEEE-754 bits
 *                                       boolean: 0 or 1
 *                                       string: int offset of its UTF-8 bytes from the row start,
 *                                               then int length in bytes
 *  F + 8n                 ...         variable area: UTF-8 bytes of the strings
 * </pre>
 *
 * A field index at or past the row's field count reads as null: this is how rows written with an
 * older schema stay readable after nullable fields are appended.
 */
public final class EventRowDescriptor {
    public static final int FORMAT_VERSION = 1;
    public static final int LENGTH_OFFSET = 0;
    public static final int SCHEMA_ID_OFFSET = 4;
    public static final int FIELD_COUNT_OFFSET = 8;
    public static final int VERSION_OFFSET = 10;
    public static final int BITMAP_OFFSET = 12;
    public static final int SLOT_SIZE = 8;

    static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);

    private EventRowDescriptor() {}

    /** Offset of the first fixed slot for a row of {@code fieldCount} fields. */
    public static int slotsOffset(int fieldCount) {
        return BITMAP_OFFSET + ((fieldCount + 7) >>> 3);
    }

    /** Bytes taken by header, bitmap and fixed slots (the row size when it has no string bytes). */
    public static int fixedSize(int fieldCount) {
        return slotsOffset(fieldCount) + SLOT_SIZE * fieldCount;
    }
}
