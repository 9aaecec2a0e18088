package io.railgun.engine.plan;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.reservoir.EventReservoir;
import io.railgun.engine.window.WindowBounds;
import io.railgun.engine.window.WindowCursor;
import io.railgun.engine.window.WindowNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The live reservoir cursors of one task's windows: one {@link WindowCursor} per distinct window
 * edge, shared by every window with that edge, created when its first window attaches and closed
 * when its last one detaches. Moves heads before tails, so an event arrives in a window before it
 * expires from it. (Backfilling windows run on private cursors of their {@link Backfill} instead.)
 *
 * <p>Owned by the task's thread.
 */
final class WindowCursors {
    private final EventReservoir reservoir;
    private final Map<WindowBounds.Edge, WindowCursor> byEdge = new LinkedHashMap<>();
    private WindowCursor[] heads = new WindowCursor[0];
    private WindowCursor[] tails = new WindowCursor[0];

    WindowCursors(EventReservoir reservoir) {
        this.reservoir = reservoir;
    }

    /** Puts {@code w} on both its edges' cursors, opening a cursor at {@code streamTime} for a new edge. */
    void attach(WindowNode w, long streamTime) {
        attach(WindowBounds.head(w.spec()), w, streamTime);
        WindowBounds.Edge tail = WindowBounds.tail(w.spec());
        if (tail != null) {
            attach(tail, w, streamTime);
        }
    }

    private void attach(WindowBounds.Edge edge, WindowNode w, long streamTime) {
        WindowCursor c = byEdge.get(edge);
        if (c == null) {
            long boundary = streamTime == Long.MIN_VALUE ? Long.MIN_VALUE : edge.boundary(streamTime);
            c = new WindowCursor(edge, reservoir, boundary);
            byEdge.put(edge, c);
            rebuildArrays();
        }
        c.addWindow(w);
    }

    /** Takes {@code w} off its edges' cursors, closing those it was the last window of. */
    void detach(WindowNode w) {
        WindowBounds.Edge[] edges = {WindowBounds.head(w.spec()), WindowBounds.tail(w.spec())};
        for (WindowBounds.Edge e : edges) {
            if (e == null) {
                continue;
            }
            WindowCursor c = byEdge.get(e);
            if (c.removeWindow(w)) {
                c.close();
                byEdge.remove(e);
            }
        }
        rebuildArrays();
    }

    /** Moves every edge to stream time {@code streamTime}: heads first, so arrivals precede expiries. */
    void advance(long streamTime) {
        for (WindowCursor c : heads) {
            c.advance(streamTime);
        }
        for (WindowCursor c : tails) {
            c.advance(streamTime);
        }
    }

    /** Hands an event inserted at or behind some edges to those edges' windows: heads first, then tails. */
    void inserted(long timestamp, long seq, EventRow row) {
        for (WindowCursor c : heads) {
            if (timestamp <= c.boundary()) {
                c.passed(timestamp, seq, row);
            }
        }
        for (WindowCursor c : tails) {
            if (timestamp <= c.boundary()) {
                c.passed(timestamp, seq, row);
            }
        }
    }

    /** Number of cursors (distinct window edges). */
    int count() {
        return byEdge.size();
    }

    private void rebuildArrays() {
        List<WindowCursor> h = new ArrayList<>();
        List<WindowCursor> t = new ArrayList<>();
        for (WindowCursor c : byEdge.values()) {
            (c.isHead() ? h : t).add(c);
        }
        heads = h.toArray(new WindowCursor[0]);
        tails = t.toArray(new WindowCursor[0]);
    }
}
