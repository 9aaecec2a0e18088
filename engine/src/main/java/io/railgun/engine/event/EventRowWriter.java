package io.railgun.engine.event;

import static io.railgun.engine.event.EventRowDescriptor.BITMAP_OFFSET;
import static io.railgun.engine.event.EventRowDescriptor.FIELD_COUNT_OFFSET;
import static io.railgun.engine.event.EventRowDescriptor.FORMAT_VERSION;
import static io.railgun.engine.event.EventRowDescriptor.INT;
import static io.railgun.engine.event.EventRowDescriptor.LENGTH_OFFSET;
import static io.railgun.engine.event.EventRowDescriptor.LONG;
import static io.railgun.engine.event.EventRowDescriptor.SCHEMA_ID_OFFSET;
import static io.railgun.engine.event.EventRowDescriptor.SHORT;
import static io.railgun.engine.event.EventRowDescriptor.SLOT_SIZE;
import static io.railgun.engine.event.EventRowDescriptor.VERSION_OFFSET;

import io.railgun.engine.schema.Schema;
import java.util.Arrays;

/**
 * Builds binary event rows (layout in {@link EventRowDescriptor}) into a reusable, growing buffer.
 * Usage: {@link #begin}, one setter per non-null field (fields not set are null), {@link #finish};
 * then read the row through {@link #row()} or copy {@link #buffer()}[0, length). Not thread-safe.
 */
public final class EventRowWriter {
    private byte[] buffer = new byte[256];
    private int fieldCount;
    private int slotsOffset;
    private int end;
    private final EventRow row = new EventRow();

    /** Starts a row of {@code schema}, all fields null. */
    public EventRowWriter begin(Schema schema) {
        fieldCount = schema.size();
        slotsOffset = EventRowDescriptor.slotsOffset(fieldCount);
        end = EventRowDescriptor.fixedSize(fieldCount);
        ensure(end);
        Arrays.fill(buffer, 0, end, (byte) 0);
        Arrays.fill(buffer, BITMAP_OFFSET, slotsOffset, (byte) 0xFF);
        INT.set(buffer, SCHEMA_ID_OFFSET, schema.id());
        SHORT.set(buffer, FIELD_COUNT_OFFSET, (short) fieldCount);
        SHORT.set(buffer, VERSION_OFFSET, (short) FORMAT_VERSION);
        return this;
    }

    public EventRowWriter setLong(int field, long value) {
        markSet(field);
        LONG.set(buffer, slotsOffset + field * SLOT_SIZE, value);
        return this;
    }

    public EventRowWriter setDouble(int field, double value) {
        return setLong(field, Double.doubleToRawLongBits(value));
    }

    public EventRowWriter setBoolean(int field, boolean value) {
        return setLong(field, value ? 1L : 0L);
    }

    /** Sets a STRING field from UTF-8 bytes. */
    public EventRowWriter setUtf8(int field, byte[] src, int srcOffset, int length) {
        markSet(field);
        ensure(end + length);
        System.arraycopy(src, srcOffset, buffer, end, length);
        INT.set(buffer, slotsOffset + field * SLOT_SIZE, end);
        INT.set(buffer, slotsOffset + field * SLOT_SIZE + 4, length);
        end += length;
        return this;
    }

    /** Sets a STRING field, encoding it to UTF-8 in place (no allocation). */
    public EventRowWriter setString(int field, CharSequence value) {
        markSet(field);
        int start = end;
        int n = value.length();
        ensure(end + 3 * n + 1);
        int p = end;
        for (int i = 0; i < n; i++) {
            char c = value.charAt(i);
            if (c < 0x80) {
                buffer[p++] = (byte) c;
            } else if (c < 0x800) {
                buffer[p++] = (byte) (0xC0 | (c >> 6));
                buffer[p++] = (byte) (0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(value.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, value.charAt(++i));
                buffer[p++] = (byte) (0xF0 | (cp >> 18));
                buffer[p++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
                buffer[p++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
                buffer[p++] = (byte) (0x80 | (cp & 0x3F));
            } else if (Character.isSurrogate(c)) {
                buffer[p++] = (byte) '?'; // unpaired surrogate: not valid UTF-8
            } else {
                buffer[p++] = (byte) (0xE0 | (c >> 12));
                buffer[p++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                buffer[p++] = (byte) (0x80 | (c & 0x3F));
            }
        }
        end = p;
        INT.set(buffer, slotsOffset + field * SLOT_SIZE, start);
        INT.set(buffer, slotsOffset + field * SLOT_SIZE + 4, p - start);
        return this;
    }

    public EventRowWriter setNull(int field) {
        buffer[BITMAP_OFFSET + (field >>> 3)] |= (byte) (1 << (field & 7));
        LONG.set(buffer, slotsOffset + field * SLOT_SIZE, 0L);
        return this;
    }

    /** Completes the row; returns its length. */
    public int finish() {
        INT.set(buffer, LENGTH_OFFSET, end);
        return end;
    }

    /** The finished row, read through a flyweight owned by this writer. */
    public EventRow row() {
        return row.wrap(buffer, 0);
    }

    public byte[] buffer() {
        return buffer;
    }

    public int length() {
        return end;
    }

    private void markSet(int field) {
        if (field < 0 || field >= fieldCount) {
            throw new IndexOutOfBoundsException("field " + field + " of " + fieldCount);
        }
        buffer[BITMAP_OFFSET + (field >>> 3)] &= (byte) ~(1 << (field & 7));
    }

    private void ensure(int capacity) {
        if (capacity > buffer.length) {
            buffer = Arrays.copyOf(buffer, Math.max(capacity, buffer.length * 2));
        }
    }
}
