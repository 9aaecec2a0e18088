package io.railgun.engine.aggregate;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.query.AggregateFunction;
import io.railgun.engine.task.Reply;

/**
 * {@code SUM} of doubles, {@code AVG}, {@code VAR_POP/VAR_SAMP}, {@code STDDEV_POP/STDDEV_SAMP}, kept
 * exactly: each value is converted to an exact fixed-point integer ({@link FixedPoint}) and the
 * sums are fixed-width integers ({@link WideInteger}): S1 in 320 bits, S2 in 512 bits. Adding and
 * removing never rounds, so nothing drifts however long the window lives, and results are rounded
 * once when read: SUM = S1, AVG = S1 / n, VAR_POP = (n S2 - S1^2) / n^2,
 * VAR_SAMP = (n S2 - S1^2) / (n (n - 1)) with the numerator exact. A window of equal values has
 * variance exactly 0.
 *
 * <p>Doubles that are not representable (bits below 2^-96, or magnitude from 2^126) go to fallback
 * double-double sums of their deviations from an anchor (the first such value while the key holds
 * any): equal values still give variance 0, but results are not exact. While a key holds both
 * kinds, the exact part's moments (exact, then rounded) and the fallback part's are combined with
 * the parallel-variance formula, so the exact values lose nothing to the fallback's anchor.
 *
 * <p>Record: [n, nFallback, S1 (5 limbs)] then, for the variances, [S2 (8 limbs)], then the
 * fallback [S1 hi, S1 lo] and, for the variances, [S2 hi, S2 lo], then the fallback anchor.
 */
public final class MomentsAggregator extends Aggregator {
    private static final int N = 0;
    private static final int N_FALLBACK = 1;
    private static final int S1 = 2;
    private static final int S1_LIMBS = 5;
    private static final int S2 = S1 + S1_LIMBS;
    private static final int S2_LIMBS = 8;

    private final AggregateFunction function;
    private final boolean squares;
    private final boolean longArgument;
    private final int fallbackS1;
    private final int fallbackS2;
    private final int fallbackAnchor;
    private final int width;
    // scratch, reused: one task thread
    private final long[] value = new long[FixedPoint.LIMBS];
    private final long[] magnitude = new long[S1_LIMBS];
    private final long[] square = new long[2 * S1_LIMBS];
    /** Scratch double-double: the fallback values' total n * c + S1, rounded once. */
    private final long[] fallbackTotal = new long[2];
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
        this.fallbackS1 = squares ? S2 + S2_LIMBS : S2;
        this.fallbackS2 = fallbackS1 + 2;
        this.fallbackAnchor = squares ? fallbackS2 + 2 : fallbackS1 + 2;
        this.width = fallbackAnchor + 1;
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
    public void arrive(long[] record, int base, int slot, long timestamp, long seq, EventRow row) {
        if (argument.eval(row)) {
            accumulate(record, base + offset, false);
        }
    }

    @Override
    public void expire(long[] record, int base, int slot, long timestamp, long seq, EventRow row) {
        if (argument.eval(row)) {
            accumulate(record, base + offset, true);
        }
    }

    private void accumulate(long[] record, int at, boolean remove) {
        record[at + N] += remove ? -1 : 1;
        boolean exact;
        if (longArgument) {
            FixedPoint.ofLong(argument.longValue, value);
            exact = true;
        } else {
            exact = FixedPoint.ofDouble(argument.doubleValue, value);
        }
        if (!exact) {
            accumulateFallback(record, at, remove);
            return;
        }
        WideInteger.addSigned(record, at + S1, S1_LIMBS, value, FixedPoint.LIMBS, remove);
        if (squares) {
            WideInteger.magnitude(value, 0, FixedPoint.LIMBS, magnitude);
            WideInteger.multiply(magnitude, 0, FixedPoint.LIMBS, magnitude, 0, FixedPoint.LIMBS, square);
            WideInteger.addUnsigned(record, at + S2, S2_LIMBS, square, 2 * FixedPoint.LIMBS, remove);
        }
    }

    /**
     * Values outside the fixed-point range: double-double sums of their deviations d = x - c from an
     * anchor c (the first such value while the key holds any), d taken exactly (TwoSum), so equal
     * values still cancel to exactly zero.
     */
    private void accumulateFallback(long[] record, int at, boolean remove) {
        double x = argument.doubleValue;
        if (record[at + N_FALLBACK] == 0) {
            record[at + fallbackAnchor] = Double.doubleToRawLongBits(x);
        }
        record[at + N_FALLBACK] += remove ? -1 : 1;
        double c = Double.longBitsToDouble(record[at + fallbackAnchor]);
        double sign = remove ? -1.0 : 1.0;
        double dHi = x - c;
        double bb = dHi - x;
        double dLo = (x - (dHi - bb)) + (-c - bb);
        DoubleDouble.add(record, at + fallbackS1, sign * dHi, sign * dLo);
        if (squares) {
            DoubleDouble.addSquare(record, at + fallbackS2, dHi, sign);
            double cross = 2.0 * dHi * dLo;
            DoubleDouble.add(record, at + fallbackS2, sign * cross, sign * Math.fma(2.0 * dHi, dLo, -cross));
        }
        if (record[at + N_FALLBACK] == 0) {
            record[at + fallbackS1] = 0;
            record[at + fallbackS1 + 1] = 0;
            if (squares) {
                record[at + fallbackS2] = 0;
                record[at + fallbackS2 + 1] = 0;
            }
        }
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
        switch (function) {
            case SUM -> {
                if (n == 0) {
                    reply.setNull(index);
                } else {
                    reply.setDouble(index, sum(record, at));
                }
            }
            case AVG -> {
                if (n == 0) {
                    reply.setNull(index);
                } else {
                    reply.setDouble(index, sum(record, at) / n);
                }
            }
            case VAR_POP, STDDEV_POP, VAR_SAMP, STDDEV_SAMP -> {
                boolean sample = function == AggregateFunction.VAR_SAMP || function == AggregateFunction.STDDEV_SAMP;
                if (n == 0 || (sample && n == 1)) {
                    reply.setNull(index);
                } else if (n == 1) {
                    reply.setDouble(index, 0.0); // one value: no spread, whatever rounding the sums carry
                } else {
                    double variance = centredSecondMoment(record, at, n) / (sample ? n - 1 : n);
                    boolean stddev = function == AggregateFunction.STDDEV_POP || function == AggregateFunction.STDDEV_SAMP;
                    reply.setDouble(index, stddev ? Math.sqrt(variance) : variance);
                }
            }
            default -> throw new IllegalStateException(function.name());
        }
    }

    /** The exact part S1 as a double. */
    private double exactSum(long[] record, int at) {
        boolean negative = WideInteger.magnitude(record, at + S1, S1_LIMBS, magnitude);
        double m = Math.scalb(WideInteger.toDouble(magnitude, 0, S1_LIMBS), -FixedPoint.SCALE_BITS);
        return negative ? -m : m;
    }

    private double sum(long[] record, int at) {
        double exact = exactSum(record, at);
        if (record[at + N_FALLBACK] == 0) {
            return exact;
        }
        double c = Double.longBitsToDouble(record[at + fallbackAnchor]);
        // n * c + S1 in double-double, rounded once: rounding S1 first would lose what its low part
        // holds when the values are far smaller than the anchor (one value left after a much larger
        // one left the window: its deviation is about -c, and c + round(S1) cancels to noise)
        long n = record[at + N_FALLBACK];
        double nc = n * c;
        fallbackTotal[0] = record[at + fallbackS1];
        fallbackTotal[1] = record[at + fallbackS1 + 1];
        DoubleDouble.add(fallbackTotal, 0, nc, Math.fma((double) n, c, -nc));
        return exact + DoubleDouble.value(fallbackTotal, 0);
    }

    /** M2 = S2 - S1^2 / n: exact (then rounded once) when every value of the key is representable. */
    private double centredSecondMoment(long[] record, int at, long n) {
        long nFallback = record[at + N_FALLBACK];
        long nExact = n - nFallback;
        if (nFallback == 0) {
            return exactSecondMoment(record, at, n);
        }
        double f1Hi = DoubleDouble.hi(record, at + fallbackS1);
        double f1Lo = DoubleDouble.lo(record, at + fallbackS1);
        double fallbackM2 = DoubleDouble.centredSecondMoment(f1Hi, f1Lo, DoubleDouble.hi(record, at + fallbackS2),
                DoubleDouble.lo(record, at + fallbackS2), nFallback);
        if (nExact == 0) {
            return fallbackM2; // the moment of the deviations from the anchor is the moment of the values
        }
        // both kinds: parallel-variance combination (Chan et al.) of the two parts' moments
        double exactMean = exactSum(record, at) / nExact;
        double fallbackMean = Double.longBitsToDouble(record[at + fallbackAnchor]) + (f1Hi + f1Lo) / nFallback;
        double delta = exactMean - fallbackMean;
        return exactSecondMoment(record, at, nExact) + fallbackM2 + delta * delta * ((double) nExact * nFallback / n);
    }

    /** M2 of the exactly summed values: (count * S2 - S1^2) / count, exact until the final rounding. */
    private double exactSecondMoment(long[] record, int at, long count) {
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
