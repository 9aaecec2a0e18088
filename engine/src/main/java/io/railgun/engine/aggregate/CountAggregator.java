package io.railgun.engine.aggregate;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.task.Reply;

/**
 * {@code COUNT(*)} (argument null: the key's population, no state of its own) and
 * {@code COUNT(expr)} (non-null values: one long).
 */
public final class CountAggregator extends Aggregator {
    public CountAggregator(Evaluator argument) {
        super(argument);
    }

    @Override
    public ValueType resultType() {
        return ValueType.LONG;
    }

    @Override
    public int width() {
        return argument == null ? 0 : 1;
    }

    @Override
    public boolean takesEvents() {
        return argument != null;
    }

    @Override
    public void arrive(long[] record, int base, int slot, long timestamp, long seq, EventRow row) {
        if (argument != null && argument.eval(row)) {
            record[base + offset]++;
        }
    }

    @Override
    public void expire(long[] record, int base, int slot, long timestamp, long seq, EventRow row) {
        if (argument != null && argument.eval(row)) {
            record[base + offset]--;
        }
    }

    @Override
    public void write(long[] record, int base, int slot, Reply reply, int index) {
        if (slot < 0) {
            reply.setLong(index, 0);
        } else {
            reply.setLong(index, record[base + (argument == null ? StateRecord.POPULATION : offset)]);
        }
    }
}
