package io.railgun.engine.task;

/**
 * How long a task remembers the ids of the events it counted. The id of a counted event with
 * timestamp t is remembered while {@code t >= T - H}, T the stream time, where
 * {@code H = max(minDedupHorizonMs, lateness, the longest window extent)} (extent W + D for sliding
 * windows, W for tumbling; unbounded windows add nothing). A duplicate whose original is still
 * inside that horizon is never counted twice. H is recomputed when metrics change; when it grows,
 * ids already forgotten stay forgotten.
 */
public final class DedupHorizon {
    private DedupHorizon() {}

    public static long of(long minDedupHorizonMs, long latenessMs, long maxWindowExtentMs) {
        return Math.max(minDedupHorizonMs, Math.max(latenessMs, maxWindowExtentMs));
    }
}
