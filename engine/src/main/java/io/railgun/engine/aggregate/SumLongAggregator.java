package io.railgun.engine.aggregate;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.task.Reply;

/**
 * {@code SUM} of a LONG expression, exact in 64-bit two's-complement arithmetic (as Java longs).
 * Record: [sum, non-null count].
 */
public final class SumLongAggregator extends Aggregator {
    public SumLongAggregator(Evaluator argument) {
        super(argument);
    }

    @Override
    public ValueType resultType() {
        return ValueType.LONG;
    }

    @Override
    public int width() {
        return 2;
    }

    @Override
    public void arrive(long[] record, int base, int slot, long timestamp, long seq, EventRow row) {
        if (argument.eval(row)) {
            record[base + offset] += argument.longValue;
            record[base + offset + 1]++;
        }
    }

    @Override
    public void expire(long[] record, int base, int slot, long timestamp, long seq, EventRow row) {
        if (argument.eval(row)) {
            record[base + offset] -= argument.longValue;
            record[base + offset + 1]--;
        }
    }

    @Override
    public void write(long[] record, int base, int slot, Reply reply, int index) {
        if (slot < 0 || record[base + offset + 1] == 0) {
            reply.setNull(index);
        } else {
            reply.setLong(index, record[base + offset]);
        }
    }
}
