package io.railgun.engine.aggregate;

/**
 * Fixed-width integer arithmetic on little-endian 64-bit limbs (limb 0 least significant) stored in
 * long arrays: two's-complement modular addition, schoolbook multiplication of magnitudes, and
 * rounding to double. Used for exact sums and sums of squares; allocation-free (callers pass
 * scratch arrays), but for {@link #toBigInteger}.
 */
final class WideInteger {
    private WideInteger() {}

    /** {@code acc[off..off+len) += v[0..vLen)} (or -=, when {@code subtract}), v unsigned, zero-extended. */
    static void addUnsigned(long[] acc, int off, int len, long[] v, int vLen, boolean subtract) {
        long carry = 0;
        for (int i = 0; i < len; i++) {
            long x = i < vLen ? v[i] : 0L;
            long a = acc[off + i];
            if (!subtract) {
                long s = a + x;
                long c1 = Long.compareUnsigned(s, a) < 0 ? 1 : 0;
                long t = s + carry;
                long c2 = Long.compareUnsigned(t, s) < 0 ? 1 : 0;
                acc[off + i] = t;
                carry = c1 + c2;
            } else {
                long d = a - x;
                long b1 = Long.compareUnsigned(a, x) < 0 ? 1 : 0;
                long t = d - carry;
                long b2 = Long.compareUnsigned(d, carry) < 0 ? 1 : 0;
                acc[off + i] = t;
                carry = b1 + b2;
            }
        }
    }

    /**
     * {@code acc[off..off+len) += m * 2^shift} (or -=, when {@code subtract}) for an unsigned m of
     * at most 64 bits, modulo 2^(64 len): what {@link #addUnsigned} does with m placed in limbs,
     * touching only the limbs it spans and those a carry reaches.
     */
    static void addShifted(long[] acc, int off, int len, long m, int shift, boolean subtract) {
        int bit = shift & 63;
        long w0 = m << bit;
        long w1 = bit == 0 ? 0 : m >>> (64 - bit);
        addAt(acc, off, len, shift >>> 6, w0, w1, 0, subtract);
    }

    /**
     * {@code acc[off..off+len) += (hi:lo) * 2^shift} (or -=) for an unsigned 128-bit value: a square
     * of {@link #addShifted}'s m.
     */
    static void addShifted128(long[] acc, int off, int len, long lo, long hi, int shift, boolean subtract) {
        int bit = shift & 63;
        long w0 = lo << bit;
        long w1 = bit == 0 ? hi : hi << bit | lo >>> (64 - bit);
        long w2 = bit == 0 ? 0 : hi >>> (64 - bit);
        addAt(acc, off, len, shift >>> 6, w0, w1, w2, subtract);
    }

    /** Adds or subtracts the three limbs (w2:w1:w0) at limb {@code limb}, the carry or borrow rippled up. */
    private static void addAt(long[] acc, int off, int len, int limb, long w0, long w1, long w2, boolean subtract) {
        long carry = 0;
        int i = limb;
        for (int k = 0; k < 3 && i < len; k++, i++) {
            long x = k == 0 ? w0 : k == 1 ? w1 : w2;
            long a = acc[off + i];
            if (!subtract) {
                long s = a + x;
                long t = s + carry;
                carry = (Long.compareUnsigned(s, a) < 0 ? 1 : 0) + (Long.compareUnsigned(t, s) < 0 ? 1 : 0);
                acc[off + i] = t;
            } else {
                long d = a - x;
                long t = d - carry;
                carry = (Long.compareUnsigned(a, x) < 0 ? 1 : 0) + (Long.compareUnsigned(d, carry) < 0 ? 1 : 0);
                acc[off + i] = t;
            }
        }
        for (; carry != 0 && i < len; i++) {
            long a = acc[off + i];
            acc[off + i] = subtract ? a - 1 : a + 1;
            carry = (subtract ? a == 0 : a == -1L) ? 1 : 0;
        }
    }

    /** {@code out[0..aLen+bLen) = a[aOff..aOff+aLen) * b[bOff..bOff+bLen)}, all unsigned. */
    static void multiply(long[] a, int aOff, int aLen, long[] b, int bOff, int bLen, long[] out) {
        java.util.Arrays.fill(out, 0, aLen + bLen, 0L);
        for (int i = 0; i < aLen; i++) {
            long ai = a[aOff + i];
            if (ai == 0) {
                continue;
            }
            long carry = 0;
            for (int j = 0; j < bLen; j++) {
                long bj = b[bOff + j];
                long lo = ai * bj;
                long hi = Math.unsignedMultiplyHigh(ai, bj);
                long s = out[i + j] + lo;
                hi += Long.compareUnsigned(s, lo) < 0 ? 1 : 0;
                long t = s + carry;
                hi += Long.compareUnsigned(t, s) < 0 ? 1 : 0;
                out[i + j] = t;
                carry = hi;
            }
            out[i + bLen] = carry;
        }
    }

    /** Copies the magnitude of the two's-complement {@code v[off..off+len)} into {@code out}; true when negative. */
    static boolean magnitude(long[] v, int off, int len, long[] out) {
        boolean negative = v[off + len - 1] < 0;
        long carry = 1;
        for (int i = 0; i < len; i++) {
            long x = v[off + i];
            if (negative) {
                long n = ~x + carry;
                carry = (carry == 1 && n == 0) ? 1 : 0;
                out[i] = n;
            } else {
                out[i] = x;
            }
        }
        return negative;
    }

    /** The unsigned {@code v[0..len)} rounded once to the nearest double (ties to even). */
    static double toDouble(long[] v, int off, int len) {
        int top = len - 1;
        while (top >= 0 && v[off + top] == 0) {
            top--;
        }
        if (top < 0) {
            return 0.0;
        }
        long hi = v[off + top];
        long next = top > 0 ? v[off + top - 1] : 0;
        int shift = Long.numberOfLeadingZeros(hi);
        long bits = shift == 0 ? hi : (hi << shift) | (next >>> (64 - shift));
        // the bits below the 64 kept: next's after the shift (all of next when there is none), and lower limbs
        boolean sticky = (shift == 0 ? next != 0 : (next << shift) != 0) || (top > 1 && anyNonZero(v, off, top - 1));
        if (sticky) {
            bits |= 1L; // remember discarded bits so rounding goes the right way
        }
        // as an unsigned 64-bit value: halved to fit a long, its lowest bit kept as a sticky bit below
        // the rounding point (adding it back after the conversion, as before, lost it: a value just
        // above a tie rounded to even, 1 ulp low)
        double d = (double) ((bits >>> 1) | (bits & 1L)) * 2.0;
        return Math.scalb(d, 64 * top - shift);
    }

    /** {@code v[off..off+len)} as a BigInteger: two's complement when {@code signed}, else unsigned. */
    static java.math.BigInteger toBigInteger(long[] v, int off, int len, boolean signed) {
        byte[] bytes = new byte[8 * len + (signed ? 0 : 1)]; // big-endian; a leading 0 keeps unsigned values positive
        for (int i = 0; i < len; i++) {
            long limb = v[off + i];
            int last = bytes.length - 1 - 8 * i;
            for (int b = 0; b < 8; b++) {
                bytes[last - b] = (byte) (limb >>> (8 * b));
            }
        }
        return new java.math.BigInteger(bytes);
    }

    private static boolean anyNonZero(long[] v, int off, int len) {
        for (int i = 0; i < len; i++) {
            if (v[off + i] != 0) {
                return true;
            }
        }
        return false;
    }
}
