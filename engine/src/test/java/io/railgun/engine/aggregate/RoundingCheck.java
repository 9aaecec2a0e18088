package io.railgun.engine.aggregate;

import java.math.BigDecimal;

/**
 * Exact checks of a double against a ratio of exact decimals, for the moments tests: no decimal
 * approximation of the true value is rounded, so a correct-rounding claim is checked as such.
 */
final class RoundingCheck {
    private static final BigDecimal HALF = new BigDecimal("0.5");
    /** Where rounding to nearest goes to infinity: MAX_VALUE plus half its ulp. */
    static final BigDecimal OVERFLOW = new BigDecimal(Double.MAX_VALUE).add(new BigDecimal(Math.ulp(Double.MAX_VALUE)).multiply(HALF));

    private RoundingCheck() {}

    /**
     * Whether {@code r} is within {@code ulps} of v = num / den (den > 0), or of sqrt(v) when
     * {@code root}, counting in r's own neighbours' gaps; 0 ulps means correctly rounded (up to
     * which way a tie goes): v lies between the midpoints from r to its neighbours.
     */
    static boolean near(double r, int ulps, BigDecimal num, BigDecimal den, boolean root) {
        BigDecimal x = new BigDecimal(r);
        BigDecimal slack = BigDecimal.valueOf(ulps).add(HALF);
        double down = Math.nextDown(r);
        double up = Math.nextUp(r);
        BigDecimal below = new BigDecimal(Double.isInfinite(down) ? Math.ulp(r) : r - down);
        BigDecimal above = new BigDecimal(Double.isInfinite(up) ? Math.ulp(r) : up - r);
        BigDecimal lo = x.subtract(below.multiply(slack));
        BigDecimal hi = x.add(above.multiply(slack));
        if (root) {
            lo = lo.signum() < 0 ? BigDecimal.ZERO : lo.multiply(lo);
            hi = hi.multiply(hi);
        }
        return lo.multiply(den).compareTo(num) <= 0 && num.compareTo(hi.multiply(den)) <= 0;
    }

    /** Whether v = num / den (or its root) rounds to an infinity: beyond the double range. */
    static boolean overflows(BigDecimal num, BigDecimal den, boolean root) {
        BigDecimal bound = root ? OVERFLOW.multiply(OVERFLOW) : OVERFLOW;
        return num.abs().compareTo(bound.multiply(den)) >= 0;
    }
}
