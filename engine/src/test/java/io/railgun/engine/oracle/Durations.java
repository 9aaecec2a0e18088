package io.railgun.engine.oracle;

/** Milliseconds as query-language durations ({@code 90 SECONDS}, {@code 1 DAY}, {@code 1234 MILLISECONDS}). */
public final class Durations {
    public static final long SECOND = 1000L;
    public static final long MINUTE = 60 * SECOND;
    public static final long HOUR = 60 * MINUTE;
    public static final long DAY = 24 * HOUR;
    public static final long WEEK = 7 * DAY;

    private static final long[] UNITS = {WEEK, DAY, HOUR, MINUTE, SECOND, 1};
    private static final String[] NAMES = {"WEEK", "DAY", "HOUR", "MINUTE", "SECOND", "MILLISECOND"};

    private Durations() {}

    /** The largest unit that divides {@code ms} exactly; singular for 1. */
    public static String sql(long ms) {
        for (int i = 0; i < UNITS.length; i++) {
            if (ms % UNITS[i] == 0) {
                long n = ms / UNITS[i];
                return n + " " + NAMES[i] + (n == 1 ? "" : "S");
            }
        }
        throw new AssertionError();
    }

    /** A readable duration for dumps, e.g. {@code 2d03:04:05.006}. */
    public static String show(long ms) {
        String sign = ms < 0 ? "-" : "";
        long a = Math.abs(ms);
        long d = a / DAY;
        long h = a % DAY / HOUR;
        long m = a % HOUR / MINUTE;
        long s = a % MINUTE / SECOND;
        long milli = a % SECOND;
        return String.format("%s%s%02d:%02d:%02d.%03d", sign, d > 0 ? d + "d" : "", h, m, s, milli);
    }
}
