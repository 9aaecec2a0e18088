package io.railgun.engine.aggregate;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.state.StateReader;
import io.railgun.engine.state.StateWriter;
import io.railgun.engine.task.Reply;

/**
 * {@code LAST(expr)}: the non-null value of the newest event, by (timestamp, seq), in the window.
 * One entry per key suffices: an older event can never become the newest again, and when the kept
 * entry expires every other non-null entry of the key has expired before it (expiry is in
 * (timestamp, seq) order), so the window then has no non-null value.
 * Record: [present flag, timestamp, seq, value] (value encoded by {@link SortableValue}); strings
 * are copied into a per-slot buffer that is reused.
 *
 * <p>External state (STRING arguments only), saved per key, little-endian: {@code int length}, then
 * that many bytes of the slot's string; length -1 when the slot never held a string. The string is
 * meaningful only while the record's present flag is set; it is emptied when the kept entry expires
 * or the slot is reset, so an absent value saves as length 0 or -1.
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
            if (string) {
                stringLengths[slot] = 0; // nothing left to save for this key
            }
        }
    }

    @Override
    public void reset(int slot) {
        if (string) {
            stringLengths[slot] = 0; // the buffer stays for the slot's next key
        }
    }

    @Override
    public void saveExternal(int slot, StateWriter out) {
        if (!string) {
            return;
        }
        byte[] buf = strings[slot];
        if (buf == null) {
            out.putInt(-1);
        } else {
            out.putBytes(buf, 0, stringLengths[slot]);
        }
    }

    @Override
    public void loadExternal(long[] record, int base, int slot, StateReader in) {
        if (!string) {
            return;
        }
        int len = in.getInt();
        if (len == -1) {
            stringLengths[slot] = 0;
            return;
        }
        in.skip(len); // rejects other negative lengths and lengths past the end
        byte[] buf = strings[slot];
        if (buf == null || buf.length < len) {
            buf = new byte[Math.max(16, len)];
            strings[slot] = buf;
        }
        System.arraycopy(in.buffer(), in.position() - len, buf, 0, len);
        stringLengths[slot] = len;
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
