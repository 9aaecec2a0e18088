package io.railgun.engine.aggregate;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.query.AggregateFunction;
import io.railgun.engine.task.Reply;

/**
 * {@code SUM} of doubles, {@code AVG}, {@code VAR_POP/VAR_SAMP}, {@code STDDEV_POP/STDDEV_SAMP}: the
 * count n, the sum S1 and (for the variances) the sum of squares S2 per key, the sums in
 * {@link DoubleDouble} so that removal is exact to ~2^-104 relative. Results are computed from the
 * power sums when read: mean = S1/n, M2 = S2 - S1^2/n, VAR_POP = M2/n, VAR_SAMP = M2/(n-1).
 * LONG arguments are split exactly into two doubles, so AVG of longs is exact too.
 */
public final class MomentsAggregator extends Aggregator {
    private final AggregateFunction function;
    private final boolean squares;
    private final boolean longArgument;
    private long[] counts = new long[0];
    private double[] s1Hi = new double[0];
    private double[] s1Lo = new double[0];
    private double[] s2Hi = new double[0];
    private double[] s2Lo = new double[0];

    public MomentsAggregator(AggregateFunction function, Evaluator argument) {
        super(argument);
        this.function = function;
        this.squares = switch (function) {
            case VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP -> true;
            case SUM, AVG -> false;
            default -> throw new IllegalArgumentException("not a moments aggregate: " + function);
        };
        this.longArgument = argument.type() == ValueType.LONG;
    }

    @Override
    public ValueType resultType() {
        return ValueType.DOUBLE;
    }

    @Override
    public void ensureCapacity(int slots) {
        counts = Columns.grow(counts, slots);
        s1Hi = Columns.grow(s1Hi, slots);
        s1Lo = Columns.grow(s1Lo, slots);
        if (squares) {
            s2Hi = Columns.grow(s2Hi, slots);
            s2Lo = Columns.grow(s2Lo, slots);
        }
    }

    @Override
    public void arrive(int slot, long timestamp, long seq, EventRow row) {
        if (argument.eval(row)) {
            accumulate(slot, 1.0);
            counts[slot]++;
        }
    }

    @Override
    public void expire(int slot, long timestamp, long seq, EventRow row) {
        if (argument.eval(row)) {
            accumulate(slot, -1.0);
            counts[slot]--;
        }
    }

    private void accumulate(int slot, double sign) {
        if (longArgument) {
            long v = argument.longValue;
            double hi = DoubleDouble.longHi(v);
            double lo = DoubleDouble.longLo(v);
            DoubleDouble.add(s1Hi, s1Lo, slot, sign * hi, sign * lo);
            if (squares) {
                // (hi + lo)^2 = hi^2 + 2 hi lo + lo^2, each product taken exactly enough for 106 bits
                DoubleDouble.addSquare(s2Hi, s2Lo, slot, hi, sign);
                double cross = 2.0 * hi * lo;
                DoubleDouble.add(s2Hi, s2Lo, slot, sign * cross, sign * Math.fma(2.0 * hi, lo, -cross));
                DoubleDouble.addSquare(s2Hi, s2Lo, slot, lo, sign);
            }
        } else {
            double x = argument.doubleValue;
            DoubleDouble.add(s1Hi, s1Lo, slot, sign * x, 0.0);
            if (squares) {
                DoubleDouble.addSquare(s2Hi, s2Lo, slot, x, sign);
            }
        }
    }

    @Override
    public void reset(int slot) {
        counts[slot] = 0;
        s1Hi[slot] = 0;
        s1Lo[slot] = 0;
        if (squares) {
            s2Hi[slot] = 0;
            s2Lo[slot] = 0;
        }
    }

    @Override
    public void write(int slot, Reply reply, int index) {
        long n = slot < 0 ? 0 : counts[slot];
        switch (function) {
            case SUM -> {
                if (n == 0) {
                    reply.setNull(index);
                } else {
                    reply.setDouble(index, DoubleDouble.value(s1Hi[slot], s1Lo[slot]));
                }
            }
            case AVG -> {
                if (n == 0) {
                    reply.setNull(index);
                } else {
                    reply.setDouble(index, average(slot, n));
                }
            }
            case VAR_POP, STDDEV_POP -> {
                if (n == 0) {
                    reply.setNull(index);
                } else {
                    double v = secondMoment(slot, n) / n;
                    reply.setDouble(index, function == AggregateFunction.VAR_POP ? v : Math.sqrt(v));
                }
            }
            case VAR_SAMP, STDDEV_SAMP -> {
                if (n < 2) {
                    reply.setNull(index);
                } else {
                    double v = secondMoment(slot, n) / (n - 1);
                    reply.setDouble(index, function == AggregateFunction.VAR_SAMP ? v : Math.sqrt(v));
                }
            }
            default -> throw new IllegalStateException(function.name());
        }
    }

    private double average(int slot, long n) {
        // double-double division by n, rounded once
        double dn = (double) n;
        double q1 = s1Hi[slot] / dn;
        double r = Math.fma(-q1, dn, s1Hi[slot]) + s1Lo[slot];
        return q1 + r / dn;
    }

    private double secondMoment(int slot, long n) {
        return DoubleDouble.centredSecondMoment(s1Hi[slot], s1Lo[slot], s2Hi[slot], s2Lo[slot], n);
    }
}
