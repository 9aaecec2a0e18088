package io.railgun.node.backend;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.OptionalLong;
import org.apache.kafka.clients.consumer.KafkaConsumer;

/**
 * What a processor unit reports for the metrics page and the readiness check: written by the unit's
 * thread, read by scrapes (plain volatile fields and an immutable list of {@link TaskStats},
 * refreshed about once a second and at each rebalance).
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
    /** Partitions assigned to the unit that it does not run (their stream is unknown to the catalog). */
    volatile int unserved;
    /**
     * True once the unit has received its first assignment, or found nothing to subscribe to at its
     * start; false before (it is joining the task group).
     */
    volatile boolean joined;
    private volatile List<TaskStats> taskStats = List.of();

    void update(Collection<TaskRunner> runners, KafkaConsumer<byte[], byte[]> consumer) {
        List<TaskStats> perTask = new ArrayList<>(runners.size());
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
            perTask.add(t.stats(l.orElse(-1), consumer.position(t.partition)));
        }
        taskStats = List.copyOf(perTask);
        unserved = consumer.paused().size(); // the unit pauses only partitions it cannot run
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

    /** The unit's tasks as last published. */
    public List<TaskStats> taskStats() {
        return taskStats;
    }

    /** Partitions assigned to the unit that it does not run: their stream is not (yet) in the catalog. */
    public int unserved() {
        return unserved;
    }

    /** False until the unit has its first assignment (or found no stream to subscribe to when it started). */
    public boolean joined() {
        return joined;
    }
}
