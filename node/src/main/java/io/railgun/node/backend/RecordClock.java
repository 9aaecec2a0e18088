package io.railgun.node.backend;

import java.time.Instant;
import java.time.InstantSource;

/**
 * The clock a task reads for streams without a timestamp field: the timestamp the front-end gave
 * the record when it accepted the event (its ingestion time), so a replay after a crash sees the
 * same time as the first run.
 */
final class RecordClock implements InstantSource {
    private long millis;

    void set(long recordTimestamp) {
        this.millis = recordTimestamp;
    }

    @Override
    public long millis() {
        return millis;
    }

    @Override
    public Instant instant() {
        return Instant.ofEpochMilli(millis);
    }
}
