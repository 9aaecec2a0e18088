package io.railgun.engine.task;

import io.railgun.engine.dedup.DedupIndex;
import io.railgun.engine.state.durable.HotIdPool;
import io.railgun.engine.window.WindowBounds;

/**
 * How far back a task's {@link DedupIds} keep ids in memory, and its part of the node's
 * {@link HotIdPool} that decides it. With the cold tier active, the hot horizon is
 * {@code Hh = max(lateness, min(dedupHotMs, cap))}: the cap is narrowed when the pool stays passed
 * with the tier active, as a day of ids at a high rate (86 M ids at 1,000 events a second, some
 * 5 GB) would otherwise outgrow any heap. Narrowed in proportion to the pool's excess, never below
 * the lateness (an event the task accepts is always hot), kept across horizon changes, and taken
 * back from a checkpoint's spill mark by a restore. Owned by the task's thread.
 */
final class HotIdHorizon implements AutoCloseable {
    /** Narrowed to this fraction of what would just fit, so that the pool is not passed again at once. */
    private static final double MARGIN = 0.75;
    /** A fresh index's bytes: narrowing an index that holds no more frees nothing. */
    private static final long FRESH_INDEX_BYTES = new DedupIndex().memoryBytes();

    private final long dedupHotMs;
    private final HotIdPool.Share share; // null: no pool
    private long latenessMs;
    private long capMs = Long.MAX_VALUE;
    private long narrowAboveBytes = FRESH_INDEX_BYTES;
    private long narrowings;

    HotIdHorizon(long dedupHotMs, HotIdPool pool) {
        this.dedupHotMs = dedupHotMs;
        this.share = pool == null ? null : pool.join();
    }

    /** Whether the task has a part of a node's pool. */
    boolean pooled() {
        return share != null;
    }

    /** The hot horizon for a stream of lateness {@code latenessMs} (kept for {@link #narrowed}). */
    long forLateness(long latenessMs) {
        this.latenessMs = latenessMs;
        return Math.max(latenessMs, Math.min(dedupHotMs, capMs));
    }

    /**
     * A restore at stream time {@code time} of a checkpoint whose ids up to {@code spillMark} were
     * cold: its hot horizon was {@code time - spillMark - 1}; a narrower one than {@code dedupHotMs}
     * was narrowed, and is kept. No mark (Long.MIN_VALUE): not narrowed.
     */
    void restoredFrom(long time, long spillMark) {
        capMs = Long.MAX_VALUE;
        if (time != Long.MIN_VALUE && spillMark != Long.MIN_VALUE
                && spillMark > WindowBounds.minus(WindowBounds.minus(time, dedupHotMs), 1)) {
            capMs = time - spillMark - 1; // (within dedupHotMs of time: no overflow)
        }
    }

    /**
     * Reports the bytes of the task's ids in memory; true when the pool is passed and this task
     * holds more than an even part of it ({@link HotIdPool.Share#report}).
     */
    boolean report(long bytes) {
        return share.report(bytes);
    }

    /**
     * The hot horizon narrowed from {@code currentMs}, the pool passed while the task's index holds
     * {@code bytes} of ids over the last {@code spanMs} (at most {@code currentMs}: less when the
     * stream is younger): the span scaled by the pool's limit over what it holds, with a margin;
     * {@code currentMs} when it cannot be narrowed (it is the lateness already, or the index is a
     * fresh one).
     */
    long narrowed(long currentMs, long spanMs, long bytes) {
        long limit = share.limitBytes();
        long held = share.heldBytes();
        if (currentMs <= latenessMs || bytes <= narrowAboveBytes || held <= limit) {
            return currentMs;
        }
        long span = Math.max(0, Math.min(currentMs, spanMs));
        long narrowed = Math.max(latenessMs, (long) (span * MARGIN * limit / held));
        if (narrowed >= currentMs) {
            return currentMs;
        }
        capMs = narrowed;
        narrowings++;
        return narrowed;
    }

    /** Narrows only an index of more bytes than this (tests narrow indexes of a few ids). */
    void narrowAbove(long bytes) {
        narrowAboveBytes = bytes;
    }

    /** Times the hot horizon was narrowed since the task was opened. */
    long narrowings() {
        return narrowings;
    }

    @Override
    public void close() {
        if (share != null) {
            share.close();
        }
    }
}
