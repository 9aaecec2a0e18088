package io.railgun.engine.aggregate;

/**
 * Converts LONG and DOUBLE values to exact integers in units of 2^-96, as 256-bit two's-complement
 * numbers in four limbs (low to high), so they can be summed without rounding. A long v is
 * v * 2^96. A double is representable when its lowest set bit is at least 2^-96 and its magnitude
 * is below 2^126 (about 8.5e37): every long-valued double, every money amount, every value with a
 * full 53-bit mantissa from about 1e-13 up. Values outside that range (1e-30, 1e300) are not:
 * {@link MomentsAggregator} sums those exactly in arbitrary precision ({@link WideMoments}).
 */
final class FixedPoint {
    /** The scale of fixed-point values: value = integer * 2^-SCALE_BITS. */
    static final int SCALE_BITS = 96;
    /** Limbs of one fixed-point value. */
    static final int LIMBS = 4;
    private static final int MAX_BITS = 222;

    private FixedPoint() {}

    /** Writes v * 2^96 into {@code out[0..3]}. */
    static void ofLong(long v, long[] out) {
        out[0] = 0;
        out[1] = v << 32;
        out[2] = v >> 32;
        out[3] = v >> 63;
    }

    /** Writes x * 2^96 into {@code out[0..3]} and returns true, or returns false when not representable. */
    static boolean ofDouble(double x, long[] out) {
        long bits = Double.doubleToRawLongBits(x);
        int exp = (int) ((bits >>> 52) & 0x7FF);
        long mantissa = bits & 0xFFFFFFFFFFFFFL;
        if (exp == 0x7FF) {
            return false;
        }
        java.util.Arrays.fill(out, 0, LIMBS, 0L);
        if (mantissa == 0 && exp == 0) {
            return true;
        }
        if (exp == 0) {
            exp = 1; // subnormal
        } else {
            mantissa |= 1L << 52;
        }
        int e = exp - 1075; // |x| = mantissa * 2^e
        int tz = Long.numberOfTrailingZeros(mantissa);
        mantissa >>>= tz;
        e += tz;
        int shift = e + SCALE_BITS;
        if (shift < 0 || (64 - Long.numberOfLeadingZeros(mantissa)) + shift > MAX_BITS) {
            return false;
        }
        int limb = shift >>> 6;
        int bit = shift & 63;
        out[limb] = mantissa << bit;
        if (bit != 0 && limb + 1 < LIMBS) {
            out[limb + 1] = mantissa >>> (64 - bit);
        }
        if (bits < 0) {
            negate(out);
        }
        return true;
    }

    private static void negate(long[] v) {
        long carry = 1;
        for (int i = 0; i < LIMBS; i++) {
            long n = ~v[i] + carry;
            carry = (carry == 1 && n == 0) ? 1 : 0;
            v[i] = n;
        }
    }
}
