package io.railgun.bench.data;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.event.EventRowWriter;
import java.util.Arrays;

/**
 * Pre-generated events held as binary rows in one byte array, so a timed replay reads them without
 * allocating or generating anything.
 */
public final class EventBatch {
    private byte[] bytes;
    private final int[] offsets;
    private final int count;

    private EventBatch(byte[] bytes, int[] offsets, int count) {
        this.bytes = bytes;
        this.offsets = offsets;
        this.count = count;
    }

    public static EventBatch generate(PaymentGenerator generator, int count) {
        EventRowWriter w = new EventRowWriter();
        byte[] bytes = new byte[count * 96];
        int[] offsets = new int[count];
        int p = 0;
        for (int i = 0; i < count; i++) {
            generator.next(w);
            int len = w.length();
            if (p + len > bytes.length) {
                long grown = Math.min(Integer.MAX_VALUE - 8L, bytes.length + (long) bytes.length / 2);
                if (grown < p + len) {
                    throw new IllegalStateException("more than 2 GiB of events: generate fewer");
                }
                bytes = Arrays.copyOf(bytes, (int) grown);
            }
            System.arraycopy(w.buffer(), 0, bytes, p, len);
            offsets[i] = p;
            p += len;
        }
        return new EventBatch(bytes, offsets, count);
    }

    public int size() {
        return count;
    }

    /** Points {@code row} at event {@code i}. */
    public EventRow wrap(EventRow row, int i) {
        return row.wrap(bytes, offsets[i]);
    }

    public long bytes() {
        return bytes.length;
    }
}
