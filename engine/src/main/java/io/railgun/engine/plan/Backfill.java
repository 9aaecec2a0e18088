package io.railgun.engine.plan;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.reservoir.EventReservoir;
import io.railgun.engine.window.WindowBounds;
import io.railgun.engine.window.WindowCursor;
import io.railgun.engine.window.WindowNode;

/**
 * A window being filled from the reservoir's history, on private cursors behind the shared
 * ones: its head walks from where the window's tail is towards the live head in steps, its tail
 * follows (never ahead of the head). Its metrics are left out of replies until it has caught
 * up; then {@link TaskPlan} closes it and moves the window onto the shared {@link WindowCursors}.
 *
 * <p>Owned by the task's thread.
 */
final class Backfill {
    final String windowKey;
    final WindowNode window;
    private final WindowCursor head;
    private final WindowCursor tail; // null for unbounded windows
    private final long start;
    private final long from;
    private long sliceMs; // event time per step: a 16th of the history at first, then sized to take ~1 ms

    /**
     * Opens the private cursors of {@code window}.
     *
     * @param headBoundary where the head is (restore), or Long.MIN_VALUE to start it at the
     *                     window's tail at {@code streamTime}
     * @param tailBoundary where the tail is (restore; ignored when starting)
     */
    Backfill(String windowKey, WindowNode window, EventReservoir reservoir, long streamTime, long headBoundary,
             long tailBoundary) {
        this.windowKey = windowKey;
        this.window = window;
        WindowBounds.Edge tailEdge = WindowBounds.tail(window.spec());
        long start = headBoundary != Long.MIN_VALUE ? headBoundary
                : tailEdge == null || streamTime == Long.MIN_VALUE ? Long.MIN_VALUE : tailEdge.boundary(streamTime);
        this.start = start;
        this.head = new WindowCursor(WindowBounds.head(window.spec()), reservoir, start);
        head.addWindow(window);
        if (tailEdge != null) {
            this.tail = new WindowCursor(tailEdge, reservoir, headBoundary != Long.MIN_VALUE ? tailBoundary : start);
            tail.addWindow(window);
        } else {
            this.tail = null;
        }
        this.from = head.boundary();
    }

    /** The boundary the head was opened at. */
    long start() {
        return start;
    }

    /**
     * One step: a slice of event time sized to take about a millisecond; returns true when the
     * head has reached the live head's boundary at {@code streamTime}.
     */
    boolean step(long streamTime) {
        long target = WindowBounds.head(window.spec()).boundary(streamTime);
        long at = head.boundary();
        if (sliceMs == 0) {
            sliceMs = at == Long.MIN_VALUE ? 1 : Math.max(1, (target - at) / 16);
        }
        long next = at == Long.MIN_VALUE || target - at <= sliceMs ? target : at + sliceMs;
        long started = System.nanoTime();
        head.advanceTo(next);
        if (tail != null) {
            long tailTarget = tail.edge().boundary(streamTime);
            tail.advanceTo(Math.min(tailTarget, head.boundary()));
            if (tailTarget > head.boundary()) {
                // events between have left the window before the backfill reached them
                head.skipTo(tailTarget);
                tail.skipTo(tailTarget);
            }
        }
        long took = System.nanoTime() - started;
        sliceMs = took > 2_000_000 ? Math.max(1, sliceMs / 2) : took < 500_000 ? Math.min(sliceMs * 2, 1L << 40) : sliceMs;
        return head.boundary() >= target;
    }

    /** Hands an event inserted at or behind the private edges to the window: head first, then tail. */
    void inserted(long timestamp, long seq, EventRow row) {
        if (timestamp <= head.boundary()) {
            head.passed(timestamp, seq, row);
        }
        if (tail != null && timestamp <= tail.boundary()) {
            tail.passed(timestamp, seq, row);
        }
    }

    /** Event time covered over event time to cover, in [0, 1). */
    double progress(long streamTime) {
        long target = WindowBounds.head(window.spec()).boundary(streamTime);
        if (from == Long.MIN_VALUE || target <= from) {
            return 0;
        }
        return Math.min(0.999, (double) (head.boundary() - from) / (target - from));
    }

    /** The private head and tail boundaries (for checkpoints); the tail's is Long.MIN_VALUE when unbounded. */
    long[] position() {
        return new long[] {head.boundary(), tail == null ? Long.MIN_VALUE : tail.boundary()};
    }

    /** Closes the private cursors. */
    void close() {
        head.close();
        if (tail != null) {
            tail.close();
        }
    }
}
