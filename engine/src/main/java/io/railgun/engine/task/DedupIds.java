package io.railgun.engine.task;

import io.railgun.engine.dedup.DedupIndex;
import io.railgun.engine.event.EventRow;
import io.railgun.engine.reservoir.EventReservoir;
import io.railgun.engine.state.ColdKeys;
import io.railgun.engine.state.durable.HotIdPool;
import io.railgun.engine.window.WindowBounds;

/**
 * The event ids a task remembers within its {@link DedupHorizon} H, in two tiers. With T the stream
 * time, the id of a counted event with (reservoir) timestamp t is remembered while
 * {@code t > T - H - 1}:
 * <ul>
 *   <li><b>hot</b> (memory, a {@link DedupIndex} ordered by arrival, so ids expire by a sequential
 *       walk): ids with {@code t > T - Hh - 1}, where the hot horizon {@code Hh} is at least the
 *       lateness, so an event the task accepts is always hot ({@link HotIdHorizon}: at most
 *       {@code dedupHotMs}; when the cold tier is not active, {@code Hh} is H itself);</li>
 *   <li><b>cold</b> ({@link ColdIds}, in the durable store's {@link ColdKeys}, so RocksDB with the checkpoints): the
 *       older ones, when {@code H > Hh} for a durable task ("the cold tier is active"). Key: a tag
 *       byte 1 then the id's bytes; value: t (8 bytes, little-endian).</li>
 * </ul>
 * The hot tier forgets its ids by itself as its boundary moves; two reservoir cursors
 * ({@link IdTierCursors}) move the others: the spill cursor at {@code T - Hh - 1} copies the ids it passes to cold (the hot tier
 * drops them at the same boundary), the forget cursor at {@code T - H - 1} deletes the cold ones
 * (and keeps the horizon's events in the reservoir); with the cold tier active, both move every
 * few events, their writes together ({@link #advance}). A new id is looked up in cold only when the
 * tier is active, and only when the {@link io.railgun.engine.dedup.ColdIdFilter} of the cold ids (saved with each checkpoint)
 * does not rule it out; a cold id whose t is not within H counts as absent.
 *
 * <p><b>The node's pool.</b> With a {@link HotIdPool}, the cold tier of a task with {@code H > Hh}
 * is <i>wanted</i> only from the step that finds the pool passed while this task holds more than an
 * even part of it ({@link #activate}); until then every id of H is hot. It stays wanted, and a
 * restore of a checkpoint taken with it active restores it active. Without a pool it is wanted.
 * Found passed again with the tier active, the pool narrows the hot horizon ({@link #narrow},
 * {@link HotIdHorizon}: {@code Hh} is then below {@code dedupHotMs}, not below the lateness); with
 * room again, it is widened back ({@link #widen}); an index sized for more ids than it holds is
 * made afresh ({@link #renewOversized}) before a narrowing, or when there is no room to widen.
 *
 * <p><b>Restore, and two copies of an id</b>: see {@link ColdIds} (the checkpoint's record of the
 * tiers' bounds, and R).
 *
 * <p>Allocation-free per event in steady state. Owned by the task's thread.
 */
final class DedupIds implements AutoCloseable {
    private final EventIdKey ids;
    private final ColdIds cold; // null: every id in memory (an in-memory task)
    private final HotIdHorizon hotHorizon;
    private DedupIndex hot = new DedupIndex(); // replaced by renewHot (activation, narrowing, renewal)
    private boolean coldWanted; // whether the cold tier takes the ids past the hot horizon (when H > Hh)
    private int pendingLength = -1; // the id isNew accepted, in the id key; -1: none

    private long horizonMs;
    private long hotHorizonMs;
    private boolean coldActive;
    private long streamTime = Long.MIN_VALUE; // Long.MIN_VALUE: no event counted yet
    private final IdTierCursors cursors; // the forget and spill cursors, and their staged writes

    private final IdPlacement placement; // where the ids read back go (setHorizon, restore, renewHot)

    private final StagedColdIds staged; // when the cold tier steps (the cursors' writes)

    DedupIds(EventReservoir reservoir, int idField, boolean stringId, String idName, ColdKeys cold, long dedupHotMs) {
        this(reservoir, idField, stringId, idName, cold, dedupHotMs, null);
    }

    /** With {@code pool} (may be null: none), the cold tier is wanted only once the pool is passed. */
    DedupIds(EventReservoir reservoir, int idField, boolean stringId, String idName, ColdKeys cold, long dedupHotMs,
             HotIdPool pool) {
        this.ids = new EventIdKey(idField, stringId, idName);
        this.cold = cold == null ? null : new ColdIds(cold);
        this.hotHorizon = new HotIdHorizon(dedupHotMs, cold == null ? null : pool);
        this.coldWanted = !hotHorizon.pooled();
        this.placement = new IdPlacement(reservoir, ids, this.cold);
        this.cursors = new IdTierCursors(reservoir, ids, this.cold);
        this.staged = cursors.staged();
    }

    /**
     * Whether {@code row}'s id is new: not remembered in either tier. When it is, the task then
     * calls {@link #remember} if it counts the event (not for a late event it drops).
     *
     * @throws IllegalArgumentException when the id is null
     */
    boolean isNew(EventRow row) {
        int len = ids.encode(row);
        byte[] key = ids.key();
        pendingLength = -1;
        if (hot.contains(key, 1, len)) {
            return false;
        }
        if (coldActive && cold.contains(key, len, boundary(horizonMs))) {
            return false;
        }
        pendingLength = len;
        return true;
    }

    /** Notes that {@code row}'s id will be looked up soon ({@link io.railgun.engine.state.Prefetches}). */
    void prefetch(EventRow row) {
        ids.prefetch(row, hot, coldActive ? cold : null);
    }

    /** Loads what {@link #prefetch} noted; returns anything. */
    long issuePrefetches() {
        return hot.issuePrefetches() + (coldActive ? cold.issueContainsPrefetches() : 0);
    }

    /**
     * Remembers the id {@link #isNew} just accepted, its event counted at {@code timestamp} (at or
     * after {@code T - lateness}, so within the hot horizon).
     */
    void remember(long timestamp) {
        hot.add(ids.key(), 1, pendingLength, timestamp);
        pendingLength = -1;
    }

    /**
     * The stream time moved to {@code time}: ids move to cold, or are forgotten. With the cold tier
     * active, every {@value StagedColdIds#STEP} events (and before a checkpoint or a horizon change), so that
     * the cold tier's writes of those events are made together ({@link StagedColdIds}): until then the
     * hot tier keeps the ids past its boundary (within the horizon, so duplicates still), and the cold
     * ids past the horizon's boundary count as absent ({@link ColdIds#contains}).
     */
    void advance(long time) {
        streamTime = time;
        if (!coldActive || staged.due(time, horizonMs - hotHorizonMs)) {
            step();
        }
    }

    /** Moves the tiers' boundaries to the stream time. */
    private void step() {
        staged.stepped(streamTime);
        cursors.step(coldActive, boundary(horizonMs), boundary(hotHorizonMs), hot, hotHorizonMs);
        hot.expireBefore(hotBoundary());
        // (only a horizon past the hot one counts in the pool: a task without one reports nothing)
        if (hotHorizon.pooled() && horizonMs > hotHorizonMs) {
            if (hotHorizon.report(hot.memoryBytes())) {
                if (!coldWanted) {
                    activate();
                } else {
                    narrow();
                }
            } else if (coldActive && hotHorizon.narrowedNow()) {
                if (hotHorizon.roomToWiden(hot.memoryBytes())) {
                    widen();
                } else if (hot.oversized()) { // sized for the ids of a higher rate
                    renewOversized();
                }
            }
        }
    }

    /**
     * Activates the cold tier, the node's pool passed, as a restore places ids: a fresh hot index
     * (the old one's arrays were sized for all of H), and H's events read back from the reservoir
     * (the forget cursor keeps them), their ids cold up to the spill boundary, hot after.
     */
    private void activate() {
        long started = System.nanoTime();
        coldWanted = true;
        coldActive = true;
        cold.adoptFilter(true, horizonMs - hotHorizonMs, false);
        long forgetBoundary = boundary(horizonMs);
        long spillBoundary = boundary(hotHorizonMs);
        cold.forgetBefore(forgetBoundary);
        renewHot(forgetBoundary, spillBoundary);
        cursors.openSpill(spillBoundary);
        hotHorizon.report(hot.memoryBytes());
        hotHorizon.logMoved("the node's pool of hot ids passed: ids older than %,d ms moved to RocksDB", hotHorizonMs, hot, started);
    }

    /**
     * The pool still passed with the cold tier active, this task holding more than an even part:
     * the hot horizon narrowed ({@link HotIdHorizon}), the ids it leaves spilled at once, and the
     * hot index made afresh from the reservoir's events after the new spill boundary (the old one's
     * arrays were sized for the wider horizon).
     */
    private void narrow() {
        if (hot.oversized()) { // sized for ids gone (a jump in time): made afresh first
            renewOversized();
            return;
        }
        // the time its ids span: less than the hot horizon in a stream younger than it
        long oldest = hot.oldestTimestamp();
        long span = oldest == Long.MIN_VALUE || oldest <= hotBoundary() ? hotHorizonMs : streamTime - oldest;
        long narrowed = hotHorizon.narrowed(hotHorizonMs, span, hot.memoryBytes());
        if (narrowed == hotHorizonMs) {
            return;
        }
        long started = System.nanoTime();
        cold.adoptFilter(true, horizonMs - narrowed, true);
        long spillBoundary = boundary(narrowed);
        cursors.spillTo(spillBoundary, hot, hotHorizonMs); // (its rate of ids: the old index's over the old horizon)
        staged.apply(cold);
        hotHorizonMs = narrowed;
        renewHot(spillBoundary, spillBoundary);
        hotHorizon.report(hot.memoryBytes());
        hotHorizon.logMoved("the node's pool of hot ids still passed: ids older than %,d ms moved to RocksDB", hotHorizonMs, hot, started);
    }

    /** The hot index, sized for many more ids than it holds (its arrays never shrink), made afresh and measured again. */
    private void renewOversized() {
        long started = System.nanoTime();
        renewHot(cursors.spillBoundary(), cursors.spillBoundary());
        hotHorizon.report(hot.memoryBytes());
        hotHorizon.logMoved("ids in memory made afresh for fewer ids, the last %,d ms of them", hotHorizonMs, hot, started);
    }

    /**
     * A fresh hot index, of the ids of the reservoir's events after {@code from}, placed as a
     * restore does: cold up to {@code spillBoundary} (none when {@code from} is that), hot after.
     */
    private void renewHot(long from, long spillBoundary) {
        hot = new DedupIndex();
        hot.expireBefore(hotBoundary());
        placement.bounds(boundary(horizonMs), spillBoundary, hot);
        placement.fromCold(false);
        placement.scan(from, Long.MAX_VALUE);
    }

    /**
     * The pool has room again after a narrowing: the hot horizon doubled back towards
     * {@code dedupHotMs} ({@link HotIdHorizon#widen}), the ids it takes back read from the
     * reservoir and deleted from cold, as a horizon change places them ({@link #setHorizon}).
     */
    private void widen() {
        hotHorizon.widen();
        if (hotHorizon.forLateness(hotHorizon.latenessMs()) != hotHorizonMs) {
            long started = System.nanoTime();
            setHorizon(horizonMs, hotHorizon.latenessMs());
            hotHorizon.report(hot.memoryBytes()); // (at once: other tasks decide on the pool's total)
            hotHorizon.logMoved("the node's pool of hot ids has room: ids from %,d ms back kept in memory again", hotHorizonMs, hot, started);
        }
    }

    /**
     * Adopts a new horizon (metrics changed). Longer: the ids of the events the reservoir still holds
     * within it are remembered again; shorter: forgotten at once. When the cold tier becomes active
     * the ids older than the hot horizon move to it; when it stops being, they come back to memory.
     */
    void setHorizon(long newHorizonMs, long latenessMs) {
        catchUp();
        boolean wasActive = coldActive;
        long oldForget = cursors.forgetBoundary();
        // ids after the spill boundary may be hot, ids up to coldHigh cold (past the spill boundary
        // after a restore with a longer hot horizon: those counted before it; late ones since are hot)
        long oldSpillLow = cursors.spilling() ? cursors.spillBoundary() : oldForget;
        long oldSpillHigh = cursors.spilling() ? Math.max(oldSpillLow, cold.high()) : oldForget;
        horizonMs = newHorizonMs;
        hotHorizonMs = hotHorizon.forLateness(latenessMs);
        coldActive = cold != null && horizonMs > hotHorizonMs && coldWanted;
        if (hotHorizon.pooled() && horizonMs <= hotHorizonMs) {
            hotHorizon.report(0); // its ids are all within the hot horizon now: none in the pool
        }
        cursors.closeSpill();
        if (cold != null) {
            cold.adoptFilter(coldActive, horizonMs - hotHorizonMs, wasActive);
            if (!coldActive) {
                cold.high(Long.MIN_VALUE); // (the scans below move the cold ids to memory)
            }
        }
        if (streamTime == Long.MIN_VALUE) {
            if (coldActive) {
                cursors.openSpill(Long.MIN_VALUE);
            }
            return;
        }
        long forgetBoundary = boundary(horizonMs);
        long spillBoundary = coldActive ? boundary(hotHorizonMs) : forgetBoundary;
        if (coldActive) {
            cold.forgetBefore(forgetBoundary); // before place adds to it: a longer horizon moves it back
        }
        // first: a longer hot horizon revives the ids the index still holds, so place adds no twin
        hot.expireBefore(hotBoundary());
        // the ids were: cold in (oldForget, oldSpillHigh] when the tier was active, hot after
        // oldSpillLow; they go: cold in (forgetBoundary, spillBoundary], hot after spillBoundary
        // (only the events between an old boundary and its new one change place)
        placement.bounds(forgetBoundary, spillBoundary, hot);
        placement.fromCold(wasActive);
        if (forgetBoundary < oldForget && cold != null) {
            // an id counted again more than the old horizon after one of these events has two copies
            cold.reopen(oldForget);
        }
        if (!wasActive) {
            oldSpillLow = oldForget;
            oldSpillHigh = oldForget;
        }
        placement.scan(Math.min(oldForget, forgetBoundary), Math.max(oldForget, forgetBoundary));
        placement.scan(Math.min(oldSpillLow, spillBoundary), Math.max(oldSpillHigh, spillBoundary));
        if (forgetBoundary < oldForget) {
            cursors.reopenForget(forgetBoundary);
        } else {
            cursors.skipForget(forgetBoundary); // place deleted what it passes
        }
        if (coldActive) {
            cursors.openSpill(spillBoundary);
            cold.high(Math.min(cold.high(), spillBoundary)); // (place moved the later ones to memory)
        }
    }

    /**
     * Restores the ids of a task restored at stream time {@code time} (Long.MIN_VALUE: none yet):
     * the cold ones are where the checkpoint left them, the hot ones are read back from the
     * reservoir's events after the checkpoint's spill boundary.
     */
    void restore(long time, long newHorizonMs, long latenessMs) {
        streamTime = time;
        staged.stepped(time);
        horizonMs = newHorizonMs;
        // with a pool: wanted when the checkpoint's tier was active (it had spilled), all hot else;
        // a hot horizon narrowed then stays narrowed
        if (hotHorizon.pooled()) {
            ColdIds.Mark saved = cold.saved();
            coldWanted = saved.spill() != Long.MIN_VALUE;
            hotHorizon.restoredFrom(saved.hotCap());
        } else {
            coldWanted = true;
        }
        hotHorizonMs = hotHorizon.forLateness(latenessMs);
        if (hotHorizon.pooled() && horizonMs <= hotHorizonMs) {
            hotHorizon.report(0); // its ids are all within the hot horizon: none in the pool
        }
        coldActive = cold != null && horizonMs > hotHorizonMs && coldWanted;
        long boundary = boundary(horizonMs);
        cursors.reopenForget(boundary);
        cursors.closeSpill();
        hot.clear();
        hot.expireBefore(hotBoundary());
        long from = boundary;
        placement.bounds(boundary, boundary, hot);
        // the checkpoint's spill mark, and its forget boundary (none in an older version's checkpoint)
        ColdIds.Mark saved = cold == null ? ColdIds.Mark.NONE : cold.restore(time, boundary, coldActive, horizonMs - hotHorizonMs);
        long mark = saved.spill();
        long savedForget = saved.forget();
        // ids in the checkpoint's cold tier from here (F; an old record's unknown: the boundary) up to M
        long coldLow = saved.current() ? savedForget : boundary;
        placement.fromCold(false); // the ids between the forget boundaries are not in the cold tier
        if (coldActive) {
            cursors.openSpill(boundary(hotHorizonMs));
            placement.spill(cursors.spillBoundary());
            from = Math.max(from, mark);
            cold.forgetBefore(boundary);
            // a longer horizon than the checkpoint's: the ids between the two forget boundaries are
            // read back, as setHorizon does (those the reservoir still holds)
            placement.scan(boundary, Math.min(savedForget, from));
            // a shorter one: the cold ids it no longer covers are deleted, as setHorizon does (left,
            // a stale id could hide a later copy counted after its event left the reservoir); up to
            // the boundary, not M: ids after M may be cold too (coldHigh, not saved)
            if (mark != Long.MIN_VALUE) {
                placement.fromCold(true);
                placement.scan(coldLow, boundary);
            }
        } else if (mark > coldLow) {
            // no cold tier now: the checkpoint's cold ids come back to memory, or are forgotten
            // (and, with a longer horizon, the ids before them are remembered again)
            placement.scan(boundary, coldLow);
            placement.fromCold(true);
            placement.scan(coldLow, mark);
            from = Math.max(from, mark);
        }
        placement.fromCold(false); // the ids read back from here are after the checkpoint's spill mark
        placement.scan(from, Long.MAX_VALUE);
    }

    /**
     * Records, in the changes the next checkpoint writes, up to where ids are in the cold tier
     * (called just before the checkpoint begins; a no-op for an in-memory task).
     */
    void markCheckpoint() {
        if (cold == null) {
            return;
        }
        catchUp();
        long mark = !cursors.spilling() || streamTime == Long.MIN_VALUE ? Long.MIN_VALUE : cursors.spillBoundary();
        cold.mark(mark, cursors.forgetBoundary(), hotHorizon.capMs()); // (F: the cold tier's, or the horizon's in memory)
    }

    /** The cold tier (null for an in-memory task), for its counters. */
    ColdIds cold() {
        return cold;
    }

    /** The hot horizon and the task's part of the pool, for its counters. */
    HotIdHorizon hotHorizon() {
        return hotHorizon;
    }

    /** Ids held in memory (the live ones, and the dead ones not yet dropped from the log). */
    long hotIds() {
        return hot.held();
    }

    @Override
    public void close() {
        cursors.close();
        hotHorizon.close();
    }

    private long boundary(long horizon) {
        return streamTime == Long.MIN_VALUE ? Long.MIN_VALUE
                : WindowBounds.minus(WindowBounds.minus(streamTime, horizon), 1);
    }

    /** The hot tier's boundary: its ids are those counted at or after it. */
    private long hotBoundary() {
        return streamTime == Long.MIN_VALUE ? Long.MIN_VALUE
                : WindowBounds.minus(streamTime, coldActive ? hotHorizonMs : horizonMs);
    }

    /** Moves the tiers to the stream time if {@link #advance} left them behind it. */
    private void catchUp() {
        if (staged.behind()) {
            step();
        }
    }
}
