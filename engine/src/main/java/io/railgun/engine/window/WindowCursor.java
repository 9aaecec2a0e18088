package io.railgun.engine.window;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.reservoir.EventReservoir;
import io.railgun.engine.reservoir.EventSink;
import io.railgun.engine.reservoir.ReservoirCursor;
import java.util.ArrayList;
import java.util.List;

/**
 * A reservoir cursor at one window edge, shared by every window with that edge: as stream time
 * advances it passes events and hands each to its windows, as an arrival (head edges) or an expiry
 * (tail edges). A late event inserted behind the cursor is handed over through {@link #passed}.
 */
public final class WindowCursor implements EventSink {
    private final WindowBounds.Edge edge;
    private final ReservoirCursor cursor;
    private final boolean head;
    private final List<WindowNode> windows = new ArrayList<>();
    private WindowNode[] dispatch = new WindowNode[0];

    public WindowCursor(WindowBounds.Edge edge, EventReservoir reservoir, long initialBoundary) {
        this.edge = edge;
        this.cursor = reservoir.openCursor(initialBoundary);
        this.head = edge.kind() == WindowBounds.EdgeKind.HEAD;
    }

    public WindowBounds.Edge edge() {
        return edge;
    }

    public boolean isHead() {
        return head;
    }

    public long boundary() {
        return cursor.boundary();
    }

    public void addWindow(WindowNode w) {
        windows.add(w);
        dispatch = windows.toArray(new WindowNode[0]);
    }

    /** Removes a window; returns true when the cursor has none left. */
    public boolean removeWindow(WindowNode w) {
        windows.remove(w);
        dispatch = windows.toArray(new WindowNode[0]);
        return windows.isEmpty();
    }

    /** Moves the edge to stream time {@code streamTime}, delivering the events it passes. */
    public void advance(long streamTime) {
        cursor.advanceTo(edge.boundary(streamTime), this);
    }

    /** Moves the boundary to {@code boundary} (not behind), delivering the events it passes. */
    public void advanceTo(long boundary) {
        cursor.advanceTo(boundary, this);
    }

    /** Moves the boundary to {@code boundary} without delivering the events it passes. */
    public void skipTo(long boundary) {
        cursor.skipTo(boundary);
    }

    /** Delivers an event just inserted at or behind this cursor's boundary. */
    public void passed(long timestamp, long seq, EventRow row) {
        accept(timestamp, seq, row);
    }

    @Override
    public void accept(long timestamp, long seq, EventRow row) {
        if (head) {
            for (WindowNode w : dispatch) {
                w.arrive(timestamp, seq, row);
            }
        } else {
            for (WindowNode w : dispatch) {
                w.expire(timestamp, seq, row);
            }
        }
    }

    public void close() {
        cursor.close();
    }
}
