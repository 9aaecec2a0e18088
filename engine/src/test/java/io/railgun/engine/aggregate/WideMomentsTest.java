package io.railgun.engine.aggregate;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Random;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

/**
 * {@link WideMoments}' units are exact for every finite double, and its roundings of exact ratios
 * (and of their square roots) are correct, checked against exact BigDecimal arithmetic, subnormal
 * and overflowing results included.
 */
class WideMomentsTest {
    private static final BigDecimal TWO = BigDecimal.valueOf(2);

    @Property(tries = 2000)
    void unitsAreExact(@ForAll long bits) {
        double x = Double.longBitsToDouble(bits);
        if (!Double.isFinite(x)) {
            return;
        }
        BigInteger units = WideMoments.units(x);
        assertThat(new BigDecimal(units)).as("%s", x).isEqualByComparingTo(new BigDecimal(x).multiply(TWO.pow(1074)));
        assertThat(new BigDecimal(units.multiply(units))).isEqualByComparingTo(
                new BigDecimal(x).pow(2).multiply(TWO.pow(2148)));
    }

    @Property(tries = 3000)
    void quotientsAreCorrectlyRounded(@ForAll long seed) {
        Random random = new Random(seed);
        BigInteger num = randomInteger(random, 1 + random.nextInt(400));
        if (random.nextBoolean()) {
            num = num.negate();
        }
        BigInteger den = randomInteger(random, 1 + random.nextInt(200)).max(BigInteger.ONE);
        int scaleBits = random.nextInt(2600) - 300;
        check(WideMoments.quotient(num, den, scaleBits), num, den, scaleBits, false);
    }

    @Property(tries = 3000)
    void rootsAreCorrectlyRounded(@ForAll long seed) {
        Random random = new Random(seed);
        BigInteger num = randomInteger(random, random.nextInt(400));
        if (random.nextInt(4) == 0) { // a perfect square over a power of two: exact roots, and ties
            num = num.multiply(num);
        }
        BigInteger den = random.nextInt(4) == 0 ? BigInteger.ONE : randomInteger(random, 1 + random.nextInt(200)).max(BigInteger.ONE);
        int scaleBits = 2 * (random.nextInt(1300) - 100);
        check(WideMoments.sqrtOfQuotient(num, den, scaleBits), num, den, scaleBits, true);
    }

    @Example
    void tiesGoToEven() {
        assertThat(WideMoments.quotient(BigInteger.valueOf((1L << 53) + 1), BigInteger.ONE, 0)).isEqualTo(0x1p53);
        assertThat(WideMoments.quotient(BigInteger.valueOf((1L << 53) + 3), BigInteger.ONE, 0)).isEqualTo(0x1p53 + 4);
        assertThat(WideMoments.quotient(BigInteger.ONE, BigInteger.ONE, 1075)).as("half the least subnormal").isEqualTo(0.0);
        assertThat(WideMoments.quotient(BigInteger.valueOf(3), BigInteger.ONE, 1076)).isEqualTo(Double.MIN_VALUE);
        assertThat(WideMoments.quotient(BigInteger.valueOf(-3), BigInteger.ONE, 1075)).isEqualTo(-2 * Double.MIN_VALUE);
    }

    @Example
    void theRootOfAVarianceThatUnderflowsIsNotZero() {
        // the variance of {0, 2^-1073} is 2^-2148: 0 as a double, but its root is 2^-1074
        WideMoments sums = new WideMoments();
        sums.add(0.0, true, false);
        sums.add(2 * Double.MIN_VALUE, true, false);
        assertThat(sums.result(io.railgun.engine.query.AggregateFunction.VAR_POP, BigInteger.ZERO, BigInteger.ZERO, 2)).isEqualTo(0.0);
        assertThat(sums.result(io.railgun.engine.query.AggregateFunction.STDDEV_POP, BigInteger.ZERO, BigInteger.ZERO, 2))
                .isEqualTo(Double.MIN_VALUE);
    }

    @Example
    void beyondTheDoubleRangeIsInfinite() {
        BigInteger max = WideMoments.units(Double.MAX_VALUE);
        assertThat(WideMoments.quotient(max.shiftLeft(1), BigInteger.ONE, WideMoments.S1_SCALE_BITS)).isInfinite();
        assertThat(WideMoments.quotient(max.shiftLeft(1), BigInteger.TWO, WideMoments.S1_SCALE_BITS)).isEqualTo(Double.MAX_VALUE);
    }

    private static void check(double r, BigInteger num, BigInteger den, int scaleBits, boolean root) {
        BigDecimal n = new BigDecimal(num);
        BigDecimal d = new BigDecimal(den);
        if (scaleBits >= 0) {
            d = d.multiply(TWO.pow(scaleBits));
        } else {
            n = n.multiply(TWO.pow(-scaleBits));
        }
        String what = (root ? "sqrt " : "") + num + " / " + den + " * 2^-" + scaleBits + " = " + r;
        if (RoundingCheck.overflows(n, d, root)) {
            assertThat(r).as(what).isInfinite();
        } else {
            assertThat(RoundingCheck.near(r, 0, n, d, root)).as(what).isTrue();
        }
    }

    /** A random non-negative integer of up to {@code bits} bits, often with long runs of ones or zeros. */
    private static BigInteger randomInteger(Random random, int bits) {
        BigInteger v = new BigInteger(bits, random);
        return switch (random.nextInt(4)) {
            case 0 -> BigInteger.ONE.shiftLeft(bits).subtract(BigInteger.ONE).subtract(BigInteger.valueOf(random.nextInt(3))).max(BigInteger.ZERO);
            case 1 -> v.shiftRight(bits / 2).shiftLeft(bits / 2).add(BigInteger.valueOf(random.nextInt(2)));
            default -> v;
        };
    }
}
