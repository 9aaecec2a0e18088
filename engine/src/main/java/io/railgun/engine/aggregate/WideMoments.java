package io.railgun.engine.aggregate;

import io.railgun.engine.query.AggregateFunction;
import java.math.BigInteger;

/**
 * Exact sums, for one key, of the doubles {@link FixedPoint} cannot hold (lowest set bit below
 * 2^-96, or magnitude from 2^126: 1e-30, 1e300, subnormals): S1 = Σx in units of 2^-1074 and
 * S2 = Σx² in units of 2^-2148, as arbitrary-precision integers. Every finite double is m·2^e with
 * an integer |m| &lt; 2^53 and e ≥ -1074, so x·2^1074 is an integer and its square is x²·2^2148:
 * adding and removing never rounds. {@link MomentsAggregator} allocates one only for a key holding
 * such values; each update allocates (BigInteger is immutable), which only those values pay.
 *
 * <p>Results combine these sums with the key's fixed-point ones exactly and are rounded once, to
 * the nearest double (ties to even, subnormals included; beyond the double range: infinity), the
 * standard deviations too: their square root is taken of the exact ratio, not of a rounded
 * variance, so a variance that underflows a double still gives its root.
 *
 * <p>Owned by one task's thread.
 */
final class WideMoments {
    /** S1 = Σx · 2^S1_SCALE_BITS. */
    static final int S1_SCALE_BITS = 1074;
    /** S2 = Σx² · 2^S2_SCALE_BITS. */
    static final int S2_SCALE_BITS = 2 * S1_SCALE_BITS;
    /** Bits of a double's significand. */
    private static final int PRECISION = 53;
    /** Exponent of the last bit of the smallest subnormal. */
    private static final int MIN_EXPONENT = -1074;
    /** Bits of the truncated quotient (or root) rounded to a double: enough for a round and a sticky bit. */
    private static final int QUOTIENT_BITS = 64;

    BigInteger s1 = BigInteger.ZERO;
    BigInteger s2 = BigInteger.ZERO;

    /** Adds {@code x} (or removes it, when {@code remove}), and its square when {@code squares}. */
    void add(double x, boolean squares, boolean remove) {
        BigInteger units = units(x);
        s1 = remove ? s1.subtract(units) : s1.add(units);
        if (squares) {
            BigInteger square = units.multiply(units);
            s2 = remove ? s2.subtract(square) : s2.add(square);
        }
    }

    /** x · 2^1074, exactly. */
    static BigInteger units(double x) {
        if (!Double.isFinite(x)) {
            throw new IllegalArgumentException("not a finite double: " + x); // inputs are refused before
        }
        long bits = Double.doubleToRawLongBits(x);
        int exp = (int) ((bits >>> 52) & 0x7FF);
        long mantissa = bits & 0xFFFFFFFFFFFFFL;
        if (exp == 0) {
            exp = 1; // subnormal
        } else {
            mantissa |= 1L << 52;
        }
        // |x| = mantissa · 2^(exp - 1075)
        BigInteger units = BigInteger.valueOf(mantissa).shiftLeft(exp - 1);
        return bits < 0 ? units.negate() : units;
    }

    /**
     * {@code f} over n values: these wide ones and the others, whose exact sums {@code fixedS1}
     * (units 2^-96) and {@code fixedS2} (units 2^-192; null without squares) are the key's record's.
     * n ≥ 1, and n ≥ 2 for the sample variances.
     */
    double result(AggregateFunction f, BigInteger fixedS1, BigInteger fixedS2, long n) {
        BigInteger sum = fixedS1.shiftLeft(S1_SCALE_BITS - FixedPoint.SCALE_BITS).add(s1);
        BigInteger count = BigInteger.valueOf(n);
        return switch (f) {
            case SUM -> quotient(sum, BigInteger.ONE, S1_SCALE_BITS);
            case AVG -> quotient(sum, count, S1_SCALE_BITS);
            case VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP -> {
                BigInteger squares = fixedS2.shiftLeft(S2_SCALE_BITS - 2 * FixedPoint.SCALE_BITS).add(s2);
                // n S2 - S1^2 = n^2 times the population variance: >= 0 (Cauchy-Schwarz), 0 for equal values
                BigInteger numerator = count.multiply(squares).subtract(sum.multiply(sum));
                boolean sample = f == AggregateFunction.VAR_SAMP || f == AggregateFunction.STDDEV_SAMP;
                BigInteger denominator = count.multiply(sample ? BigInteger.valueOf(n - 1) : count);
                boolean root = f == AggregateFunction.STDDEV_POP || f == AggregateFunction.STDDEV_SAMP;
                yield root ? sqrtOfQuotient(numerator, denominator, S2_SCALE_BITS)
                        : quotient(numerator, denominator, S2_SCALE_BITS);
            }
            default -> throw new IllegalArgumentException(f.name());
        };
    }

    /** num / den · 2^-scaleBits, rounded to the nearest double; den > 0. */
    static double quotient(BigInteger num, BigInteger den, int scaleBits) {
        if (num.signum() == 0) {
            return 0.0;
        }
        BigInteger magnitude = num.abs();
        int k = Math.max(0, QUOTIENT_BITS + den.bitLength() - magnitude.bitLength());
        BigInteger[] qr = magnitude.shiftLeft(k).divideAndRemainder(den);
        double r = round(qr[0], qr[1].signum() != 0, -scaleBits - k);
        return num.signum() < 0 ? -r : r;
    }

    /** sqrt(num / den · 2^-scaleBits), rounded to the nearest double; num ≥ 0, den > 0, scaleBits even. */
    static double sqrtOfQuotient(BigInteger num, BigInteger den, int scaleBits) {
        if (num.signum() < 0 || (scaleBits & 1) != 0) {
            throw new IllegalArgumentException("square root of " + num + " / " + den + " * 2^-" + scaleBits);
        }
        if (num.signum() == 0) {
            return 0.0;
        }
        int k = Math.max(0, 2 * QUOTIENT_BITS + den.bitLength() - num.bitLength());
        k += k & 1; // even, so that the root's scale is a whole power of two
        BigInteger[] qr = num.shiftLeft(k).divideAndRemainder(den);
        // floor(sqrt(floor(x))) = floor(sqrt(x)), and the root is exact only when both steps are
        BigInteger[] root = qr[0].sqrtAndRemainder();
        return round(root[0], qr[1].signum() != 0 || root[1].signum() != 0, -(scaleBits + k) / 2);
    }

    /**
     * (m + d) · 2^exp rounded to the nearest double, ties to even, where 0 ≤ d &lt; 1 and d > 0
     * exactly when {@code inexact}; m has at least {@link #QUOTIENT_BITS} bits, so the bits below the
     * kept ones hold the round bit.
     */
    private static double round(BigInteger m, boolean inexact, int exp) {
        int lsb = Math.max(exp + m.bitLength() - PRECISION, MIN_EXPONENT); // exponent of the result's last bit
        int shift = lsb - exp;
        long kept = m.shiftRight(shift).longValue();
        boolean half = m.testBit(shift - 1);
        boolean belowHalf = inexact || m.getLowestSetBit() < shift - 1;
        if (half && (belowHalf || (kept & 1) != 0)) {
            kept++;
        }
        return Math.scalb((double) kept, lsb); // exact: kept ≤ 2^53 on the double grid (or infinity)
    }
}
