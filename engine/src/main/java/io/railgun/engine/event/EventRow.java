package io.railgun.engine.event;

import static io.railgun.engine.event.EventRowDescriptor.BITMAP_OFFSET;
import static io.railgun.engine.event.EventRowDescriptor.FIELD_COUNT_OFFSET;
import static io.railgun.engine.event.EventRowDescriptor.INT;
import static io.railgun.engine.event.EventRowDescriptor.LENGTH_OFFSET;
import static io.railgun.engine.event.EventRowDescriptor.LONG;
import static io.railgun.engine.event.EventRowDescriptor.SCHEMA_ID_OFFSET;
import static io.railgun.engine.event.EventRowDescriptor.SHORT;
import static io.railgun.engine.event.EventRowDescriptor.SLOT_SIZE;

import java.nio.charset.StandardCharsets;

/**
 * A reusable read-only flyweight over one binary event row (layout in {@link EventRowDescriptor}).
 * {@link #wrap} points it at a row without copying; the accessors read fields in place, so the hot
 * path reads events without allocating. Not thread-safe: one flyweight per thread.
 */
public final class EventRow {
    private byte[] buffer;
    private int offset;
    private int fieldCount;
    private int slotsOffset;

    /** Points this flyweight at the row starting at {@code offset} in {@code buffer}. */
    public EventRow wrap(byte[] buffer, int offset) {
        this.buffer = buffer;
        this.offset = offset;
        this.fieldCount = (short) SHORT.get(buffer, offset + FIELD_COUNT_OFFSET);
        this.slotsOffset = offset + EventRowDescriptor.slotsOffset(fieldCount);
        return this;
    }

    public byte[] buffer() {
        return buffer;
    }

    public int offset() {
        return offset;
    }

    /** Total bytes of this row. */
    public int length() {
        return (int) INT.get(buffer, offset + LENGTH_OFFSET);
    }

    public int schemaId() {
        return (int) INT.get(buffer, offset + SCHEMA_ID_OFFSET);
    }

    /** Number of fields the row was written with (fields past it read as null). */
    public int fieldCount() {
        return fieldCount;
    }

    public boolean isNull(int field) {
        if (field >= fieldCount) {
            return true;
        }
        return (buffer[offset + BITMAP_OFFSET + (field >>> 3)] & (1 << (field & 7))) != 0;
    }

    /** The value of a LONG or TIMESTAMP field; undefined when null. */
    public long getLong(int field) {
        return (long) LONG.get(buffer, slotsOffset + field * SLOT_SIZE);
    }

    /** The value of a DOUBLE field; undefined when null. */
    public double getDouble(int field) {
        return Double.longBitsToDouble((long) LONG.get(buffer, slotsOffset + field * SLOT_SIZE));
    }

    /** The value of a BOOLEAN field; undefined when null. */
    public boolean getBoolean(int field) {
        return (long) LONG.get(buffer, slotsOffset + field * SLOT_SIZE) != 0;
    }

    /** The raw 8-byte slot of a field (the value bits of numbers and booleans). */
    public long getSlot(int field) {
        return (long) LONG.get(buffer, slotsOffset + field * SLOT_SIZE);
    }

    /** Absolute offset in {@link #buffer()} of a STRING field's UTF-8 bytes. */
    public int stringOffset(int field) {
        return offset + (int) INT.get(buffer, slotsOffset + field * SLOT_SIZE);
    }

    /** Length in bytes of a STRING field's UTF-8 bytes. */
    public int stringLength(int field) {
        return (int) INT.get(buffer, slotsOffset + field * SLOT_SIZE + 4);
    }

    /** A STRING field as a Java string (allocates: for replies and tests, not the hot path). */
    public String getString(int field) {
        if (isNull(field)) {
            return null;
        }
        return new String(buffer, stringOffset(field), stringLength(field), StandardCharsets.UTF_8);
    }
}
