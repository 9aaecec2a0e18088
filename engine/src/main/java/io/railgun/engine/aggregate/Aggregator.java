package io.railgun.engine.aggregate;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.task.Reply;

/**
 * The leaf of a task plan: one aggregate function over one argument, for every key of its group-by
 * node. State lives in primitive columns indexed by the key's slot (see
 * {@link io.railgun.engine.state.KeyedState}); {@link #arrive} and {@link #expire} are each called
 * exactly once per event of the window that passes the filter, so the cost per event does not depend
 * on the window's length. Every event is expired after it arrived and in (timestamp, seq) order.
 *
 * <p>Owned by one task's thread.
 */
public abstract class Aggregator {
    /** The compiled argument; null for {@code COUNT(*)}. */
    protected final Evaluator argument;

    protected Aggregator(Evaluator argument) {
        this.argument = argument;
    }

    /** The type of the values written by {@link #write}. */
    public abstract ValueType resultType();

    /** Makes room for slots in [0, slots). */
    public abstract void ensureCapacity(int slots);

    /** An event of key {@code slot} entered the window. */
    public abstract void arrive(int slot, long timestamp, long seq, EventRow row);

    /** An event of key {@code slot}, which arrived earlier, left the window. */
    public abstract void expire(int slot, long timestamp, long seq, EventRow row);

    /** The key of {@code slot} has no event left in the window; return its state to empty. */
    public abstract void reset(int slot);

    /** Writes the current value of key {@code slot} (or of an empty window when slot is -1). */
    public abstract void write(int slot, Reply reply, int index);
}
