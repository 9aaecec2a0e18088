package io.railgun.engine.aggregate;

/**
 * Exact integers in units of 2^-96 for LONG and DOUBLE values, so they can be summed without
 * rounding: a long v is v * 2^96; a double is split into its odd mantissa, a shift and a sign
 * ({@link #split}), which {@link WideInteger#addShifted} adds to a sum's limbs. A double is
 * representable when its lowest set bit is at least 2^-96 and its magnitude is below 2^126 (about
 * 8.5e37): every long-valued double, every money amount, every value with a full 53-bit mantissa
 * from about 1e-13 up. Values outside that range (1e-30, 1e300) are not:
 * {@link MomentsAggregator} sums those exactly in arbitrary precision ({@link WideMoments}).
 */
final class FixedPoint {
    /** The scale of fixed-point values: value = integer * 2^-SCALE_BITS. */
    static final int SCALE_BITS = 96;
    private static final int MAX_BITS = 222;

    private FixedPoint() {}

    /** What {@link #split} returns for a double the fixed point cannot hold (or NaN, an infinity). */
    static final long NOT_EXACT = -1L;

    /**
     * x * 2^96 as its magnitude's odd mantissa m (at most 53 bits; 0 for a zero), the shift s with
     * |x| * 2^96 = m * 2^s (s + bits of m ≤ 222) and the sign, packed in one long (read with
     * {@link #mantissa}, {@link #shift}, {@link #negative}); {@link #NOT_EXACT} when not
     * representable. So a sum adds a value's one or two nonzero limbs only, without building four.
     */
    static long split(double x) {
        long bits = Double.doubleToRawLongBits(x);
        int exp = (int) ((bits >>> 52) & 0x7FF);
        long mantissa = bits & 0xFFFFFFFFFFFFFL;
        if (exp == 0x7FF) {
            return NOT_EXACT;
        }
        if (mantissa == 0 && exp == 0) {
            return 0L;
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
            return NOT_EXACT;
        }
        return mantissa | (long) shift << 53 | (bits < 0 ? 1L << 61 : 0L);
    }

    /** The odd mantissa of a {@link #split} (0 for a zero). */
    static long mantissa(long parts) {
        return parts & ((1L << 53) - 1);
    }

    /** The shift of a {@link #split}: the mantissa's lowest bit in units of 2^-96. */
    static int shift(long parts) {
        return (int) (parts >>> 53) & 0xFF;
    }

    /** Whether a {@link #split} is of a negative value. */
    static boolean negative(long parts) {
        return (parts & 1L << 61) != 0;
    }
}
