package io.railgun.engine.task;

import io.railgun.engine.dedup.ColdIdFilter;
import io.railgun.engine.dedup.SavedColdIdFilter;
import io.railgun.engine.state.ColdKeys;
import io.railgun.engine.state.StateReader;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * The cold tier of a task's {@link DedupIds}: the ids older than the hot horizon in the durable
 * store's {@link ColdKeys} (key: the tag byte {@link #ID} then the id's bytes, as the caller builds
 * it; value: the counted timestamp, 8 bytes little-endian), their {@link ColdIdFilter}, and the
 * checkpoint's record under the single tag byte {@link #MARK}: the spill mark M, the forget boundary
 * F, R, the highest old forget boundary a lengthened horizon passed back over (below), and the cap
 * of the hot horizon ({@link HotIdHorizon}).
 *
 * <p><b>Restore.</b> Each checkpoint also stores, under the key of the single tag byte 0, the spill
 * cursor's boundary M at that point (Long.MIN_VALUE when nothing was spilled) and the forget
 * cursor's F: the ids with {@code F < t <= M} are in the checkpoint's cold tier; a restore with a
 * longer horizon reads the ids after its own forget boundary up to F back from the reservoir, as
 * {@link DedupIds#setHorizon} does (a checkpoint of a version that stored M only: not). {@link DedupIds#restore} therefore reads back from the
 * reservoir only the events after {@code max(M, T - H - 1)}: the last {@code Hh} of event time, not
 * the whole horizon (180 days of ids for a 180-day window). Exact: the ids in (T - H - 1, M] are
 * in the cold tier, the later ones are read back (to cold up to the spill boundary, to hot after);
 * were M above the spill boundary the task now computes (a longer {@code Hh}), the ids in between
 * stay in cold only, where a lookup finds them as well. The record's third long is R below; its
 * fourth the cap of the hot horizon a narrowing left, restored as it was (a record without it: none).
 *
 * <p><b>Two copies of an id.</b> An id is counted again once it is forgotten, so two counted events
 * with one id are always more than the horizon apart — until the horizon is lengthened (by
 * {@link DedupIds#setHorizon} or a restore with a longer one) while the reservoir still holds the older:
 * then both are within H, and the later must keep the id. The hot tier keeps the later copy's entry
 * ({@link io.railgun.engine.dedup.DedupIndex#latest}); for the cold tier, which holds one timestamp per id, R is the
 * highest old forget boundary such a lengthening passed back over: storing or deleting the cold copy
 * of an id counted at or before R reads it first and leaves a later one in place (up to two RocksDB
 * reads for each such id, at the store and at the forget, until the forget cursor passes R). A
 * record without R (an earlier version's) is restored with R at T when its F is unknown. A restore
 * with a shorter horizon, or without a cold tier, deletes the cold ids it no longer covers (a stale
 * one could pass for a later copy). (A record of M only, restored with a longer horizon, does not
 * remember again the ids between the two forget boundaries.)
 *
 * <p>Allocation-free per event. Owned by the task's thread.
 */
final class ColdIds {
    static final byte ID = 1;
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final byte[] MARK_KEY = {0};

    /**
     * A checkpoint's record: M and F (Long.MIN_VALUE when unknown; {@code current} when it has F),
     * R ({@code full} when it has it, else Long.MIN_VALUE) and the cap of the hot horizon
     * (Long.MAX_VALUE when none, or a record without it).
     */
    record Mark(boolean marked, long spill, boolean current, long forget, boolean full, long reopened, long hotCap) {
        /** No record: a task without a cold tier, or none saved yet. */
        static final Mark NONE = new Mark(false, Long.MIN_VALUE, false, Long.MIN_VALUE, false, Long.MIN_VALUE, Long.MAX_VALUE);
    }

    private final ColdKeys keys;
    private final StateReader reader = new StateReader();
    private final byte[] value = new byte[32];
    private ColdIdFilter filter; // null until the tier is first active
    private long high = Long.MIN_VALUE; // the latest timestamp of an id the tier may hold
    private long reopenedTo = Long.MIN_VALUE; // R; Long.MIN_VALUE once the forget boundary passed it
    private long filterNegatives;
    private long duplicates;

    ColdIds(ColdKeys keys) {
        this.keys = keys;
    }

    /**
     * Whether the id in {@code key} (its {@code len} bytes after the tag) was counted after
     * {@code forgetBoundary}: a duplicate. Asked only while the tier is active.
     */
    boolean contains(byte[] key, int len, long forgetBoundary) {
        if (!filter.mightContain(key, 1, len)) {
            filterNegatives++;
            return false;
        }
        if (keys.load(key, 0, len + 1, reader) && reader.getLong() > forgetBoundary) {
            duplicates++;
            return true;
        }
        return false;
    }

    /** Notes that {@link #contains} will soon ask for the id in {@code id[offset .. offset + len)} (see {@link ColdIdFilter#prefetch}). */
    void prefetchContains(byte[] id, int offset, int len) {
        filter.prefetch(id, offset, len);
    }

    /** Loads what {@link #prefetchContains} noted; returns anything. */
    long issueContainsPrefetches() {
        return filter.issuePrefetches();
    }

    /** Keeps an id counted at {@code timestamp}, unless a later copy of it is kept. */
    void store(byte[] key, int len, long timestamp) {
        long later = laterCopy(key, len, timestamp);
        if (later != Long.MIN_VALUE) {
            // the later copy keeps the id; in the filter too (a copy an earlier version left may not be)
            filter.add(key, 1, len, later);
            high = Math.max(high, later);
            return;
        }
        LONG.set(value, 0, timestamp);
        keys.store(key, 0, len + 1, value, 0, 8);
        filter.add(key, 1, len, timestamp);
        high = Math.max(high, timestamp);
    }

    /**
     * Notes that the id in {@code key} will be stored soon ({@link StagedColdIds}): loads the
     * filter's block its store sets, and notes the write buffer's bucket; returns anything.
     */
    long prefetchStore(byte[] key, int len, long timestamp) {
        keys.prefetchWrite(key, 0, len + 1);
        return filter.touchForAdd(key, 1, len, timestamp);
    }

    /** Notes that the id in {@code key} will be forgotten soon ({@link StagedColdIds}). */
    void prefetchForget(byte[] key, int len) {
        keys.prefetchWrite(key, 0, len + 1);
    }

    /** Loads the write buffer's buckets noted by the two above; returns anything. */
    long issuePrefetches() {
        return keys.issueWritePrefetches();
    }

    /** Forgets the copy of an id counted at {@code timestamp}, unless the tier holds a later one. */
    void forget(byte[] key, int len, long timestamp) {
        if (laterCopy(key, len, timestamp) == Long.MIN_VALUE) {
            keys.delete(key, 0, len + 1);
        }
    }

    /** Deletes an id whatever copy is kept (it goes to memory with its latest copy). */
    void delete(byte[] key, int len) {
        keys.delete(key, 0, len + 1);
    }

    /**
     * The timestamp of the kept copy of the id when it is later than {@code timestamp}, else
     * Long.MIN_VALUE: asked only for ids counted at or before R, the only ones that may have one
     * (a RocksDB read each, at the store and at the forget, while a lengthened horizon's old
     * boundary is passed).
     */
    private long laterCopy(byte[] key, int len, long timestamp) {
        if (timestamp > reopenedTo || !keys.load(key, 0, len + 1, reader)) {
            return Long.MIN_VALUE;
        }
        long stored = reader.getLong();
        return stored > timestamp ? stored : Long.MIN_VALUE;
    }

    /** A horizon grew back over {@code oldForget}: the ids counted up to it may have later copies. */
    void reopen(long oldForget) {
        reopenedTo = Math.max(reopenedTo, oldForget);
    }

    /** The forget boundary moved to {@code forgetBoundary}: R is dropped once passed. */
    void passed(long forgetBoundary) {
        if (reopenedTo != Long.MIN_VALUE && forgetBoundary >= reopenedTo) {
            reopenedTo = Long.MIN_VALUE; // no copy left to tell apart
        }
    }

    /** The latest timestamp of an id the tier may hold. */
    long high() {
        return high;
    }

    void high(long timestamp) {
        high = timestamp;
    }

    /** Adopts the filter for a new width of the tier (see {@link ColdIdFilter#adopt}). */
    void adoptFilter(boolean active, long width, boolean wasActive) {
        filter = ColdIdFilter.adopt(filter, active, width, wasActive ? high : Long.MIN_VALUE);
    }

    void forgetBefore(long boundary) {
        filter.forgetBefore(boundary);
    }

    /** Sizes the filter from the ids held in memory over the hot horizon (the rate of ids). */
    void expect(long hotIds, long hotHorizonMs) {
        filter.expect(hotIds, hotHorizonMs);
    }

    /**
     * Writes the checkpoint's record (and the filter) with the changes the next checkpoint writes:
     * M, F, R, then the cap of the hot horizon ({@link HotIdHorizon}; Long.MAX_VALUE: none).
     */
    void mark(long spillMark, long forgetBoundary, long hotCapMs) {
        LONG.set(value, 0, spillMark);
        LONG.set(value, 8, forgetBoundary);
        LONG.set(value, 16, reopenedTo > forgetBoundary ? reopenedTo : Long.MIN_VALUE);
        LONG.set(value, 24, hotCapMs);
        keys.store(MARK_KEY, 0, 1, value, 0, 32);
        if (filter != null) {
            filter.save(keys, spillMark);
        }
    }

    /**
     * The checkpoint's record as saved ({@link Mark#NONE} when none), without restoring anything:
     * its spill mark is Long.MIN_VALUE when its cold tier was not active (see
     * {@link DedupIds#markCheckpoint}).
     */
    Mark saved() {
        if (!keys.load(MARK_KEY, 0, 1, reader)) {
            return Mark.NONE;
        }
        long spill = reader.getLong();
        boolean current = reader.remaining() >= 8;
        long forget = current ? reader.getLong() : Long.MIN_VALUE;
        boolean full = current && reader.remaining() >= 8;
        long reopened = full ? reader.getLong() : Long.MIN_VALUE;
        long hotCap = full && reader.remaining() >= 8 ? reader.getLong() : Long.MAX_VALUE;
        return new Mark(true, spill, current, forget, full, reopened, hotCap);
    }

    /**
     * Reads the checkpoint's record back, with its filter, for a restore at {@code time} whose forget
     * boundary is {@code boundary}: R as saved, raised to F when the horizon is longer than the
     * checkpoint's, or to T when the record (an earlier version's) has no F.
     */
    Mark restore(long time, long boundary, boolean active, long width) {
        Mark saved = saved();
        long spill = saved.spill();
        long forget = saved.forget();
        reopenedTo = saved.reopened();
        if (boundary < forget) {
            reopen(forget); // the ids read back before the checkpoint's boundary may have copies
        } else if (saved.marked() && !saved.full() && forget == Long.MIN_VALUE) {
            // an earlier version's record without F (its cold tier was off, or it stored M only):
            // whether the horizon grew is not known, so every id read back may have a later copy
            reopenedTo = time;
        }
        filter = SavedColdIdFilter.restore(keys, spill, saved.current(), active, width);
        high = active ? spill : Long.MIN_VALUE;
        return saved;
    }

    /** New ids the filter kept from a RocksDB lookup since the task was opened. */
    long filterNegatives() {
        return filterNegatives;
    }

    /** Heap bytes of the filter. */
    long filterBytes() {
        return filter == null ? 0 : filter.bytes();
    }

    /** Duplicates found in this tier since the task was opened. */
    long duplicates() {
        return duplicates;
    }
}
