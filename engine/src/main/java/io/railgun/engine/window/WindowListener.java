package io.railgun.engine.window;

import io.railgun.engine.event.EventRow;

/**
 * A downstream operator of a window in the task plan (a filter, then a group-by): receives the
 * window's arrive and expire streams. Each event of the window is delivered to {@link #arrive} once
 * and later to {@link #expire} once, in (timestamp, seq) order on each stream.
 */
public interface WindowListener {
    void arrive(long timestamp, long seq, EventRow row);

    void expire(long timestamp, long seq, EventRow row);
}
