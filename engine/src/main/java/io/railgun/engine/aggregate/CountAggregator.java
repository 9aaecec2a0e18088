package io.railgun.engine.aggregate;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.task.Reply;

/** {@code COUNT(*)} (argument null) and {@code COUNT(expr)} (non-null values only). */
public final class CountAggregator extends Aggregator {
    private long[] counts = new long[0];

    public CountAggregator(Evaluator argument) {
        super(argument);
    }

    @Override
    public ValueType resultType() {
        return ValueType.LONG;
    }

    @Override
    public void ensureCapacity(int slots) {
        counts = Columns.grow(counts, slots);
    }

    @Override
    public void arrive(int slot, long timestamp, long seq, EventRow row) {
        if (argument == null || argument.eval(row)) {
            counts[slot]++;
        }
    }

    @Override
    public void expire(int slot, long timestamp, long seq, EventRow row) {
        if (argument == null || argument.eval(row)) {
            counts[slot]--;
        }
    }

    @Override
    public void reset(int slot) {
        counts[slot] = 0;
    }

    @Override
    public void write(int slot, Reply reply, int index) {
        reply.setLong(index, slot < 0 ? 0 : counts[slot]);
    }
}
