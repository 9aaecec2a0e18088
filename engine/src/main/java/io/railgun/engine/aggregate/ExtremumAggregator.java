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
 *
 * <p>Record: [front seq + 1, front value]: the deque's front (the extremum) copied into the key's
 * record, which the group-by node has in cache already. Replies read it there, and an expiring
 * event that is not the front (the deque pops only its front) leaves without the deque being
 * touched: on keys far more numerous than the CPU caches hold, two cache misses fewer per MIN/MAX
 * per reply and per such expiry. 0 in the first long means "not known", the deque is read: after
 * state saved without the copy was restored (the record's width then differs, so it stays zero),
 * and for an empty deque.
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

    private static final int FRONT_SEQ = 0; // seq + 1 of the deque's front; 0: not known (read the deque)
    private static final int FRONT_VALUE = 1;

    @Override
    public int width() {
        return 2;
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
            d = ExtremumDeque.arrive(d, timestamp, seq, SortableValue.encode(argument), sign);
            deques[slot] = d;
            copyFront(d, record, base + offset);
        }
    }

    @Override
    public void expire(long[] record, int base, int slot, long timestamp, long seq, EventRow row) {
        int at = base + offset;
        long front = record[at + FRONT_SEQ];
        if (front != 0 && front != seq + 1) {
            return; // not the front: the deque would keep it (seqs are unique)
        }
        long[] d = deques[slot];
        if (d != null) {
            ExtremumDeque.expire(d, timestamp, seq);
            copyFront(d, record, at);
        }
    }

    private static void copyFront(long[] d, long[] record, int at) {
        if (ExtremumDeque.isEmpty(d)) {
            record[at + FRONT_SEQ] = 0;
        } else {
            record[at + FRONT_SEQ] = ExtremumDeque.frontSeq(d) + 1;
            record[at + FRONT_VALUE] = ExtremumDeque.front(d);
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
        if (slot >= 0 && record[base + offset + FRONT_SEQ] != 0) {
            SortableValue.write(record[base + offset + FRONT_VALUE], argument.type(), reply, index);
            return;
        }
        long[] d = slot < 0 ? null : deques[slot];
        if (d == null || ExtremumDeque.isEmpty(d)) {
            reply.setNull(index);
        } else {
            SortableValue.write(ExtremumDeque.front(d), argument.type(), reply, index);
        }
    }
}
