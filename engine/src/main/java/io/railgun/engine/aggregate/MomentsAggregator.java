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
 * Record: [n, S1 hi, S1 lo] and, for the variances, [S2 hi, S2 lo].
 */
public final class MomentsAggregator extends Aggregator {
    private static final int N = 0;
    private static final int S1 = 1;
    private static final int S2 = 3;

    private final AggregateFunction function;
    private final boolean squares;
    private final boolean longArgument;

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
    public int width() {
        return squares ? 5 : 3;
    }

    @Override
    public void arrive(long[] record, int base, int slot, long timestamp, long seq, EventRow row) {
        if (argument.eval(row)) {
            accumulate(record, base + offset, 1.0);
            record[base + offset + N]++;
        }
    }

    @Override
    public void expire(long[] record, int base, int slot, long timestamp, long seq, EventRow row) {
        if (argument.eval(row)) {
            accumulate(record, base + offset, -1.0);
            record[base + offset + N]--;
        }
    }

    private void accumulate(long[] record, int at, double sign) {
        if (longArgument) {
            long v = argument.longValue;
            double hi = DoubleDouble.longHi(v);
            double lo = DoubleDouble.longLo(v);
            DoubleDouble.add(record, at + S1, sign * hi, sign * lo);
            if (squares) {
                // (hi + lo)^2 = hi^2 + 2 hi lo + lo^2, each product taken exactly
                DoubleDouble.addSquare(record, at + S2, hi, sign);
                double cross = 2.0 * hi * lo;
                DoubleDouble.add(record, at + S2, sign * cross, sign * Math.fma(2.0 * hi, lo, -cross));
                DoubleDouble.addSquare(record, at + S2, lo, sign);
            }
        } else {
            double x = argument.doubleValue;
            DoubleDouble.add(record, at + S1, sign * x, 0.0);
            if (squares) {
                DoubleDouble.addSquare(record, at + S2, x, sign);
            }
        }
    }

    @Override
    public void write(long[] record, int base, int slot, Reply reply, int index) {
        int at = base + offset;
        long n = slot < 0 ? 0 : record[at + N];
        switch (function) {
            case SUM -> {
                if (n == 0) {
                    reply.setNull(index);
                } else {
                    reply.setDouble(index, DoubleDouble.value(record, at + S1));
                }
            }
            case AVG -> {
                if (n == 0) {
                    reply.setNull(index);
                } else {
                    reply.setDouble(index, average(record, at, n));
                }
            }
            case VAR_POP, STDDEV_POP -> {
                if (n == 0) {
                    reply.setNull(index);
                } else {
                    double v = secondMoment(record, at, n) / n;
                    reply.setDouble(index, function == AggregateFunction.VAR_POP ? v : Math.sqrt(v));
                }
            }
            case VAR_SAMP, STDDEV_SAMP -> {
                if (n < 2) {
                    reply.setNull(index);
                } else {
                    double v = secondMoment(record, at, n) / (n - 1);
                    reply.setDouble(index, function == AggregateFunction.VAR_SAMP ? v : Math.sqrt(v));
                }
            }
            default -> throw new IllegalStateException(function.name());
        }
    }

    private static double average(long[] record, int at, long n) {
        // double-double division by n, rounded once
        double hi = DoubleDouble.hi(record, at + S1);
        double dn = (double) n;
        double q1 = hi / dn;
        double r = Math.fma(-q1, dn, hi) + DoubleDouble.lo(record, at + S1);
        return q1 + r / dn;
    }

    private static double secondMoment(long[] record, int at, long n) {
        return DoubleDouble.centredSecondMoment(DoubleDouble.hi(record, at + S1), DoubleDouble.lo(record, at + S1),
                DoubleDouble.hi(record, at + S2), DoubleDouble.lo(record, at + S2), n);
    }
}
