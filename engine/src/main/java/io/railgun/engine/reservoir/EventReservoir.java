package io.railgun.engine.reservoir;

import io.railgun.engine.event.EventRow;

/**
 * All counted events of one task, ordered by (timestamp, seq), read by the windows through cursors
 * (paper §4.1.1). Events may arrive out of order, but never before any event that no cursor
 * needs any more (the task guarantees this through its lateness and its cursors' boundaries).
 *
 * <p>When an event is inserted at or before a cursor's boundary, the cursor counts it as passed: the
 * reservoir only does the bookkeeping; delivering such an event to the windows is the task plan's
 * job (it knows which windows must see it first). Events behind every cursor may be discarded.
 *
 * <p>Owned by one task's thread. Implementations: {@link InMemoryReservoir}; the on-disk chunked one
 * comes with the reservoir issue.
 */
public interface EventReservoir extends AutoCloseable {
    /** Stores a counted event (its bytes are copied). {@code seq} grows with every call. */
    void insert(long timestamp, long seq, EventRow row);

    /**
     * Promises that no event with a timestamp below {@code timestamp} will be inserted any more (the
     * task calls it with stream time minus lateness as stream time advances; it never decreases).
     * Events below it are final: an on-disk reservoir may close and persist the chunks holding them.
     */
    void advanceWatermark(long timestamp);

    /** Opens a cursor that has passed every event with timestamp &lt;= {@code boundary}. */
    ReservoirCursor openCursor(long boundary);

    /** Discards events that every open cursor has passed. */
    void trim();

    /** Number of events held. */
    long size();

    /** Bytes of event data held in memory. */
    long memoryBytes();

    /** Nanoseconds the task waited, since the reservoir was opened, for writes of events to keep up (0: never). */
    default long writeWaitNanos() {
        return 0;
    }

    @Override
    void close();
}
