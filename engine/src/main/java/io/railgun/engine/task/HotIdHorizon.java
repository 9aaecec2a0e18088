package io.railgun.engine.task;

import io.railgun.engine.dedup.DedupIndex;
import io.railgun.engine.state.durable.HotIdPool;

/**
 * How far back a task's {@link DedupIds} keep ids in memory, and its part of the node's
 * {@link HotIdPool} that decides it. With the cold tier active, the hot horizon is
 * {@code Hh = max(lateness, min(dedupHotMs, cap))}: the cap is narrowed when the pool stays passed
 * with the tier active, as a day of ids at a high rate (86 M ids at 1,000 events a second, some
 * 5 GB) would otherwise outgrow any heap. Narrowed in proportion to the pool's excess, never below
 * the lateness (an event the task accepts is always hot); doubled back towards {@code dedupHotMs}
 * when the pool has room for it (the task's ids doubled, the pool at most 3/4 full, so it is not
 * narrowed again at once); kept across horizon changes, and saved with each checkpoint for its
 * restore. Owned by the task's thread.
 */
final class HotIdHorizon implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(DedupIds.class.getName());
    /** Narrowed to this fraction of what would just fit, so that the pool is not passed again at once. */
    private static final double MARGIN = 0.75;
    /** The bytes of a fresh index holding an id (its arrays at their least): narrowing one that holds no more frees nothing. */
    private static final long FRESH_INDEX_BYTES = leastIndexBytes();

    private final long dedupHotMs;
    private final HotIdPool.Share share; // null: no pool
    private long latenessMs;
    private long capMs = Long.MAX_VALUE;
    private long narrowAboveBytes = FRESH_INDEX_BYTES;
    private long narrowings;
    private long widenings;

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

    /** The cap now (Long.MAX_VALUE: none), saved with a checkpoint. */
    long capMs() {
        return capMs;
    }

    /** A restore of a checkpoint taken with cap {@code capMs} (Long.MAX_VALUE: none). */
    void restoredFrom(long capMs) {
        this.capMs = capMs;
    }

    long latenessMs() {
        return latenessMs;
    }

    /**
     * Whether the cap can be doubled: narrowed, and the pool would be at most 3/4 full with the
     * task's index ({@code bytes}, of which a fresh index's are fixed) three times as large (twice
     * the ids: its table, a power of two, may more than double). Doubled with less room, a task
     * holding 180 kB of a 400 kB pool went back and forth, narrowed 1,998 times in 100,000 events.
     */
    boolean roomToWiden(long bytes) {
        return narrowedNow()
                && share.heldBytes() + 2 * Math.max(0, bytes - FRESH_INDEX_BYTES) <= share.limitBytes() / 4 * 3;
    }

    /** Whether the hot horizon is narrowed now (the cap below {@code dedupHotMs}). */
    boolean narrowedNow() {
        return capMs < dedupHotMs;
    }

    /** Doubles the cap (dropped once it reaches {@code dedupHotMs}); the hot horizon is {@link #forLateness} again. */
    void widen() {
        long doubled = 2 * Math.max(1, capMs); // (capMs < dedupHotMs: no overflow)
        capMs = doubled >= dedupHotMs ? Long.MAX_VALUE : doubled;
        widenings++;
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

    /** Logs a move of ids between the tiers, begun at {@code startedNanos}; {@code what} formats the hot horizon. */
    void logMoved(String what, long hotHorizonMs, DedupIndex hot, long startedNanos) {
        long ms = (System.nanoTime() - startedNanos) / 1_000_000;
        LOG.log(System.Logger.Level.INFO, () -> String.format(what + " (%,d ids, %,d bytes kept in memory; %,d ms)",
                hotHorizonMs, hot.held(), hot.memoryBytes(), ms));
    }

    /** Narrows only an index of more bytes than this (tests narrow indexes of a few ids). */
    void narrowAbove(long bytes) {
        narrowAboveBytes = bytes;
    }

    /** Times the cap was doubled since the task was opened. */
    long widenings() {
        return widenings;
    }

    /** Times the hot horizon was narrowed since the task was opened. */
    long narrowings() {
        return narrowings;
    }

    private static long leastIndexBytes() {
        DedupIndex index = new DedupIndex();
        index.add(new byte[] {0, 1}, 1, 1, 0); // (the log's first page comes with the first id)
        return index.memoryBytes();
    }

    @Override
    public void close() {
        if (share != null) {
            share.close();
        }
    }
}
