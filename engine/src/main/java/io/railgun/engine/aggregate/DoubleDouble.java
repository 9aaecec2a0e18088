package io.railgun.engine.aggregate;

/**
 * Double-double arithmetic (an unevaluated sum hi + lo carrying ~106 bits), used so that sums and
 * sums of squares that are added to and subtracted from for the life of a window do not drift:
 * removing a value restores the previous sum to within ~2^-104 of the largest magnitude seen,
 * instead of the ~2^-52 a plain double would leave behind (Dekker, Knuth TwoSum; the QD library's
 * accurate addition). Values live in
 * caller-owned state records (two longs holding the raw bits of hi and lo) so state stays primitive.
 * All methods are static and allocation-free.
 */
final class DoubleDouble {
    private DoubleDouble() {}

    /** {@code record[at..at+1] += (bHi, bLo)}: hi and lo stored as raw double bits, accurate two-sum addition. */
    static void add(long[] record, int at, double bHi, double bLo) {
        double aHi = Double.longBitsToDouble(record[at]);
        double aLo = Double.longBitsToDouble(record[at + 1]);
        double s = aHi + bHi;
        double bb = s - aHi;
        double e = (aHi - (s - bb)) + (bHi - bb);
        double t = aLo + bLo;
        double tb = t - aLo;
        double f = (aLo - (t - tb)) + (bLo - tb);
        e += t;
        double s1 = s + e;
        e = e - (s1 - s);
        e += f;
        double h = s1 + e;
        record[at] = Double.doubleToRawLongBits(h);
        record[at + 1] = Double.doubleToRawLongBits(e - (h - s1));
    }

    /** Adds {@code sign * x * x} (the square computed exactly with an FMA). */
    static void addSquare(long[] record, int at, double x, double sign) {
        double p = x * x;
        double err = Math.fma(x, x, -p);
        add(record, at, sign * p, sign * err);
    }

    static double hi(long[] record, int at) {
        return Double.longBitsToDouble(record[at]);
    }

    static double lo(long[] record, int at) {
        return Double.longBitsToDouble(record[at + 1]);
    }

    /** The rounded double value of the pair at {@code record[at..at+1]}. */
    static double value(long[] record, int at) {
        return hi(record, at) + lo(record, at);
    }

    /**
     * The centred second moment {@code M2 = S2 - S1^2 / n} from double-double power sums, in
     * double-double, rounded to a double; never negative.
     */
    static double centredSecondMoment(double s1Hi, double s1Lo, double s2Hi, double s2Lo, long n) {
        // q = S1 * S1 (double-double product)
        double p = s1Hi * s1Hi;
        double pe = Math.fma(s1Hi, s1Hi, -p) + 2.0 * s1Hi * s1Lo;
        double qHi = p + pe;
        double qLo = pe - (qHi - p);
        // q / n
        double dn = (double) n;
        double d1 = qHi / dn;
        double r = Math.fma(-d1, dn, qHi) + qLo;
        double d2 = r / dn;
        double divHi = d1 + d2;
        double divLo = d2 - (divHi - d1);
        // S2 - q / n
        double s = s2Hi - divHi;
        double bb = s - s2Hi;
        double e = (s2Hi - (s - bb)) + (-divHi - bb);
        e += s2Lo - divLo;
        double m2 = s + e;
        return m2 > 0 ? m2 : 0.0;
    }
}
