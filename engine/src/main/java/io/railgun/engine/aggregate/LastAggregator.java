package io.railgun.engine.aggregate;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.task.Reply;
import java.util.Arrays;

/**
 * {@code LAST(expr)}: the non-null value of the newest event, by (timestamp, seq), in the window.
 * One entry per key suffices: an older event can never become the newest again, and when the kept
 * entry expires every other non-null entry of the key has expired before it (expiry is in
 * (timestamp, seq) order), so the window then has no non-null value. Strings are copied into a
 * per-slot buffer that is reused.
 */
public final class LastAggregator extends Aggregator {
    private final boolean string;
    private long[] ts = new long[0];
    private long[] seqs = new long[0];
    private long[] values = new long[0];
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
    public void ensureCapacity(int slots) {
        int before = seqs.length;
        ts = Columns.grow(ts, slots);
        seqs = Columns.grow(seqs, slots);
        if (seqs.length > before) {
            Arrays.fill(seqs, before, seqs.length, -1L);
        }
        if (string) {
            strings = Columns.grow(strings, slots);
            stringLengths = Columns.grow(stringLengths, slots);
        } else {
            values = Columns.grow(values, slots);
        }
    }

    @Override
    public void arrive(int slot, long timestamp, long seq, EventRow row) {
        if (seqs[slot] >= 0 && (ts[slot] > timestamp || (ts[slot] == timestamp && seqs[slot] > seq))) {
            return;
        }
        if (!argument.eval(row)) {
            return;
        }
        ts[slot] = timestamp;
        seqs[slot] = seq;
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
            values[slot] = SortableValue.encode(argument);
        }
    }

    @Override
    public void expire(int slot, long timestamp, long seq, EventRow row) {
        if (seqs[slot] == seq && ts[slot] == timestamp) {
            seqs[slot] = -1;
        }
    }

    @Override
    public void reset(int slot) {
        seqs[slot] = -1;
    }

    @Override
    public void write(int slot, Reply reply, int index) {
        if (slot < 0 || seqs[slot] < 0) {
            reply.setNull(index);
        } else if (string) {
            reply.setString(index, strings[slot], 0, stringLengths[slot]);
        } else {
            SortableValue.write(values[slot], argument.type(), reply, index);
        }
    }
}
