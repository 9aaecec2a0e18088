package io.railgun.engine.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

/**
 * {@link WideInteger#toDouble} rounds an unsigned integer of several limbs once to the nearest
 * double, as {@link BigDecimal#doubleValue()} does, including values just above a tie (whose
 * deciding bits lie below the 64 bits kept, or in the lowest of them).
 */
class WideIntegerToDoubleTest {
    private static final int LEN = 3;

    @Property(tries = 5000)
    void aWideIntegerRoundsOnceToTheNearestDouble(@ForAll("integers") long[] v) {
        double expected = new BigDecimal(toBig(v)).doubleValue();
        assertThat(WideInteger.toDouble(v, 0, LEN)).isEqualTo(expected);
    }

    /** The 64 bits under the top one end in a tie (1 then ten 0s) and a 1: the value is above it, so it rounds up. */
    @Test
    void aValueJustAboveATieRoundsUp() {
        long[] v = {0, 0x8000_0000_0000_0401L, 0}; // 2^127 + 2^74 + 2^64
        double expected = new BigDecimal(toBig(v)).doubleValue();
        assertThat(expected).isEqualTo(Math.scalb(1.0, 127) + Math.scalb(1.0, 75));
        assertThat(WideInteger.toDouble(v, 0, LEN)).isEqualTo(expected);
    }

    /** A top limb with its top bit set (no shift) ends in a tie; the limb under it, all dropped, holds a 1. */
    @Test
    void aTieAboveADroppedLimbRoundsUp() {
        long[] v = {0, 1, 0xFFFF_FFFF_FFFF_F400L}; // found by the property above
        double expected = new BigDecimal(toBig(v)).doubleValue();
        assertThat(expected).isEqualTo(Math.scalb((double) ((1L << 53) - 1), 139)); // up: 2^192 - 2^139, not the 2^139 below
        assertThat(WideInteger.toDouble(v, 0, LEN)).isEqualTo(expected);
    }

    /** Limbs whose bits near the rounding point are often a tie, with or without lower bits set. */
    @Provide
    Arbitrary<long[]> integers() {
        Arbitrary<Long> limb = Arbitraries.oneOf(
                Arbitraries.longs(),
                Arbitraries.of(0L, -1L, 1L, Long.MIN_VALUE),
                Arbitraries.longs().map(x -> (x & ~0x7FFL) | 0x400L),
                Arbitraries.longs().map(x -> (x & ~0x7FFL) | 0x401L),
                Arbitraries.integers().between(0, 63).map(b -> 1L << b));
        return limb.array(long[].class).ofSize(LEN);
    }

    private static BigInteger toBig(long[] v) {
        BigInteger b = BigInteger.ZERO;
        for (int i = v.length - 1; i >= 0; i--) {
            b = b.shiftLeft(64).or(new BigInteger(Long.toUnsignedString(v[i])));
        }
        return b;
    }
}
