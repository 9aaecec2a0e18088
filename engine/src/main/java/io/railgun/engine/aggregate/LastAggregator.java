package io.railgun.engine.aggregate;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.task.Reply;

/**
 * {@code LAST(expr)}: the non-null value of the newest event, by (timestamp, seq), in the window.
 * One entry per key suffices: an older event can never become the newest again, and when the kept
 * entry expires every other non-null entry of the key has expired before it (expiry is in
 * (timestamp, seq) order), so the window then has no non-null value.
 * Record: [present flag, timestamp, seq, value] (value encoded by {@link SortableValue}); strings
 * are copied into a per-slot buffer that is reused.
 */
public final class LastAggregator extends Aggregator {
    private static final int PRESENT = 0;
    private static final int TS = 1;
    private static final int SEQ = 2;
    private static final int VALUE = 3;

    private final boolean string;
    private byte[][] strings = new byte[0][];
    private int[] stringLengths = new int[0];

    public LastAggregator(Evaluator argument) {
        super(argument);
        this.string = argument.type() == ValueType.STRING;
    }

    @Override
    public ValueType resultType() {
        return argument.type();
    }

    @Override
    public int width() {
        return 4;
    }

    @Override
    public void ensureCapacity(int slots) {
        if (string) {
            strings = Columns.grow(strings, slots);
            stringLengths = Columns.grow(stringLengths, slots);
        }
    }

    @Override
    public void arrive(long[] record, int base, int slot, long timestamp, long seq, EventRow row) {
        int at = base + offset;
        if (record[at + PRESENT] != 0
                && (record[at + TS] > timestamp || (record[at + TS] == timestamp && record[at + SEQ] > seq))) {
            return;
        }
        if (!argument.eval(row)) {
            return;
        }
        record[at + PRESENT] = 1;
        record[at + TS] = timestamp;
        record[at + SEQ] = seq;
        if (string) {
            int len = argument.stringLength;
            byte[] buf = strings[slot];
            if (buf == null || buf.length < len) {
                buf = new byte[Math.max(16, len)];
                strings[slot] = buf;
            }
            System.arraycopy(argument.stringBuffer, argument.stringOffset, buf, 0, len);
            stringLengths[slot] = len;
        } else {
            record[at + VALUE] = SortableValue.encode(argument);
        }
    }

    @Override
    public void expire(long[] record, int base, int slot, long timestamp, long seq, EventRow row) {
        int at = base + offset;
        if (record[at + PRESENT] != 0 && record[at + SEQ] == seq && record[at + TS] == timestamp) {
            record[at + PRESENT] = 0;
        }
    }

    @Override
    public void write(long[] record, int base, int slot, Reply reply, int index) {
        int at = base + offset;
        if (slot < 0 || record[at + PRESENT] == 0) {
            reply.setNull(index);
        } else if (string) {
            reply.setString(index, strings[slot], 0, stringLengths[slot]);
        } else {
            SortableValue.write(record[at + VALUE], argument.type(), reply, index);
        }
    }
}
