package io.railgun.engine.oracle;

import java.util.Objects;

/**
 * How an engine value is judged against the oracle's {@link ExpectedValue}.
 *
 * <ul>
 *   <li>null, Long, String, Boolean: equal, and of the same Java type (a COUNT must be a Long, a
 *       MIN of a double field a Double ...). No tolerance at all.
 *   <li>Double: a finite Double, equal to the exact value (the oracle computes it in exact
 *       arithmetic) within {@code max(1e-9 * |expected|, conditioning bound)}, or both below
 *       1e-300 in magnitude. 1e-9 relative is SPEC §5. The conditioning bound is what a brute-force
 *       recomputation of the window in double precision is itself guaranteed to achieve when the
 *       result is ill-conditioned (inputs cancel), so no correct engine can be asked for less:
 *       with n inputs in the window, u = 2^-53, S = sum of |x|, M = max |x|:
 *       <ul>
 *         <li>SUM: {@code 2 n u S}; AVG: {@code 2 u S} (the sum's bound divided by n);
 *         <li>VAR_POP, VAR_SAMP: {@code 4 (n u M)^2} (two-pass: the error of the mean, squared);
 *         <li>STDDEV_POP, STDDEV_SAMP: {@code 2 n u M} (the square root of that);
 *         <li>MIN, MAX, LAST: none (plain relative; they should even be bit-exact, which
 *             {@link Coverage} counts).
 *       </ul>
 *       For inputs of one sign the SUM/AVG bound is below 1e-9 relative, so it only matters for
 *       cancelling inputs. For variances it matters when the spread is tiny next to the values
 *       (the exact 0 of equal inputs included: then |actual| must be below 4 (n u M)^2, about
 *       1e-27 M^2 for 400 inputs). Everything is relative to the events IN the window: rounding
 *       residue of values that have left the window is not excused.
 * </ul>
 */
public final class Tolerance {
    public static final double RELATIVE = 1e-9;
    public static final double TINY = 1e-300;
    /** Unit roundoff of double, 2^-53. */
    public static final double U = 0x1p-53;

    private Tolerance() {}

    /** Null when {@code actual} is accepted, else why not. */
    public static String check(ExpectedValue expected, Object actual) {
        Object e = expected.value();
        if (e == null || actual == null) {
            return e == actual ? null : "expected " + SqlValues.describe(e) + " but was " + SqlValues.describe(actual);
        }
        if (e.getClass() != actual.getClass()) {
            return "expected " + SqlValues.describe(e) + " but was " + SqlValues.describe(actual) + " (wrong type)";
        }
        if (!(e instanceof Double ed)) {
            return Objects.equals(e, actual) ? null : "expected " + SqlValues.describe(e) + " but was " + SqlValues.describe(actual);
        }
        double a = (Double) actual;
        if (acceptsDouble(expected, ed, a)) {
            return null;
        }
        double rel = Math.abs(a - ed) / Math.max(Math.abs(ed), Double.MIN_NORMAL);
        return "expected " + ed + " but was " + a + " (relative error " + String.format("%.3g", rel)
                + ", allowed absolute error " + String.format("%.3g", bound(expected, ed)) + ")";
    }

    /** True when the value passes the plain 1e-9 relative rule, without the conditioning bound. */
    public static boolean strictlyEqual(ExpectedValue expected, Object actual) {
        if (expected.value() instanceof Double e && actual instanceof Double a) {
            return a.doubleValue() == e.doubleValue() || (Math.abs(a) < TINY && Math.abs(e) < TINY)
                    || Math.abs(a - e) <= RELATIVE * Math.abs(e);
        }
        return check(expected, actual) == null;
    }

    private static boolean acceptsDouble(ExpectedValue expected, double e, double a) {
        if (Double.isNaN(a) || Double.isInfinite(a)) {
            return false;
        }
        if (a == e || (Math.abs(a) < TINY && Math.abs(e) < TINY)) {
            return true;
        }
        return Math.abs(a - e) <= bound(expected, e);
    }

    /** The absolute error allowed. */
    public static double bound(ExpectedValue expected, double e) {
        double n = expected.inputs();
        double conditioning = switch (expected.kind()) {
            case SUM -> 2 * n * U * expected.scale();
            case AVG -> 2 * U * expected.scale();
            case VAR_POP, VAR_SAMP -> 4 * (n * U * expected.scale()) * (n * U * expected.scale());
            case STDDEV_POP, STDDEV_SAMP, STDDEV -> 2 * n * U * expected.scale();
            default -> 0;
        };
        return Math.max(RELATIVE * Math.abs(e), conditioning);
    }
}
