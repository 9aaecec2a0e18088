package io.railgun.engine.aggregate;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.state.StateReader;
import io.railgun.engine.state.StateWriter;
import io.railgun.engine.task.Reply;

/**
 * The leaf of a task plan: one aggregate function over one argument, for every key of its group-by
 * node. Each key has one fixed-width state record of longs in its group-by node's state array (see
 * {@link StateRecord}); this aggregator owns {@link #width()} longs of it at {@link #offset()}, so all
 * the state of a key sits in one or two cache lines and can be stored as one value. Aggregators
 * whose state is not fixed-size (MIN/MAX deques) keep it in their own per-slot columns.
 *
 * <p>{@link #arrive} and {@link #expire} are each called exactly once per event of the window that
 * passes the filter, so the cost per event does not depend on the window's length. Every event is
 * expired after it arrived, and expiries come in (timestamp, seq) order. {@code record} is the state
 * array holding the key's record (one page of the key table's records, so not the same array for
 * every slot: never keep it) and {@code base} the index of the key's record in it.
 *
 * <p>Owned by one task's thread.
 */
public abstract class Aggregator {
    /** The compiled argument; null for {@code COUNT(*)}. */
    protected final Evaluator argument;
    /** Index of this aggregator's first long within a key's record. */
    protected int offset;

    protected Aggregator(Evaluator argument) {
        this.argument = argument;
    }

    /** The type of the values written by {@link #write}. */
    public abstract ValueType resultType();

    /** Number of longs this aggregator keeps in each key's record (may be 0). */
    public abstract int width();

    /** Sets where this aggregator's longs start within a record (by the group-by node's layout). */
    public final void offset(int offset) {
        this.offset = offset;
    }

    public final int offset() {
        return offset;
    }

    /** Makes room for slots in [0, slots) in this aggregator's own columns, if it has any. */
    public void ensureCapacity(int slots) {}

    /**
     * Whether this aggregator is fed events: false when its {@link #arrive}, {@link #expire} and
     * {@link #reset} do nothing ({@code COUNT(*)} reads the population the group-by node keeps), so
     * the node does not call them.
     */
    public boolean takesEvents() {
        return true;
    }

    /** An event of the key at {@code slot} entered the window. */
    public abstract void arrive(long[] record, int base, int slot, long timestamp, long seq, EventRow row);

    /** An event of the key at {@code slot}, which arrived earlier, left the window. */
    public abstract void expire(long[] record, int base, int slot, long timestamp, long seq, EventRow row);

    /**
     * The key at {@code slot} has no event left in the window: return anything kept outside the
     * record to empty (the record itself is zeroed by the group-by node).
     */
    public void reset(int slot) {}

    /**
     * As {@link #reset(int)}, when the key's last event left the window: called before the group-by
     * node zeroes the record, so an aggregator can tell from it whether there is anything outside to
     * clear (and skip reaching its own columns when not).
     */
    public void resetKey(long[] record, int base, int slot) {
        reset(slot);
    }

    /**
     * Appends what this aggregator keeps outside the record for the key at {@code slot} (deques,
     * multisets, strings) to {@code out}, when the key leaves the hot tier or is checkpointed. The
     * record's longs are saved by the key table. Aggregators with nothing outside the record write
     * nothing.
     */
    public void saveExternal(int slot, StateWriter out) {}

    /**
     * Restores into {@code slot} (reset, or never used) what {@link #saveExternal} wrote; {@code in}
     * is positioned at it and must be left after it. The key's record (this aggregator's longs at
     * {@code base + offset()} in {@code record}) is loaded already, so it can tell what was saved;
     * its longs are zero when they were saved at another width (see {@link #restoredWithoutRecord}).
     */
    public void loadExternal(long[] record, int base, int slot, StateReader in) {}

    /**
     * A key was restored from state saved when this aggregator's record had another width (an older
     * layout): its longs at {@code at} in {@code record} are zero, and {@link #loadExternal} has run.
     * Aggregators whose layout changed set their record up from their external state here.
     */
    public void restoredWithoutRecord(long[] record, int at, int slot) {}

    /** Writes the current value for the key at {@code slot}; slot -1 means the window holds none of its events. */
    public abstract void write(long[] record, int base, int slot, Reply reply, int index);
}
