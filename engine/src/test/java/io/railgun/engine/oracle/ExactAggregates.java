package io.railgun.engine.oracle;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Brute-force aggregates over the argument values of the events in a window, in window order
 * ((timestamp, seq) ascending). Doubles are computed exactly: sums and sums of squares in
 * {@link BigDecimal} (a double converts to BigDecimal without error), the one final division or
 * square root at 50 significant digits, then rounded to double. So the oracle's double is the
 * correctly rounded true value, up to one ulp.
 */
public final class ExactAggregates {
    private static final MathContext MC = new MathContext(50, RoundingMode.HALF_EVEN);

    private ExactAggregates() {}

    /**
     * @param values        argument values (null allowed) of the window's events in (timestamp, seq)
     *                      order; for COUNT(*) one entry per event
     * @param expiredEvents for coverage only, passed through
     */
    public static ExpectedValue compute(AggregateKind kind, List<Object> values, int expiredEvents) {
        int events = values.size();
        List<Object> inputs = values.stream().filter(v -> v != null).toList();
        int n = inputs.size();
        if (kind == AggregateKind.COUNT_STAR) {
            return new ExpectedValue((long) events, kind, events, events, 0, expiredEvents);
        }
        return switch (kind) {
            case COUNT -> new ExpectedValue((long) n, kind, events, n, 0, expiredEvents);
            case COUNT_DISTINCT -> {
                Set<Object> distinct = new HashSet<>();
                for (Object v : inputs) {
                    distinct.add(SqlValues.normalize(v));
                }
                yield new ExpectedValue((long) distinct.size(), kind, events, n, 0, expiredEvents);
            }
            case MIN, MAX -> {
                Object best = null;
                for (Object v : inputs) {
                    if (best == null) {
                        best = v;
                    } else {
                        int c = SqlValues.compare(v, best);
                        if (kind == AggregateKind.MIN ? c < 0 : c > 0) {
                            best = v;
                        }
                    }
                }
                yield new ExpectedValue(best, kind, events, n, 0, expiredEvents);
            }
            case LAST -> new ExpectedValue(n == 0 ? null : inputs.get(n - 1), kind, events, n, 0, expiredEvents);
            case SUM -> {
                if (n == 0) {
                    yield new ExpectedValue(null, kind, events, 0, 0, expiredEvents);
                }
                if (inputs.get(0) instanceof Long) {
                    long sum = 0;
                    for (Object v : inputs) {
                        sum += (Long) v; // Java long arithmetic, wraps like the engine's
                    }
                    yield new ExpectedValue(sum, kind, events, n, 0, expiredEvents);
                }
                yield new ExpectedValue(exactSum(inputs).doubleValue(), kind, events, n, sumAbs(inputs), expiredEvents);
            }
            case AVG -> {
                if (n == 0) {
                    yield new ExpectedValue(null, kind, events, 0, 0, expiredEvents);
                }
                double avg = exactSum(inputs).divide(BigDecimal.valueOf(n), MC).doubleValue();
                yield new ExpectedValue(avg, kind, events, n, sumAbs(inputs), expiredEvents);
            }
            case VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP, STDDEV -> {
                boolean sample = kind == AggregateKind.VAR_SAMP || kind == AggregateKind.STDDEV_SAMP || kind == AggregateKind.STDDEV;
                boolean root = kind != AggregateKind.VAR_POP && kind != AggregateKind.VAR_SAMP;
                if (n == 0 || (sample && n == 1)) {
                    yield new ExpectedValue(null, kind, events, n, 0, expiredEvents);
                }
                BigDecimal sum = BigDecimal.ZERO;
                BigDecimal sumSq = BigDecimal.ZERO;
                double maxAbs = 0;
                for (Object v : inputs) {
                    BigDecimal x = exact(v);
                    sum = sum.add(x);
                    sumSq = sumSq.add(x.multiply(x));
                    maxAbs = Math.max(maxAbs, Math.abs(((Number) v).doubleValue()));
                }
                BigDecimal bn = BigDecimal.valueOf(n);
                // n * sum(x^2) - sum(x)^2 is exact and >= 0 (Cauchy-Schwarz)
                BigDecimal numerator = bn.multiply(sumSq).subtract(sum.multiply(sum));
                BigDecimal denominator = sample ? bn.multiply(BigDecimal.valueOf(n - 1L)) : bn.multiply(bn);
                BigDecimal variance = numerator.divide(denominator, MC);
                BigDecimal result = root ? variance.sqrt(MC) : variance;
                yield new ExpectedValue(result.doubleValue(), kind, events, n, maxAbs, expiredEvents);
            }
            case COUNT_STAR -> throw new AssertionError();
        };
    }

    static BigDecimal exact(Object v) {
        return v instanceof Long l ? BigDecimal.valueOf(l) : new BigDecimal((Double) v);
    }

    static BigDecimal exactSum(List<Object> inputs) {
        BigDecimal sum = BigDecimal.ZERO;
        for (Object v : inputs) {
            sum = sum.add(exact(v));
        }
        return sum;
    }

    static double sumAbs(List<Object> inputs) {
        double s = 0;
        for (Object v : inputs) {
            s += Math.abs(((Number) v).doubleValue());
        }
        return s;
    }
}
