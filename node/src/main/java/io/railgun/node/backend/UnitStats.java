package io.railgun.node.backend;

import java.util.Collection;
import java.util.OptionalLong;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/**
 * What a processor unit reports for the metrics page: written by the unit's thread, read by
 * scrapes (plain volatile fields, refreshed about once a second).
 */
public final class UnitStats {
    /** Input records handled (events, DDL markers, reads). */
    volatile long records;
    volatile long rebalances;
    volatile int tasks;
    volatile long lag;
    volatile long reservoirEvents;
    volatile long hotKeys;
    volatile long reservoirMemoryBytes;
    volatile long stateBufferBytes;

    void update(Collection<TaskRunner> runners, KafkaConsumer<byte[], byte[]> consumer) {
        long lagSum = 0;
        long events = 0;
        long keys = 0;
        long reservoirBytes = 0;
        long stateBytes = 0;
        for (TaskRunner t : runners) {
            reservoirBytes += t.processor().reservoirMemoryBytes();
            if (t.processor().durableState() != null) {
                stateBytes += t.processor().durableState().writeBufferBytes();
            }
            OptionalLong l = consumer.currentLag(t.partition);
            if (l.isPresent()) {
                lagSum += l.getAsLong();
            }
            events += t.processor().reservoirSize();
            keys += t.processor().hotKeys();
        }
        tasks = runners.size();
        lag = lagSum;
        reservoirEvents = events;
        hotKeys = keys;
        reservoirMemoryBytes = reservoirBytes;
        stateBufferBytes = stateBytes;
    }

    /** Heap bytes of the reservoirs' event data (open regions, chunk caches). */
    public long reservoirMemoryBytes() {
        return reservoirMemoryBytes;
    }

    /** Bytes of state changes held in memory until the next checkpoint. */
    public long stateBufferBytes() {
        return stateBufferBytes;
    }

    public long records() {
        return records;
    }

    public long rebalances() {
        return rebalances;
    }

    public int tasks() {
        return tasks;
    }

    public long lag() {
        return lag;
    }

    public long reservoirEvents() {
        return reservoirEvents;
    }

    public long hotKeys() {
        return hotKeys;
    }
}
