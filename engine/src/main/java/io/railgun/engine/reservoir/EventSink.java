package io.railgun.engine.reservoir;

import io.railgun.engine.event.EventRow;

/**
 * Receives events from a {@link ReservoirCursor}. A translator-style callback (no capturing lambda
 * per event): {@code row} is a flyweight valid only during the call. A sink must not move the cursor
 * that calls it; it may close it (the cursor then stops at once: its chunk's arrays may already be
 * another chunk's).
 */
@FunctionalInterface
public interface EventSink {
    /** A sink that takes no event: for cursors that only keep events in the reservoir. */
    EventSink NONE = (timestamp, seq, row) -> {};

    void accept(long timestamp, long seq, EventRow row);
}
