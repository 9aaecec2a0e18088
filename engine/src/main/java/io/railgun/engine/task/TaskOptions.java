package io.railgun.engine.task;

import java.time.InstantSource;

/**
 * Settings of a task processor, validated once.
 *
 * @param clock             source of ingestion time, for streams without a timestamp field
 * @param minDedupHorizonMs the least time (behind stream time) for which event ids are remembered;
 *                          the horizon actually used is the largest of this, the lateness and every
 *                          window's extent (see {@link DedupHorizon})
 */
public record TaskOptions(InstantSource clock, long minDedupHorizonMs) {
    /** Default minimum dedup horizon: one hour. */
    public static final long DEFAULT_MIN_DEDUP_HORIZON_MS = 3_600_000L;

    public TaskOptions {
        if (minDedupHorizonMs < 0) {
            throw new IllegalArgumentException("minDedupHorizonMs must not be negative");
        }
    }

    public static TaskOptions defaults() {
        return new TaskOptions(InstantSource.system(), DEFAULT_MIN_DEDUP_HORIZON_MS);
    }

    public TaskOptions withClock(InstantSource newClock) {
        return new TaskOptions(newClock, minDedupHorizonMs);
    }

    public TaskOptions withMinDedupHorizonMs(long ms) {
        return new TaskOptions(clock, ms);
    }
}
