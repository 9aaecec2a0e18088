package io.railgun.node.cli;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Durations in settings: a whole number and a unit, {@code 500ms}, {@code 10s}, {@code 5m} (or
 * {@code 5min}), {@code 1h}, {@code 7d}, or an ISO-8601 duration such as {@code PT10S}. A bare number
 * is refused: "10" could mean seconds or milliseconds.
 */
public final class Durations {
    private static final Pattern PATTERN = Pattern.compile("([0-9]+)\\s*(ms|s|m|min|h|d)");
    private static final String REASON =
            "not a duration (a whole number and a unit: 500ms, 10s, 5m, 1h, 7d; or ISO-8601 like PT10S)";

    private Durations() {
    }

    /** The duration in milliseconds; throws {@link IllegalArgumentException} with the reason. */
    public static long parseMs(String text) {
        String s = text.strip().toLowerCase(Locale.ROOT);
        try {
            if (s.startsWith("p")) {
                long ms = Duration.parse(s).toMillis();
                if (ms < 0) {
                    throw new IllegalArgumentException("not a duration of at least 0ms");
                }
                return ms;
            }
            var m = PATTERN.matcher(s);
            if (!m.matches()) {
                throw new IllegalArgumentException(REASON);
            }
            long n = Long.parseLong(m.group(1));
            long unitMs = switch (m.group(2)) {
                case "ms" -> 1;
                case "s" -> 1_000;
                case "m", "min" -> 60_000;
                case "h" -> 3_600_000;
                default -> 86_400_000;
            };
            return Math.multiplyExact(n, unitMs);
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(REASON);
        } catch (ArithmeticException | NumberFormatException e) {
            throw new IllegalArgumentException("too long a duration");
        }
    }

    /** The shortest text {@link #parseMs} reads back as {@code ms}: {@code 10s}, {@code 1h}, {@code 1500ms}. */
    public static String format(long ms) {
        if (ms == 0) {
            return "0s";
        }
        if (ms % 86_400_000 == 0) {
            return ms / 86_400_000 + "d";
        }
        if (ms % 3_600_000 == 0) {
            return ms / 3_600_000 + "h";
        }
        if (ms % 60_000 == 0) {
            return ms / 60_000 + "m";
        }
        if (ms % 1_000 == 0) {
            return ms / 1_000 + "s";
        }
        return ms + "ms";
    }
}
