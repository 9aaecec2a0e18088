package io.railgun.engine.oracle;

/**
 * A window of SPEC §5 as the oracle applies it: which counted timestamps {@code t} are inside at
 * stream time {@code T}.
 *
 * @param kind    sliding, tumbling or unbounded
 * @param sizeMs  W (0 for unbounded)
 * @param delayMs D (sliding only)
 */
public record WindowDef(Kind kind, long sizeMs, long delayMs) {
    public enum Kind { SLIDING, TUMBLING, UNBOUNDED }

    public WindowDef {
        if (kind != Kind.UNBOUNDED && sizeMs < 1) {
            throw new IllegalArgumentException("window size must be at least 1 ms");
        }
        if (delayMs < 0 || (delayMs > 0 && kind != Kind.SLIDING)) {
            throw new IllegalArgumentException("delay only on sliding windows, not negative");
        }
    }

    public static WindowDef sliding(long sizeMs) {
        return new WindowDef(Kind.SLIDING, sizeMs, 0);
    }

    public static WindowDef sliding(long sizeMs, long delayMs) {
        return new WindowDef(Kind.SLIDING, sizeMs, delayMs);
    }

    public static WindowDef tumbling(long sizeMs) {
        return new WindowDef(Kind.TUMBLING, sizeMs, 0);
    }

    public static WindowDef unbounded() {
        return new WindowDef(Kind.UNBOUNDED, 0, 0);
    }

    /** Sliding: {@code T-D-W < t <= T-D}; tumbling: same epoch-aligned bucket and {@code t <= T}; unbounded: {@code t <= T}. */
    public boolean contains(long t, long streamTime) {
        return switch (kind) {
            case SLIDING -> t > streamTime - delayMs - sizeMs && t <= streamTime - delayMs;
            case TUMBLING -> Math.floorDiv(t, sizeMs) == Math.floorDiv(streamTime, sizeMs) && t <= streamTime;
            case UNBOUNDED -> t <= streamTime;
        };
    }

    /**
     * The window as an interval of timestamps at stream time T: {@code lowerExclusive(T) < t <= upperInclusive(T)}.
     * Equivalent to {@link #contains} (which states SPEC §5 literally); the oracle uses the interval
     * to find a window's events by binary search and checks each against {@link #contains}.
     */
    public long lowerExclusive(long streamTime) {
        return switch (kind) {
            case SLIDING -> streamTime - delayMs - sizeMs;
            case TUMBLING -> Math.floorDiv(streamTime, sizeMs) * sizeMs - 1;
            case UNBOUNDED -> Long.MIN_VALUE;
        };
    }

    /** See {@link #lowerExclusive}. */
    public long upperInclusive(long streamTime) {
        return kind == Kind.SLIDING ? streamTime - delayMs : streamTime;
    }

    /** How far back the window reaches, for the dedup horizon: W + D, W, or 0 for unbounded. */
    public long extentMs() {
        return switch (kind) {
            case SLIDING -> sizeMs + delayMs;
            case TUMBLING -> sizeMs;
            case UNBOUNDED -> 0;
        };
    }

    /** A short label for coverage tables: SLIDING, DELAYED, TUMBLING, UNBOUNDED. */
    public String label() {
        return kind == Kind.SLIDING && delayMs > 0 ? "DELAYED" : kind.name();
    }

    /** The bracket clause, e.g. {@code [RANGE 5 MINUTES DELAY 1 MINUTE]}. */
    public String sql() {
        return switch (kind) {
            case SLIDING -> "[RANGE " + Durations.sql(sizeMs) + (delayMs > 0 ? " DELAY " + Durations.sql(delayMs) : "") + "]";
            case TUMBLING -> "[TUMBLING " + Durations.sql(sizeMs) + "]";
            case UNBOUNDED -> "[RANGE UNBOUNDED]";
        };
    }
}
