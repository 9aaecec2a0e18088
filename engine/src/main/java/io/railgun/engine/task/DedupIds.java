package io.railgun.engine.task;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.reservoir.EventReservoir;
import io.railgun.engine.reservoir.EventSink;
import io.railgun.engine.reservoir.ReservoirCursor;
import io.railgun.engine.state.ByteKeyIndex;
import io.railgun.engine.state.ColdKeys;
import io.railgun.engine.state.StateReader;
import io.railgun.engine.window.WindowBounds;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * The event ids a task remembers within its {@link DedupHorizon} H, in two tiers. With T the stream
 * time, the id of a counted event with (reservoir) timestamp t is remembered while
 * {@code t > T - H - 1}:
 * <ul>
 *   <li><b>hot</b> (memory): ids with {@code t > T - Hh - 1}, where the hot horizon
 *       {@code Hh = max(dedupHotMs, lateness)}, so an event the task accepts is always hot;</li>
 *   <li><b>cold</b> (the durable store's {@link ColdKeys}, so RocksDB with the checkpoints): the
 *       older ones, when {@code H > Hh} for a durable task ("the cold tier is active"). Key: a tag
 *       byte 1 then the id's bytes; value: t (8 bytes, little-endian).</li>
 * </ul>
 * Two reservoir cursors move the ids: the spill cursor at {@code T - Hh - 1} moves the ids it
 * passes from hot to cold, the forget cursor at {@code T - H - 1} forgets them (a cold one is
 * deleted). A new id is looked up in cold only when the tier is active; a cold id whose t is not
 * within H counts as absent.
 *
 * <p><b>Restore.</b> Each checkpoint also stores, under the key of the single tag byte 0, the spill
 * cursor's boundary M at that point (Long.MIN_VALUE when nothing was spilled): the ids with
 * {@code t <= M} are in the checkpoint's cold tier. {@link #restore} therefore reads back from the
 * reservoir only the events after {@code max(M, T - H - 1)}: the last {@code Hh} of event time, not
 * the whole horizon (180 days of ids for a 180-day window).
 *
 * <p>Allocation-free per event in steady state. Owned by the task's thread.
 */
final class DedupIds implements AutoCloseable {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final byte MARK = 0;
    private static final byte ID = 1;
    private static final byte[] MARK_KEY = {MARK};

    private final EventReservoir reservoir;
    private final int idField;
    private final boolean stringId;
    private final String idName;
    private final ColdKeys cold; // null: every id in memory (an in-memory task)
    private final long dedupHotMs;
    private final ByteKeyIndex hot = new ByteKeyIndex(1024);
    private final StateReader reader = new StateReader();
    private final byte[] value = new byte[8];
    private byte[] scratch = new byte[64]; // the tag byte ID, then the id being handled
    private int lastSlot = -1;
    private long coldDuplicates;

    private long horizonMs;
    private long hotHorizonMs;
    private boolean coldActive;
    private long streamTime = Long.MIN_VALUE; // Long.MIN_VALUE: no event counted yet
    private ReservoirCursor forgetCursor;
    private ReservoirCursor spillCursor; // null while the cold tier is not active

    private final EventSink forget = this::forget;
    private final EventSink spill = this::spill;
    private final EventSink rememberHot = this::rememberHot;
    private final EventSink rememberCold = this::rememberCold;
    private final EventSink backToHot = this::backToHot;
    private final EventSink restoreId = this::restoreId;

    DedupIds(EventReservoir reservoir, int idField, boolean stringId, String idName, ColdKeys cold, long dedupHotMs) {
        this.reservoir = reservoir;
        this.idField = idField;
        this.stringId = stringId;
        this.idName = idName;
        this.cold = cold;
        this.dedupHotMs = dedupHotMs;
        this.scratch[0] = ID;
        this.forgetCursor = reservoir.openCursor(Long.MIN_VALUE);
    }

    /**
     * Remembers {@code row}'s id; false when it is remembered already (a duplicate).
     *
     * @throws IllegalArgumentException when the id is null
     */
    boolean add(EventRow row) {
        int len = encode(row);
        int r = hot.findOrInsert(scratch, 1, len);
        if (r >= 0) {
            return false;
        }
        lastSlot = -r - 1;
        if (coldActive && inCold(len)) {
            hot.removeSlot(lastSlot);
            coldDuplicates++;
            return false;
        }
        return true;
    }

    /** Forgets the id of the last {@link #add} that returned true (its event was not counted). */
    void undoAdd() {
        hot.removeSlot(lastSlot);
    }

    /** The stream time moved to {@code time}: ids move to cold, or are forgotten. */
    void advance(long time) {
        streamTime = time;
        if (spillCursor != null) {
            spillCursor.advanceTo(boundary(hotHorizonMs), spill);
        }
        forgetCursor.advanceTo(boundary(horizonMs), forget);
    }

    /**
     * Adopts a new horizon (metrics changed). Longer: the ids of the events the reservoir still holds
     * within it are remembered again; shorter: forgotten at once. When the cold tier becomes active
     * the ids older than the hot horizon move to it; when it stops being, they come back to memory.
     */
    void setHorizon(long newHorizonMs, long latenessMs) {
        boolean wasActive = coldActive;
        horizonMs = newHorizonMs;
        hotHorizonMs = Math.max(dedupHotMs, latenessMs);
        coldActive = cold != null && horizonMs > hotHorizonMs;
        if (streamTime == Long.MIN_VALUE) {
            if (coldActive && spillCursor == null) {
                spillCursor = reservoir.openCursor(Long.MIN_VALUE);
            } else if (!coldActive) {
                closeSpill();
            }
            return;
        }
        if (wasActive && !coldActive) {
            long spilled = spillCursor.boundary();
            closeSpill();
            scan(forgetCursor.boundary(), spilled, backToHot);
        }
        long boundary = boundary(horizonMs);
        if (boundary < forgetCursor.boundary()) {
            scan(boundary, forgetCursor.boundary(), wasActive && coldActive ? rememberCold : rememberHot);
            forgetCursor.close();
            forgetCursor = reservoir.openCursor(boundary);
        } else {
            forgetCursor.advanceTo(boundary, forget);
        }
        if (coldActive && !wasActive) {
            long spillBoundary = boundary(hotHorizonMs);
            scan(forgetCursor.boundary(), spillBoundary, spill);
            spillCursor = reservoir.openCursor(spillBoundary);
        }
    }

    /**
     * Restores the ids of a task restored at stream time {@code time} (Long.MIN_VALUE: none yet):
     * the cold ones are where the checkpoint left them, the hot ones are read back from the
     * reservoir's events after the checkpoint's spill boundary.
     */
    void restore(long time, long newHorizonMs, long latenessMs) {
        streamTime = time;
        horizonMs = newHorizonMs;
        hotHorizonMs = Math.max(dedupHotMs, latenessMs);
        coldActive = cold != null && horizonMs > hotHorizonMs;
        long boundary = boundary(horizonMs);
        forgetCursor.close();
        forgetCursor = reservoir.openCursor(boundary);
        closeSpill();
        long from = boundary;
        if (coldActive) {
            spillCursor = reservoir.openCursor(boundary(hotHorizonMs));
            from = Math.max(from, spilledMark());
        }
        scan(from, Long.MAX_VALUE, restoreId);
    }

    /**
     * Records, in the changes the next checkpoint writes, up to where ids are in the cold tier
     * (called just before the checkpoint begins; a no-op for an in-memory task).
     */
    void markCheckpoint() {
        if (cold == null) {
            return;
        }
        LONG.set(value, 0, spillCursor == null || streamTime == Long.MIN_VALUE ? Long.MIN_VALUE : spillCursor.boundary());
        cold.store(MARK_KEY, 0, 1, value, 0, 8);
    }

    /** Duplicates found in the cold tier since the task was opened. */
    long coldDuplicates() {
        return coldDuplicates;
    }

    /** Ids held in memory. */
    int hotIds() {
        return hot.size();
    }

    /** Whether ids older than the hot horizon are kept in the durable store rather than in memory. */
    boolean coldActive() {
        return coldActive;
    }

    @Override
    public void close() {
        forgetCursor.close();
        closeSpill();
    }

    private void closeSpill() {
        if (spillCursor != null) {
            spillCursor.close();
            spillCursor = null;
        }
    }

    private long spilledMark() {
        if (!cold.load(MARK_KEY, 0, 1, reader)) {
            return Long.MIN_VALUE;
        }
        return reader.getLong();
    }

    private long boundary(long horizon) {
        return streamTime == Long.MIN_VALUE ? Long.MIN_VALUE
                : WindowBounds.minus(WindowBounds.minus(streamTime, horizon), 1);
    }

    private boolean inCold(int len) {
        if (!cold.load(scratch, 0, len + 1, reader)) {
            return false;
        }
        return reader.getLong() > boundary(horizonMs);
    }

    /** Hands {@code sink} the reservoir's events with timestamps in (from, to]. */
    private void scan(long from, long to, EventSink sink) {
        if (to > from) {
            ReservoirCursor cursor = reservoir.openCursor(from);
            cursor.advanceTo(to, sink);
            cursor.close();
        }
    }

    private void forget(long timestamp, long seq, EventRow row) {
        int len = encode(row);
        hot.remove(scratch, 1, len);
        if (coldActive) {
            cold.delete(scratch, 0, len + 1);
        }
    }

    private void spill(long timestamp, long seq, EventRow row) {
        int len = encode(row);
        hot.remove(scratch, 1, len);
        storeCold(len, timestamp);
    }

    private void rememberHot(long timestamp, long seq, EventRow row) {
        hot.findOrInsert(scratch, 1, encode(row));
    }

    private void rememberCold(long timestamp, long seq, EventRow row) {
        storeCold(encode(row), timestamp);
    }

    private void backToHot(long timestamp, long seq, EventRow row) {
        int len = encode(row);
        hot.findOrInsert(scratch, 1, len);
        cold.delete(scratch, 0, len + 1);
    }

    private void restoreId(long timestamp, long seq, EventRow row) {
        if (spillCursor != null && timestamp <= spillCursor.boundary()) {
            rememberCold(timestamp, seq, row);
        } else {
            rememberHot(timestamp, seq, row);
        }
    }

    private void storeCold(int len, long timestamp) {
        LONG.set(value, 0, timestamp);
        cold.store(scratch, 0, len + 1, value, 0, 8);
    }

    /** Copies the id of {@code row} into {@link #scratch} after the tag byte; returns its length. */
    private int encode(EventRow row) {
        if (row.isNull(idField)) {
            throw new IllegalArgumentException("the event id field '" + idName + "' is null");
        }
        if (stringId) {
            int len = row.stringLength(idField);
            if (scratch.length < len + 1) {
                scratch = Arrays.copyOf(scratch, Math.max(len + 1, scratch.length * 2));
            }
            System.arraycopy(row.buffer(), row.stringOffset(idField), scratch, 1, len);
            return len;
        }
        LONG.set(scratch, 1, row.getSlot(idField));
        return 8;
    }
}
