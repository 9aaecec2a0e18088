package io.railgun.engine.expr;

import java.util.Arrays;

/**
 * Orders the non-null values of two evaluated operands, returning -1, 0 or 1. Numbers compare by
 * value across LONG and DOUBLE exactly (a long is never rounded to a double), with {@code -0.0 == 0.0}
 * and NaN, should a row hold one, above every number and equal to itself; strings compare by unsigned
 * UTF-8 bytes, which is Unicode code point order; booleans order false before true. Chosen once per
 * comparison at compile time by {@link #of}.
 */
enum ValueComparator {
    LONGS {
        @Override
        int compare(Evaluator a, Evaluator b) {
            return Long.compare(a.longValue, b.longValue);
        }
    },
    DOUBLES {
        @Override
        int compare(Evaluator a, Evaluator b) {
            return compareDoubles(a.doubleValue, b.doubleValue);
        }
    },
    LONG_DOUBLE {
        @Override
        int compare(Evaluator a, Evaluator b) {
            return compareLongDouble(a.longValue, b.doubleValue);
        }
    },
    DOUBLE_LONG {
        @Override
        int compare(Evaluator a, Evaluator b) {
            return -compareLongDouble(b.longValue, a.doubleValue);
        }
    },
    STRINGS {
        @Override
        int compare(Evaluator a, Evaluator b) {
            return Integer.signum(Arrays.compareUnsigned(
                    a.stringBuffer, a.stringOffset, a.stringOffset + a.stringLength,
                    b.stringBuffer, b.stringOffset, b.stringOffset + b.stringLength));
        }
    },
    BOOLEANS {
        @Override
        int compare(Evaluator a, Evaluator b) {
            return Long.compare(a.longValue, b.longValue);
        }
    };

    /** 2^63 as a double: the smallest double above every long. */
    private static final double TWO_POW_63 = 9.223372036854775808E18;

    abstract int compare(Evaluator a, Evaluator b);

    /** The comparator for operands of types {@code a} and {@code b}, or null when they cannot be compared. */
    static ValueComparator of(ValueType a, ValueType b) {
        if (a == ValueType.LONG && b == ValueType.LONG) {
            return LONGS;
        }
        if (a == ValueType.DOUBLE && b == ValueType.DOUBLE) {
            return DOUBLES;
        }
        if (a == ValueType.LONG && b == ValueType.DOUBLE) {
            return LONG_DOUBLE;
        }
        if (a == ValueType.DOUBLE && b == ValueType.LONG) {
            return DOUBLE_LONG;
        }
        if (a == ValueType.STRING && b == ValueType.STRING) {
            return STRINGS;
        }
        if (a == ValueType.BOOLEAN && b == ValueType.BOOLEAN) {
            return BOOLEANS;
        }
        return null;
    }

    static int compareDoubles(double a, double b) {
        if (a < b) {
            return -1;
        }
        if (a > b) {
            return 1;
        }
        if (a == b) {
            return 0;
        }
        return Double.compare(a, b); // at least one NaN
    }

    /** Exact comparison of a long with a double, without rounding the long. */
    static int compareLongDouble(long l, double d) {
        if (Double.isNaN(d)) {
            return -1;
        }
        if (d >= TWO_POW_63) {
            return -1;
        }
        if (d < -TWO_POW_63) {
            return 1;
        }
        long t = (long) d; // exact integer part: d is within the long range here
        if (l != t) {
            return l < t ? -1 : 1;
        }
        // l equals the integer part of d; the fraction decides (t converts back to a double exactly).
        double truncated = t;
        return d > truncated ? -1 : d < truncated ? 1 : 0;
    }
}
