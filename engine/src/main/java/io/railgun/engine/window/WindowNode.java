package io.railgun.engine.window;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.query.WindowSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The Window operator of a task plan: receives events from its head cursor (arrive) and tail cursor
 * (expire) and forwards them to its filters. A window created on a running task starts empty: it
 * ignores events counted before it ({@code seq < firstSeq}), on both streams, so its arrive and
 * expire streams stay balanced even though it shares cursors with older windows.
 */
public final class WindowNode {
    private final WindowSpec spec;
    private final long firstSeq;
    private final List<WindowListener> listeners = new ArrayList<>();
    private WindowListener[] dispatch = new WindowListener[0];

    public WindowNode(WindowSpec spec, long firstSeq) {
        this.spec = spec;
        this.firstSeq = firstSeq;
    }

    public WindowSpec spec() {
        return spec;
    }

    public void addListener(WindowListener l) {
        listeners.add(l);
        dispatch = listeners.toArray(new WindowListener[0]);
    }

    public void removeListener(WindowListener l) {
        listeners.remove(l);
        dispatch = listeners.toArray(new WindowListener[0]);
    }

    public boolean isEmpty() {
        return listeners.isEmpty();
    }

    void arrive(long timestamp, long seq, EventRow row) {
        if (seq < firstSeq) {
            return;
        }
        for (WindowListener l : dispatch) {
            l.arrive(timestamp, seq, row);
        }
    }

    void expire(long timestamp, long seq, EventRow row) {
        if (seq < firstSeq) {
            return;
        }
        for (WindowListener l : dispatch) {
            l.expire(timestamp, seq, row);
        }
    }
}
