package io.railgun.engine.reservoir;

import io.railgun.engine.event.EventRow;

/**
 * Receives events from a {@link ReservoirCursor}. A translator-style callback (no capturing lambda
 * per event): {@code row} is a flyweight valid only during the call.
 */
@FunctionalInterface
public interface EventSink {
    /** A sink that takes no event: for cursors that only keep events in the reservoir. */
    EventSink NONE = (timestamp, seq, row) -> {};

    void accept(long timestamp, long seq, EventRow row);
}
