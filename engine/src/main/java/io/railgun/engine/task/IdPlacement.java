package io.railgun.engine.task;

import io.railgun.engine.dedup.DedupIndex;
import io.railgun.engine.event.EventRow;
import io.railgun.engine.reservoir.EventReservoir;
import io.railgun.engine.reservoir.EventSink;
import io.railgun.engine.reservoir.ReservoirCursor;

/**
 * Puts the ids of events read back from the reservoir where {@link DedupIds} wants them after a
 * restore, a horizon change (a widened hot horizon too), the cold tier's activation or a fresh hot
 * index: forgotten at or before the forget
 * boundary (deleted from the cold tier when it may hold them), cold up to the spill boundary, hot
 * after (deleted from cold when it may hold them, and added to the hot index unless it holds a
 * later copy). Owned by the task's thread, like its {@link DedupIds}.
 */
final class IdPlacement implements EventSink {
    private final EventReservoir reservoir;
    private final EventIdKey ids;
    private final ColdIds cold; // null: none (then every id read back is after the spill boundary)
    private DedupIndex hot;
    private long forget;
    private long spill;
    private boolean fromCold; // whether the ids placed may be in the cold tier

    IdPlacement(EventReservoir reservoir, EventIdKey ids, ColdIds cold) {
        this.reservoir = reservoir;
        this.ids = ids;
        this.cold = cold;
    }

    /** The boundaries: ids counted at or before {@code forget} are forgotten, up to {@code spill} cold, after it hot. */
    void bounds(long forget, long spill, DedupIndex hot) {
        this.forget = forget;
        this.spill = spill;
        this.hot = hot;
    }

    void spill(long spill) {
        this.spill = spill;
    }

    /** Whether the ids placed from now on may be in the cold tier (so are deleted from it or forgotten there). */
    void fromCold(boolean fromCold) {
        this.fromCold = fromCold;
    }

    /** Places the ids of the reservoir's events with timestamps in (from, to]. */
    void scan(long from, long to) {
        if (to > from) {
            ReservoirCursor cursor = reservoir.openCursor(from);
            cursor.advanceTo(to, this);
            cursor.close();
        }
    }

    // encode first, then read the key: encode may grow it (an id longer than any this task encoded)
    @Override
    public void accept(long timestamp, long seq, EventRow row) {
        int len = ids.encode(row);
        byte[] key = ids.key();
        if (timestamp <= forget) {
            if (fromCold) {
                cold.forget(key, len, timestamp);
            }
        } else if (timestamp <= spill) {
            cold.store(key, len, timestamp);
        } else {
            if (fromCold) {
                cold.delete(key, len); // (a later copy of it, if any, is after the spill boundary too)
            }
            if (hot.latest(key, 1, len) < timestamp) {
                hot.add(key, 1, len, timestamp);
            }
        }
    }
}
