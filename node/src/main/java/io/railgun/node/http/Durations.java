package io.railgun.node.http;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Durations of stream definitions ({@code lateness}, {@code retention}): a whole number and a unit,
 * {@code "250ms"}, {@code "5s"}, {@code "1m"}, {@code "2h"}, {@code "7d"}, {@code "1w"}, also with
 * the query language's unit words ({@code "5 minutes"}); case-insensitive, spaces allowed between
 * number and unit. {@code "0"} alone is zero. Written back in the largest unit that divides exactly
 * ({@code 300000} → {@code "5m"}, {@code 0} → {@code "0s"}).
 */
final class Durations {
    private static final Pattern DURATION = Pattern.compile("\\s*(\\d{1,19})\\s*([a-z]*)\\s*");
    private static final long SECOND = 1_000;
    private static final long MINUTE = 60 * SECOND;
    private static final long HOUR = 60 * MINUTE;
    private static final long DAY = 24 * HOUR;
    private static final long WEEK = 7 * DAY;
    static final String FORMAT_HINT = "write a whole number and a unit, like \"250ms\", \"5s\", \"1m\", \"2h\" or \"7d\""
            + " (units ms, s, m, h, d, w), or a number of milliseconds";

    private Durations() {}

    /**
     * Parses a duration string to milliseconds.
     *
     * @throws IllegalArgumentException with a message saying what is wrong and the valid forms
     */
    static long parseMs(String text) {
        Matcher m = DURATION.matcher(text.toLowerCase(Locale.ROOT));
        if (!m.matches()) {
            throw new IllegalArgumentException("\"" + text + "\" is not a duration; " + FORMAT_HINT);
        }
        long amount;
        try {
            amount = Long.parseLong(m.group(1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("\"" + text + "\" is too long a duration; " + FORMAT_HINT);
        }
        String unit = m.group(2);
        long unitMs = switch (unit) {
            case "ms", "millisecond", "milliseconds" -> 1;
            case "s", "second", "seconds" -> SECOND;
            case "m", "minute", "minutes" -> MINUTE;
            case "h", "hour", "hours" -> HOUR;
            case "d", "day", "days" -> DAY;
            case "w", "week", "weeks" -> WEEK;
            case "" -> amount == 0 ? 1 : -1;
            default -> -1;
        };
        if (unitMs < 0) {
            String problem = unit.isEmpty() ? "has no unit" : "has an unknown unit \"" + m.group(2) + "\"";
            throw new IllegalArgumentException("duration \"" + text + "\" " + problem + "; " + FORMAT_HINT);
        }
        try {
            return Math.multiplyExact(amount, unitMs);
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException("\"" + text + "\" is too long a duration; " + FORMAT_HINT);
        }
    }

    /** The shortest exact string of a non-negative duration. */
    static String format(long ms) {
        if (ms == 0) {
            return "0s";
        }
        if (ms % DAY == 0) {
            return ms / DAY + "d";
        }
        if (ms % HOUR == 0) {
            return ms / HOUR + "h";
        }
        if (ms % MINUTE == 0) {
            return ms / MINUTE + "m";
        }
        if (ms % SECOND == 0) {
            return ms / SECOND + "s";
        }
        return ms + "ms";
    }
}
