package io.railgun.engine.task;

import io.railgun.engine.dedup.DedupIndex;
import io.railgun.engine.event.EventRow;
import io.railgun.engine.reservoir.EventReservoir;
import io.railgun.engine.reservoir.EventSink;
import io.railgun.engine.reservoir.ReservoirCursor;

/**
 * The two reservoir cursors that move a task's {@link DedupIds} between its tiers, and their
 * writes, staged ({@link StagedColdIds}): the <b>forget</b> cursor at {@code T - H - 1} (it keeps
 * the horizon's events in the reservoir, and with the cold tier active deletes the cold ids it
 * passes) and, while the cold tier is active, the <b>spill</b> cursor at {@code T - Hh - 1} (it
 * copies the ids it passes to cold; the hot index drops them at the same boundary). Owned by the
 * task's thread, like its {@link DedupIds}.
 */
final class IdTierCursors implements AutoCloseable {
    private final EventReservoir reservoir;
    private final EventIdKey ids;
    private final ColdIds cold; // null: an in-memory task (only the forget cursor, skipping)
    private final StagedColdIds staged = new StagedColdIds();
    private ReservoirCursor forget;
    private ReservoirCursor spill; // null while the cold tier is not active
    // the hot index and horizon while the spill cursor moves: its ids over that horizon give the
    // rate of ids the cold tier's filter is sized for
    private DedupIndex hot;
    private long hotHorizonMs;

    private final EventSink forgetSink = this::forget;
    private final EventSink spillSink = this::spill;

    IdTierCursors(EventReservoir reservoir, EventIdKey ids, ColdIds cold) {
        this.reservoir = reservoir;
        this.ids = ids;
        this.cold = cold;
        this.forget = reservoir.openCursor(Long.MIN_VALUE);
    }

    StagedColdIds staged() {
        return staged;
    }

    long forgetBoundary() {
        return forget.boundary();
    }

    /** Whether the spill cursor is open (the cold tier active). */
    boolean spilling() {
        return spill != null;
    }

    /** The spill cursor's boundary; the cursor must be open. */
    long spillBoundary() {
        return spill.boundary();
    }

    void openSpill(long boundary) {
        closeSpill();
        spill = reservoir.openCursor(boundary);
    }

    void closeSpill() {
        if (spill != null) {
            spill.close();
            spill = null;
        }
    }

    /** The forget cursor opened afresh at {@code boundary} (a boundary before its own: a longer horizon, a restore). */
    void reopenForget(long boundary) {
        forget.close();
        forget = reservoir.openCursor(boundary);
    }

    /** The forget cursor moved to {@code boundary} without reading the events it passes. */
    void skipForget(long boundary) {
        forget.skipTo(boundary);
    }

    /**
     * A step of the tiers to forget boundary {@code forgetBoundary} and spill boundary
     * {@code spillBoundary}: with the cold tier active ({@code coldActive}) the forgets and the
     * spills of the events passed, their writes applied together; else the forget cursor only
     * skips (it keeps the horizon's events).
     */
    void step(boolean coldActive, long forgetBoundary, long spillBoundary, DedupIndex hot, long hotHorizonMs) {
        if (coldActive) {
            // first: after a jump in time the spill passes ids about to be forgotten, which the filter skips
            cold.forgetBefore(forgetBoundary);
            // then the forgets of ids spilled already: an id counted again once its copy was past the
            // horizon is stored (spilled) with this step when the step came late, and its old copy's
            // forget, after it, would delete it
            long spilled = spill == null ? Long.MIN_VALUE : Math.min(forgetBoundary, spill.boundary());
            if (spilled > forget.boundary()) {
                forget.advanceTo(spilled, forgetSink);
            }
        }
        if (spill != null) {
            spillTo(spillBoundary, hot, hotHorizonMs);
        }
        if (coldActive) {
            forget.advanceTo(forgetBoundary, forgetSink);
            staged.apply(cold);
        } else {
            forget.skipTo(forgetBoundary); // it only keeps the horizon's events: no need to read them
        }
        if (cold != null) {
            cold.passed(forget.boundary());
        }
    }

    /** The spill cursor moved to {@code boundary}, its writes staged ({@code hot} over {@code hotHorizonMs}: the rate of ids). */
    void spillTo(long boundary, DedupIndex hot, long hotHorizonMs) {
        this.hot = hot;
        this.hotHorizonMs = hotHorizonMs;
        spill.advanceTo(boundary, spillSink);
        this.hot = null;
    }

    @Override
    public void close() {
        forget.close();
        closeSpill();
    }

    // encode first, then read the key: encode may grow it (an id longer than any this task encoded)

    private void forget(long timestamp, long seq, EventRow row) {
        int len = ids.encode(row);
        byte[] key = ids.key();
        staged.add(false, key, len, timestamp, cold); // fed only while the cold tier is active (see step)
    }

    private void spill(long timestamp, long seq, EventRow row) {
        int len = ids.encode(row);
        byte[] key = ids.key();
        cold.expect(hot.held(), hotHorizonMs); // (the ids in memory give the rate of ids)
        staged.add(true, key, len, timestamp, cold); // the hot tier drops it at the same boundary
    }
}
