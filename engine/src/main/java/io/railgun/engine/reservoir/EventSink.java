package io.railgun.engine.reservoir;

import io.railgun.engine.event.EventRow;

/**
 * Receives events from a {@link ReservoirCursor}. A translator-style callback (no capturing lambda
 * per event): {@code row} is a flyweight valid only during the call.
 */
@FunctionalInterface
public interface EventSink {
    void accept(long timestamp, long seq, EventRow row);
}
