package io.railgun.engine.aggregate;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.state.StateReader;
import io.railgun.engine.state.StateWriter;
import io.railgun.engine.task.Reply;

/**
 * {@code MIN} and {@code MAX} of LONG, DOUBLE or BOOLEAN values over a window: the monotonic deque
 * of {@link ExtremumDeque} per key. A deque of at most one entry (most keys: few events per window)
 * is held in the key's record, which the group-by node has in cache already; a longer one in a long
 * array per key, kept (not freed) when the key's slot is reset so slots reuse them. On keys far
 * more numerous than the CPU caches hold, that saves the two cache misses of reaching the array on
 * most arrivals, and replies and expiries of events that are not the front do not touch it either.
 *
 * <p>Record:
 * <pre>
 *  0  mode: 0 = the deque is in the record (0 or 1 entry); 1 = it is in the key's array
 *  1  front seq + 1; 0: none (in the record: the deque is empty; in the array: read the array)
 *  2  front value (SortableValue encoding)
 *  3  front timestamp
 * </pre>
 * The array of a key in record mode is empty: a key whose array shrinks to one entry moves back
 * into its record and clears the array (it has just read it), and {@link #reset} clears it.
 *
 * <p>External state: the key's array, saved as {@link ExtremumDeque#save} describes (empty in record
 * mode). State saved before the record held the deque (record width 0) is restored in array mode
 * ({@link #restoredWithoutRecord}).
 */
public final class ExtremumAggregator extends Aggregator {
    private static final int MODE = 0;
    private static final int FRONT_SEQ = 1;
    private static final int FRONT_VALUE = 2;
    private static final int FRONT_TS = 3;
    private static final long IN_RECORD = 0;
    private static final long IN_ARRAY = 1;

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
        return 4;
    }

    @Override
    public void ensureCapacity(int slots) {
        deques = Columns.grow(deques, slots);
    }

    @Override
    public void arrive(long[] record, int base, int slot, long timestamp, long seq, EventRow row) {
        if (!argument.eval(row)) {
            return;
        }
        long value = SortableValue.encode(argument);
        int at = base + offset;
        if (record[at + MODE] == IN_RECORD) {
            if (record[at + FRONT_SEQ] == 0) {
                setFront(record, at, timestamp, seq, value);
                return;
            }
            long t0 = record[at + FRONT_TS];
            long s0 = record[at + FRONT_SEQ] - 1;
            long v0 = record[at + FRONT_VALUE];
            boolean newer = timestamp > t0 || (timestamp == t0 && seq > s0);
            int cmp = Long.compare(v0, value) * sign;
            if (newer && cmp <= 0) {
                setFront(record, at, timestamp, seq, value); // beats (or ties) the only entry, which goes
                return;
            }
            if (!newer && cmp >= 0) {
                return; // the newer only entry is at least as good: this one can never be the extremum
            }
            // two entries: into the key's array
            long[] d = deques[slot];
            if (d == null) {
                d = ExtremumDeque.create();
            }
            d = ExtremumDeque.arrive(d, t0, s0, v0, sign);
            deques[slot] = d;
            record[at + MODE] = IN_ARRAY;
        }
        long[] d = deques[slot];
        if (d == null) {
            d = ExtremumDeque.create();
        }
        d = ExtremumDeque.arrive(d, timestamp, seq, value, sign);
        deques[slot] = d;
        copyFront(d, record, at);
    }

    @Override
    public void expire(long[] record, int base, int slot, long timestamp, long seq, EventRow row) {
        int at = base + offset;
        long front = record[at + FRONT_SEQ];
        if (front != 0 && front != seq + 1) {
            return; // not the front: the deque keeps it (seqs are unique)
        }
        if (record[at + MODE] == IN_RECORD) {
            record[at + FRONT_SEQ] = 0;
            return;
        }
        long[] d = deques[slot];
        if (d != null) {
            ExtremumDeque.expire(d, timestamp, seq);
            if (ExtremumDeque.size(d) <= 1) {
                record[at + MODE] = IN_RECORD; // what is left fits the record
                if (ExtremumDeque.isEmpty(d)) {
                    record[at + FRONT_SEQ] = 0;
                } else {
                    setFront(record, at, ExtremumDeque.frontTimestamp(d), ExtremumDeque.frontSeq(d), ExtremumDeque.front(d));
                    ExtremumDeque.clear(d);
                }
            } else {
                copyFront(d, record, at);
            }
        }
    }

    private static void setFront(long[] record, int at, long timestamp, long seq, long value) {
        record[at + FRONT_SEQ] = seq + 1;
        record[at + FRONT_VALUE] = value;
        record[at + FRONT_TS] = timestamp;
    }

    private static void copyFront(long[] d, long[] record, int at) {
        if (ExtremumDeque.isEmpty(d)) {
            record[at + FRONT_SEQ] = 0;
        } else {
            setFront(record, at, ExtremumDeque.frontTimestamp(d), ExtremumDeque.frontSeq(d), ExtremumDeque.front(d));
        }
    }

    /** The node zeroes the record (record mode, empty); the array, if the slot has one, is emptied. */
    @Override
    public void reset(int slot) {
        long[] d = deques[slot];
        if (d != null) {
            ExtremumDeque.clear(d);
        }
    }

    /** In record mode the array is empty already: not reaching it saves two cache misses per key leaving. */
    @Override
    public void resetKey(long[] record, int base, int slot) {
        if (record[base + offset + MODE] != IN_RECORD) {
            reset(slot);
        }
    }

    /** State saved without the record (width 0): the array is the deque, its front is not known. */
    @Override
    public void restoredWithoutRecord(long[] record, int at, int slot) {
        record[at + MODE] = IN_ARRAY;
        record[at + FRONT_SEQ] = 0;
    }

    @Override
    public void saveExternal(int slot, StateWriter out) {
        ExtremumDeque.save(deques[slot], out);
    }

    @Override
    public void loadExternal(long[] record, int base, int slot, StateReader in) {
        deques[slot] = ExtremumDeque.load(deques[slot], in);
    }

    @Override
    public void write(long[] record, int base, int slot, Reply reply, int index) {
        int at = base + offset;
        if (slot >= 0 && record[at + FRONT_SEQ] != 0) {
            SortableValue.write(record[at + FRONT_VALUE], argument.type(), reply, index);
            return;
        }
        long[] d = slot < 0 || record[at + MODE] == IN_RECORD ? null : deques[slot];
        if (d == null || ExtremumDeque.isEmpty(d)) {
            reply.setNull(index);
        } else {
            SortableValue.write(ExtremumDeque.front(d), argument.type(), reply, index);
        }
    }
}
