package io.railgun.engine.reservoir;

/**
 * A position in an {@link EventReservoir} that moves forward in (timestamp, seq) order: the head or
 * tail of one or more windows. A cursor has "passed" every event with timestamp &lt;= its
 * {@link #boundary()}. Owned by the task's thread.
 */
public interface ReservoirCursor {
    /** Timestamp up to which (inclusive) this cursor has passed all events. */
    long boundary();

    /**
     * Moves the boundary forward to {@code newBoundary} (no-op when not ahead), handing every event
     * passed on the way to {@code sink}, in (timestamp, seq) order.
     */
    void advanceTo(long newBoundary, EventSink sink);

    /**
     * Moves the boundary forward to {@code newBoundary} (no-op when not ahead) without handing the
     * events passed to anyone: for a cursor that only keeps events in the reservoir (a retention or
     * dedup-horizon boundary). A reservoir may pass stored events without reading them; a later
     * {@link #advanceTo} still hands only the events after the boundary.
     */
    default void skipTo(long newBoundary) {
        advanceTo(newBoundary, EventSink.NONE);
    }

    /** Detaches the cursor: the reservoir no longer keeps events for it. */
    void close();
}
