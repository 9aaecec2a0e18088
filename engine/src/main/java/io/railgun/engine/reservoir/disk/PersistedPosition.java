package io.railgun.engine.reservoir.disk;

/**
 * How far a {@link DiskReservoir}'s files reach: every event counted up to and including
 * ({@code timestamp}, {@code seq}) in the reservoir's (timestamp, seq) order is on disk (unless
 * trimmed), and no event after it. After a restart the task re-inserts, from Kafka, the events
 * after this position; {@code maxSeq} (the largest seq on disk, which out-of-order events make
 * differ from {@code seq}) tells where its seq counter must resume.
 *
 * @param timestamp timestamp of the last persisted event, Long.MIN_VALUE when none
 * @param seq       seq of that event, -1 when none
 * @param maxSeq    the largest seq persisted, -1 when none
 */
public record PersistedPosition(long timestamp, long seq, long maxSeq) {
    public static final PersistedPosition NONE = new PersistedPosition(Long.MIN_VALUE, -1, -1);

    public boolean isEmpty() {
        return seq < 0 && timestamp == Long.MIN_VALUE;
    }

    /** Whether an event is at or before this position, i.e. was persisted (or trimmed). */
    public boolean covers(long eventTimestamp, long eventSeq) {
        return eventTimestamp < timestamp || (eventTimestamp == timestamp && eventSeq <= seq);
    }
}
