package io.railgun.engine.event;

/**
 * The accepted range of event timestamps (docs/semantics.md § Timestamps): epoch milliseconds from
 * {@code 0001-01-01T00:00:00Z} to {@code 9999-12-31T23:59:59.999Z} inclusive, the years of a
 * four-digit ISO-8601 date. An event whose timestamp lies outside is refused before it is counted
 * (HTTP 400 {@value #ERROR_CODE} at the node, {@link TimestampOutOfRangeException} in the engine):
 * its id is not remembered and no window sees it.
 *
 * <p>Why a range at all: the engine uses {@code Long.MIN_VALUE} as "before the first event" and
 * window edges are {@code T - D - W} with saturating arithmetic; keeping timestamps about 2^62 ms
 * away from either end of a long leaves every window (sizes up to 2^63 - 1 ms, {@code RANGE
 * UNBOUNDED}) exact for every accepted event, and no edge arithmetic on an accepted timestamp
 * reaches the sentinels. Stateless.
 */
public final class EventTime {
    /** {@code 0001-01-01T00:00:00.000Z} in epoch milliseconds: the smallest accepted timestamp. */
    public static final long MIN_MS = -62_135_596_800_000L;
    /** {@code 9999-12-31T23:59:59.999Z} in epoch milliseconds: the largest accepted timestamp. */
    public static final long MAX_MS = 253_402_300_799_999L;
    /** The node's stable error code for a timestamp outside the range. */
    public static final String ERROR_CODE = "timestamp_out_of_range";
    /** The range in words, for messages. */
    public static final String RANGE_TEXT = "from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z (epoch milliseconds "
            + MIN_MS + " to " + MAX_MS + ")";

    private EventTime() {}

    /** True when {@code ms} is an accepted event timestamp. */
    public static boolean accepted(long ms) {
        return ms >= MIN_MS && ms <= MAX_MS;
    }

    /** The message for a refused timestamp {@code ms} of field {@code field}. */
    public static String refusal(String field, long ms) {
        return "the event time " + ms + " of '" + field + "' is outside the accepted range " + RANGE_TEXT;
    }

    /**
     * Thrown by the engine's entry points for an event whose timestamp is outside the range; the
     * event was not counted and its id not remembered.
     */
    public static final class TimestampOutOfRangeException extends IllegalArgumentException {
        private final long timestampMs;

        public TimestampOutOfRangeException(String field, long timestampMs) {
            super(refusal(field, timestampMs));
            this.timestampMs = timestampMs;
        }

        /** The refused timestamp. */
        public long timestampMs() {
            return timestampMs;
        }
    }
}
