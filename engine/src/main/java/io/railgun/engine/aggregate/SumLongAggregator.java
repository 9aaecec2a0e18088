package io.railgun.engine.aggregate;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.task.Reply;

/** {@code SUM} of a LONG expression: exact in 64-bit two's-complement arithmetic (as Java longs). */
public final class SumLongAggregator extends Aggregator {
    private long[] sums = new long[0];
    private long[] counts = new long[0];

    public SumLongAggregator(Evaluator argument) {
        super(argument);
    }

    @Override
    public ValueType resultType() {
        return ValueType.LONG;
    }

    @Override
    public void ensureCapacity(int slots) {
        sums = Columns.grow(sums, slots);
        counts = Columns.grow(counts, slots);
    }

    @Override
    public void arrive(int slot, long timestamp, long seq, EventRow row) {
        if (argument.eval(row)) {
            sums[slot] += argument.longValue;
            counts[slot]++;
        }
    }

    @Override
    public void expire(int slot, long timestamp, long seq, EventRow row) {
        if (argument.eval(row)) {
            sums[slot] -= argument.longValue;
            counts[slot]--;
        }
    }

    @Override
    public void reset(int slot) {
        sums[slot] = 0;
        counts[slot] = 0;
    }

    @Override
    public void write(int slot, Reply reply, int index) {
        if (slot < 0 || counts[slot] == 0) {
            reply.setNull(index);
        } else {
            reply.setLong(index, sums[slot]);
        }
    }
}
