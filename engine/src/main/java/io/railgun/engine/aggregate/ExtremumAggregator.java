package io.railgun.engine.aggregate;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.state.StateReader;
import io.railgun.engine.state.StateWriter;
import io.railgun.engine.task.Reply;

/**
 * {@code MIN} and {@code MAX} of LONG, DOUBLE or BOOLEAN values: one {@link ExtremumDeque} (a long
 * array) per key, kept (cleared, not freed) when the key's slot is reset so slots reuse them.
 * External state: the key's deque, saved as {@link ExtremumDeque#save} describes.
 */
public final class ExtremumAggregator extends Aggregator {
    private final int sign;
    private long[][] deques = new long[0][];

    /** @param max true for MAX, false for MIN */
    public ExtremumAggregator(boolean max, Evaluator argument) {
        super(argument);
        this.sign = max ? 1 : -1;
    }

    @Override
    public ValueType resultType() {
        return argument.type();
    }

    @Override
    public int width() {
        return 0;
    }

    @Override
    public void ensureCapacity(int slots) {
        deques = Columns.grow(deques, slots);
    }

    @Override
    public void arrive(long[] record, int base, int slot, long timestamp, long seq, EventRow row) {
        if (argument.eval(row)) {
            long[] d = deques[slot];
            if (d == null) {
                d = ExtremumDeque.create();
            }
            deques[slot] = ExtremumDeque.arrive(d, timestamp, seq, SortableValue.encode(argument), sign);
        }
    }

    @Override
    public void expire(long[] record, int base, int slot, long timestamp, long seq, EventRow row) {
        long[] d = deques[slot];
        if (d != null) {
            ExtremumDeque.expire(d, timestamp, seq);
        }
    }

    @Override
    public void reset(int slot) {
        if (deques[slot] != null) {
            ExtremumDeque.clear(deques[slot]);
        }
    }

    @Override
    public void saveExternal(int slot, StateWriter out) {
        ExtremumDeque.save(deques[slot], out);
    }

    @Override
    public void loadExternal(int slot, StateReader in) {
        deques[slot] = ExtremumDeque.load(deques[slot], in);
    }

    @Override
    public void write(long[] record, int base, int slot, Reply reply, int index) {
        long[] d = slot < 0 ? null : deques[slot];
        if (d == null || ExtremumDeque.isEmpty(d)) {
            reply.setNull(index);
        } else {
            SortableValue.write(ExtremumDeque.front(d), argument.type(), reply, index);
        }
    }
}
