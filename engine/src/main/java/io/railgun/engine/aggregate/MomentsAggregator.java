package io.railgun.engine.aggregate;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.query.AggregateFunction;
import io.railgun.engine.state.StateReader;
import io.railgun.engine.state.StateWriter;
import io.railgun.engine.task.Reply;
import java.math.BigInteger;

/**
 * {@code SUM} of doubles, {@code AVG}, {@code VAR_POP/VAR_SAMP}, {@code STDDEV_POP/STDDEV_SAMP}, kept
 * exactly: each value is converted to an exact fixed-point integer ({@link FixedPoint}) and the
 * sums are fixed-width integers ({@link WideInteger}): S1 in 320 bits, S2 in 512 bits. Adding and
 * removing never rounds, so nothing drifts however long the window lives, and results are rounded
 * when read: SUM = S1 rounded once to the nearest double; AVG = S1 / n, VAR_POP = (n S2 - S1^2) / n^2
 * and VAR_SAMP = (n S2 - S1^2) / (n (n - 1)) with the numerator exact, rounded once, then divided
 * in doubles (within an ulp or two of the exact quotient). A window of equal values has variance
 * exactly 0.
 *
 * <p>Doubles the fixed point cannot hold (bits below 2^-96, or magnitude from 2^126) are summed
 * exactly too, in arbitrary precision outside the record ({@link WideMoments}, one per key slot
 * holding such values, allocated when the key gets its first and dropped when its last leaves):
 * a key holding any is read by combining both parts exactly and rounding once. A result beyond
 * the double range (a SUM of values near {@code Double.MAX_VALUE}) is NULL, as for expressions.
 *
 * <p>Record: [n, nWide, S1 (5 limbs)] then, for the variances, [S2 (8 limbs)]; nWide counts the
 * values held in the key's {@link WideMoments}. External state, saved per key only while nWide is
 * not 0 (the loader reads the record's nWide to know): S1, then for the variances S2, each a
 * length-prefixed byte string holding the two's-complement big-endian integer
 * ({@link BigInteger#toByteArray()}).
 */
public final class MomentsAggregator extends Aggregator {
    private static final int N = 0;
    private static final int N_WIDE = 1;
    private static final int S1 = 2;
    private static final int S1_LIMBS = 5;
    private static final int S2 = S1 + S1_LIMBS;
    private static final int S2_LIMBS = 8;

    private final AggregateFunction function;
    private final boolean squares;
    private final boolean longArgument;
    private final int width;
    // per key slot: the sums of its values outside the fixed-point range; null while it holds none
    // (the array too, until a key gets one)
    private WideMoments[] wide;
    private int slots;
    // scratch, reused: one task thread
    private final long[] magnitude = new long[S1_LIMBS];
    private final long[] square = new long[2 * S1_LIMBS];
    private final long[] scaled = new long[S2_LIMBS + 1];
    private final long[] count = new long[1];

    public MomentsAggregator(AggregateFunction function, Evaluator argument) {
        super(argument);
        this.function = function;
        if (!squares(function) && function != AggregateFunction.SUM && function != AggregateFunction.AVG) {
            throw new IllegalArgumentException("not a moments aggregate: " + function);
        }
        this.squares = squares(function);
        this.longArgument = argument.type() == ValueType.LONG;
        this.width = squares ? S2 + S2_LIMBS : S2;
    }

    @Override
    public ValueType resultType() {
        return ValueType.DOUBLE;
    }

    @Override
    public int width() {
        return width;
    }

    @Override
    public void ensureCapacity(int slots) {
        this.slots = Math.max(this.slots, slots);
        if (wide != null) {
            wide = Columns.grow(wide, slots);
        }
    }

    @Override
    public void arrive(long[] record, int base, int slot, long timestamp, long seq, EventRow row) {
        if (argument.eval(row) && finite()) {
            accumulate(record, base + offset, slot, false);
        }
    }

    /**
     * Whether the argument's value can be summed: NaN and the infinities (which the node refuses at
     * its API, but a row written through the engine's own API may hold) are ignored like NULL, on
     * arrival and expiry alike, so the sums stay exact and in step.
     */
    private boolean finite() {
        return longArgument || Double.isFinite(argument.doubleValue);
    }

    @Override
    public void expire(long[] record, int base, int slot, long timestamp, long seq, EventRow row) {
        if (argument.eval(row) && finite()) {
            accumulate(record, base + offset, slot, true);
        }
    }

    private void accumulate(long[] record, int at, int slot, boolean remove) {
        record[at + N] += remove ? -1 : 1;
        // the value as m * 2^shift in units of 2^-96: added to the limbs it spans, not as four limbs
        long m;
        int shift;
        boolean negative;
        if (longArgument) {
            long v = argument.longValue;
            negative = v < 0;
            m = negative ? -v : v; // Long.MIN_VALUE stays 2^63, read unsigned: its magnitude
            shift = FixedPoint.SCALE_BITS;
        } else {
            long parts = FixedPoint.split(argument.doubleValue);
            if (parts == FixedPoint.NOT_EXACT) {
                accumulateWide(record, at, slot, remove);
                return;
            }
            m = FixedPoint.mantissa(parts);
            shift = FixedPoint.shift(parts);
            negative = FixedPoint.negative(parts);
        }
        if (m == 0) {
            return;
        }
        WideInteger.addShifted(record, at + S1, S1_LIMBS, m, shift, remove != negative);
        if (squares) {
            WideInteger.addShifted128(record, at + S2, S2_LIMBS, m * m, Math.unsignedMultiplyHigh(m, m), 2 * shift, remove);
        }
    }

    /** A value outside the fixed-point range: into the key's wide sums, made on its first and dropped after its last. */
    private void accumulateWide(long[] record, int at, int slot, boolean remove) {
        WideMoments sums = wideColumn(slot)[slot];
        if (sums == null) {
            sums = wide[slot] = new WideMoments();
        }
        sums.add(argument.doubleValue, squares, remove);
        record[at + N_WIDE] += remove ? -1 : 1;
        if (record[at + N_WIDE] == 0) {
            wide[slot] = null; // its sums are exactly 0 again
        }
    }

    /** The column of wide sums, made (for every slot) when a key first needs it. */
    private WideMoments[] wideColumn(int slot) {
        wide = Columns.grow(wide == null ? new WideMoments[0] : wide, Math.max(slots, slot + 1));
        return wide;
    }

    /** A key emptied by expiry holds no wide sums (its count is 0): the column is not reached. */
    @Override
    public void resetKey(long[] record, int base, int slot) {
        if (record[base + offset + N_WIDE] != 0) {
            reset(slot);
        }
    }

    @Override
    public void reset(int slot) {
        if (wide != null && slot < wide.length) {
            wide[slot] = null;
        }
    }

    @Override
    public void saveExternal(int slot, StateWriter out) {
        WideMoments sums = wide == null || slot >= wide.length ? null : wide[slot];
        if (sums == null) {
            return;
        }
        byte[] s1 = sums.s1.toByteArray();
        out.putBytes(s1, 0, s1.length);
        if (squares) {
            byte[] s2 = sums.s2.toByteArray();
            out.putBytes(s2, 0, s2.length);
        }
    }

    @Override
    public void loadExternal(long[] record, int base, int slot, StateReader in) {
        if (record[base + offset + N_WIDE] == 0) {
            return;
        }
        WideMoments sums = new WideMoments();
        sums.s1 = readInteger(in);
        if (squares) {
            sums.s2 = readInteger(in);
        }
        wideColumn(slot)[slot] = sums;
    }

    private static BigInteger readInteger(StateReader in) {
        int length = in.getBytesLength();
        if (length == 0) {
            throw new IllegalStateException("corrupt state value: an exact sum of no bytes");
        }
        return new BigInteger(in.buffer(), in.position() - length, length);
    }

    /**
     * What reads this aggregator's state as {@code f}: itself for its own function, else a view
     * (width 0, never fed events) for another function this state answers. SUM and AVG share one
     * state, as do the four variances (which keep S2 besides): a statement asking for SUM, AVG and
     * STDDEV of one value accumulates it twice per event instead of three times, in fewer longs.
     *
     * @throws IllegalArgumentException when this state cannot answer {@code f} (a variance of a
     *                                  state without squares)
     */
    public Aggregator reader(AggregateFunction f) {
        if (f == function) {
            return this;
        }
        if (!squares(f) && f != AggregateFunction.SUM && f != AggregateFunction.AVG || squares(f) != squares) {
            throw new IllegalArgumentException(function + " state cannot be read as " + f);
        }
        return new View(this, f);
    }

    /** Whether {@code f} is one of the variance family (their state also sums squares). */
    public static boolean squares(AggregateFunction f) {
        return switch (f) {
            case VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP -> true;
            default -> false;
        };
    }

    /** Another function's reading of a shared state: writes only; the state's owner is fed the events. */
    private static final class View extends Aggregator {
        private final MomentsAggregator state;
        private final AggregateFunction function;

        View(MomentsAggregator state, AggregateFunction function) {
            super(state.argument);
            this.state = state;
            this.function = function;
        }

        @Override
        public ValueType resultType() {
            return ValueType.DOUBLE;
        }

        @Override
        public int width() {
            return 0;
        }

        @Override
        public void arrive(long[] record, int base, int slot, long timestamp, long seq, EventRow row) {
            throw new IllegalStateException("a view of " + state.function + " state is not fed events");
        }

        @Override
        public void expire(long[] record, int base, int slot, long timestamp, long seq, EventRow row) {
            throw new IllegalStateException("a view of " + state.function + " state is not fed events");
        }

        @Override
        public void write(long[] record, int base, int slot, Reply reply, int index) {
            state.write(function, record, base, slot, reply, index);
        }
    }

    @Override
    public void write(long[] record, int base, int slot, Reply reply, int index) {
        write(function, record, base, slot, reply, index);
    }

    private void write(AggregateFunction function, long[] record, int base, int slot, Reply reply, int index) {
        int at = base + offset;
        long n = slot < 0 ? 0 : record[at + N];
        boolean sample = function == AggregateFunction.VAR_SAMP || function == AggregateFunction.STDDEV_SAMP;
        if (n == 0 || (sample && n == 1)) {
            reply.setNull(index);
            return;
        }
        if (squares(function) && n == 1) {
            reply.setDouble(index, 0.0); // one value: no spread
            return;
        }
        double result = record[at + N_WIDE] == 0 ? fixedPointResult(function, record, at, n)
                : wide[slot].result(function, WideInteger.toBigInteger(record, at + S1, S1_LIMBS, true),
                        squares ? WideInteger.toBigInteger(record, at + S2, S2_LIMBS, false) : null, n);
        if (Double.isInfinite(result)) {
            reply.setNull(index); // beyond the double range (wide values only): as expressions do
        } else {
            reply.setDouble(index, result);
        }
    }

    /** {@code function} of a key whose values are all in the fixed-point range: no allocation. */
    private double fixedPointResult(AggregateFunction function, long[] record, int at, long n) {
        return switch (function) {
            case SUM -> sum(record, at);
            case AVG -> sum(record, at) / n;
            case VAR_POP, VAR_SAMP -> secondMoment(record, at, n) / (function == AggregateFunction.VAR_SAMP ? n - 1 : n);
            case STDDEV_POP, STDDEV_SAMP -> Math.sqrt(secondMoment(record, at, n) / (function == AggregateFunction.STDDEV_SAMP ? n - 1 : n));
            default -> throw new IllegalStateException(function.name());
        };
    }

    /** S1 as a double. */
    private double sum(long[] record, int at) {
        boolean negative = WideInteger.magnitude(record, at + S1, S1_LIMBS, magnitude);
        double m = Math.scalb(WideInteger.toDouble(magnitude, 0, S1_LIMBS), -FixedPoint.SCALE_BITS);
        return negative ? -m : m;
    }

    /** M2 = (count * S2 - S1^2) / count, exact until the final rounding. */
    private double secondMoment(long[] record, int at, long count) {
        // count * M2 = count * S2 - S1^2, in units of 2^-192
        WideInteger.magnitude(record, at + S1, S1_LIMBS, magnitude);
        WideInteger.multiply(magnitude, 0, S1_LIMBS, magnitude, 0, S1_LIMBS, square);
        this.count[0] = count;
        WideInteger.multiply(record, at + S2, S2_LIMBS, this.count, 0, 1, scaled);
        WideInteger.addUnsigned(scaled, 0, S2_LIMBS + 1, square, S2_LIMBS + 1, true);
        double scaledM2 = Math.scalb(WideInteger.toDouble(scaled, 0, S2_LIMBS + 1), -2 * FixedPoint.SCALE_BITS);
        return scaledM2 / count;
    }
}
