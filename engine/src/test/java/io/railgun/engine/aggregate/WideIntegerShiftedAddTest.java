package io.railgun.engine.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * {@link WideInteger#addShifted} and {@link WideInteger#addShifted128} equal the same sum done in
 * BigInteger modulo 2^(64 len), for accumulators whose limbs are often all ones or all zeros (so
 * carries and borrows ripple through every limb and off the top), and {@link FixedPoint#split}
 * gives back the double exactly.
 */
class WideIntegerShiftedAddTest {
    private static final int LEN = 8;

    @Property(tries = 3000)
    void aShiftedAddEqualsTheSumInBigInteger(@ForAll("accumulators") long[] acc, @ForAll long m,
                                             @ForAll("shifts") int shift, @ForAll boolean subtract) {
        BigInteger expected = reference(acc, BigInteger.valueOf(m).and(MASK64), shift, subtract);
        WideInteger.addShifted(acc, 0, LEN, m, shift, subtract);
        assertThat(toBig(acc)).isEqualTo(expected);
    }

    @Property(tries = 3000)
    void aShifted128AddEqualsTheSumInBigInteger(@ForAll("accumulators") long[] acc, @ForAll long lo, @ForAll long hi,
                                                @ForAll("shifts") int shift, @ForAll boolean subtract) {
        BigInteger v = BigInteger.valueOf(hi).and(MASK64).shiftLeft(64).or(BigInteger.valueOf(lo).and(MASK64));
        BigInteger expected = reference(acc, v, shift, subtract);
        WideInteger.addShifted128(acc, 0, LEN, lo, hi, shift, subtract);
        assertThat(toBig(acc)).isEqualTo(expected);
    }

    @Property(tries = 3000)
    void aSplitDoubleIsItsValueExactly(@ForAll double x) {
        long parts = FixedPoint.split(x);
        if (parts == FixedPoint.NOT_EXACT) {
            boolean representable = Double.isFinite(x) && Math.abs(x) < 0x1p126
                    && new BigDecimal(x).multiply(new BigDecimal(BigInteger.ONE.shiftLeft(96))).stripTrailingZeros().scale() <= 0;
            assertThat(representable).isFalse();
            return;
        }
        long m = FixedPoint.mantissa(parts);
        assertThat(m == 0 || (m & 1) == 1).isTrue();
        double back = Math.scalb((double) m, FixedPoint.shift(parts) - FixedPoint.SCALE_BITS);
        assertThat(FixedPoint.negative(parts) ? -back : back).isEqualTo(x == 0 ? back : x);
    }

    private static final BigInteger MASK64 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    private static final BigInteger MODULUS = BigInteger.ONE.shiftLeft(64 * LEN);

    private static BigInteger reference(long[] acc, BigInteger v, int shift, boolean subtract) {
        BigInteger a = toBig(acc);
        BigInteger d = v.shiftLeft(shift);
        return (subtract ? a.subtract(d) : a.add(d)).mod(MODULUS);
    }

    private static BigInteger toBig(long[] acc) {
        BigInteger r = BigInteger.ZERO;
        for (int i = LEN - 1; i >= 0; i--) {
            r = r.shiftLeft(64).or(BigInteger.valueOf(acc[i]).and(MASK64));
        }
        return r;
    }

    @Provide
    Arbitrary<Integer> shifts() {
        return Arbitraries.integers().between(0, 64 * LEN - 1);
    }

    @Provide
    Arbitrary<long[]> accumulators() {
        Arbitrary<Long> limb = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.just(-1L)),
                Tuple.of(3, Arbitraries.just(0L)),
                Tuple.of(4, Arbitraries.longs()));
        return limb.list().ofSize(LEN).map(l -> l.stream().mapToLong(Long::longValue).toArray());
    }
}
