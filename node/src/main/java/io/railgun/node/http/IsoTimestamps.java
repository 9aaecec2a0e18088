package io.railgun.node.http;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.format.ResolverStyle;
import java.time.temporal.TemporalAccessor;
import java.util.Locale;

/**
 * The ISO-8601 strings a {@code timestamp} field takes, in events and in point-read keys alike
 * (docs/http-api.md § Events, the table of values):
 * <ul>
 *   <li>a calendar date {@code YYYY-MM-DD} (a year beyond 9999 with a sign, {@code +10000-01-01}), then optionally {@code T} and a time {@code hh:mm},
 *       {@code hh:mm:ss} or {@code hh:mm:ss.fraction} (1 to 9 digits; those below the millisecond are
 *       cut, towards the past);</li>
 *   <li>then optionally {@code Z} or an offset {@code +hh:mm} (also {@code +hh:mm:ss}), {@code +hhmm},
 *       {@code +hh} (or {@code -}); without one the time is UTC, and a date alone is its midnight UTC;</li>
 *   <li>letters in either case ({@code t}, {@code z}); dates and times are checked strictly
 *       ({@code 2023-02-29}, {@code 24:00}, a leap second {@code 23:59:60} are refused).</li>
 * </ul>
 * Refused: a space instead of {@code T}, the basic format without separators ({@code 20240101T100000Z}),
 * week and ordinal dates, an hour without minutes, a comma before the fraction, zone names
 * ({@code [Europe/Paris]}), and instants beyond the range of epoch milliseconds. Stateless.
 */
final class IsoTimestamps {
    /** What the messages of a refused timestamp say is accepted. */
    static final String FORMS = "epoch milliseconds as a number, or an ISO-8601 string like \"2024-01-01T10:00:00Z\""
            + " (a date, then optionally T and hh:mm[:ss[.fraction]], then optionally Z or an offset like +02:00,"
            + " +0200 or +02; without one it is UTC)";
    private static final DateTimeFormatter LENIENT = new DateTimeFormatterBuilder()
            .parseCaseInsensitive().append(DateTimeFormatter.ISO_LOCAL_DATE)
            .optionalStart().appendLiteral('T').append(DateTimeFormatter.ISO_LOCAL_TIME).optionalEnd()
            .optionalStart().appendOffset("+HH:MM:ss", "Z").optionalEnd()
            .optionalStart().appendOffset("+HHMM", "Z").optionalEnd()
            .optionalStart().appendOffset("+HH", "Z").optionalEnd()
            .toFormatter(Locale.ROOT).withResolverStyle(ResolverStyle.STRICT);

    private IsoTimestamps() {}

    /**
     * Epoch milliseconds of {@code text}.
     *
     * @throws DateTimeParseException when it is not one of the forms above
     * @throws ArithmeticException    when the instant is beyond epoch milliseconds
     */
    static long parseMillis(String text) {
        // one grammar for every form: Instant.parse would add its own (24:00, leap seconds) to "Z" strings only
        int dot = text.indexOf('.');
        if (dot >= 0 && (dot + 1 == text.length() || !Character.isDigit(text.charAt(dot + 1)))) {
            throw new DateTimeParseException("a fraction without digits", text, dot); // the JDK takes "10:00:00.Z"
        }
        TemporalAccessor t = LENIENT.parseBest(text, OffsetDateTime::from, LocalDateTime::from, LocalDate::from);
        return switch (t) {
            case OffsetDateTime o -> o.toInstant().toEpochMilli();
            case LocalDateTime l -> l.toInstant(ZoneOffset.UTC).toEpochMilli();
            case LocalDate d -> d.atStartOfDay(ZoneOffset.UTC).toInstant().toEpochMilli();
            default -> throw new DateTimeParseException("not a date-time", text, 0);
        };
    }
}
