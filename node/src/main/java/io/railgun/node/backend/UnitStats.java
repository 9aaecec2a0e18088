package io.railgun.node.backend;

import java.util.ArrayList;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.apache.kafka.clients.consumer.Consumer;

/**
 * What a processor unit reports for the metrics page and the readiness check: written by the unit's
 * thread, read by scrapes (plain volatile fields and an immutable list of {@link TaskStats},
 * refreshed about once a second and at each rebalance).
 */
public final class UnitStats {
    /** Input records handled (events, DDL markers, reads), by active tasks and replicas. */
    volatile long records;
    volatile long rebalances;
    volatile int tasks;
    /** Replica tasks the unit runs (hot copies of tasks active on other nodes). */
    volatile int replicaTasks;
    /** Tasks being copied from a peer before they open here. */
    volatile int recovering;
    /** Replicas that became active here in place (no copy, no replay), since the start. */
    volatile long promotions;
    /** Active tasks that stayed here as replicas, since the start. */
    volatile long demotions;
    /** Tasks opened from their directory (restoring a checkpoint), since the start: promotions open none. */
    volatile long opens;
    /** Replies not sent because their record was older than any request still waiting (a replay). */
    volatile long repliesSkipped;
    /** Input records the unit's replicas have not read yet. */
    volatile long replicaLag;
    volatile long lag;
    volatile long reservoirEvents;
    volatile long hotKeys;
    volatile long reservoirMemoryBytes;
    /** Nanoseconds the unit's tasks waited for their reservoirs' writers, since the start (a running total). */
    volatile long reservoirWriteWaitNanos;
    // each task's waits at the last update (unit's thread): the total grows by what each added since
    private Map<TaskRunner, Long> writeWaitsSeen = new IdentityHashMap<>();
    volatile long stateBufferBytes;
    /** Partitions assigned to the unit that it does not run (their stream is unknown to the catalog). */
    volatile int unserved;
    /**
     * True once the unit has received its first assignment, or found nothing to subscribe to at its
     * start; false before (it is joining the task group).
     */
    volatile boolean joined;
    private volatile List<TaskStats> taskStats = List.of();
    private volatile List<TaskStats> replicaStats = List.of();
    private final HistoryGaps historyGaps = new HistoryGaps();

    /** Refreshes the figures from the unit's tasks (its thread). */
    void update(Collection<TaskRunner> actives, Collection<TaskRunner> replicas, Consumer<byte[], byte[]> consumer,
            ReplicaReader replicaReader, int copying, int notRun) {
        List<TaskStats> perTask = new ArrayList<>(actives.size());
        long lagSum = 0;
        long events = 0;
        long keys = 0;
        long reservoirBytes = 0;
        long writeWaits = reservoirWriteWaitNanos;
        Map<TaskRunner, Long> waitsSeen = new IdentityHashMap<>();
        long stateBytes = 0;
        for (TaskRunner t : actives) {
            OptionalLong l = consumer.currentLag(t.partition);
            if (l.isPresent()) {
                lagSum += l.getAsLong();
            }
            perTask.add(t.stats(l.orElse(-1), consumer.position(t.partition)));
        }
        long replicaLagSum = 0;
        List<TaskStats> perReplica = new ArrayList<>(replicas.size());
        for (TaskRunner t : replicas) {
            OptionalLong l = replicaReader.reads(t.partition) ? replicaReader.lag(t.partition) : OptionalLong.empty();
            replicaLagSum += l.orElse(0);
            perReplica.add(t.stats(l.orElse(-1), replicaReader.reads(t.partition) ? replicaReader.position(t.partition)
                    : t.resumeOffset()));
        }
        for (Collection<TaskRunner> c : List.of(actives, replicas)) {
            for (TaskRunner t : c) {
                reservoirBytes += t.processor().stats().reservoirMemoryBytes();
                long waited = t.processor().stats().reservoirWriteWaitNanos();
                long before = writeWaitsSeen.getOrDefault(t, 0L);
                writeWaits += waited >= before ? waited - before : waited; // (less: its processor was opened again)
                waitsSeen.put(t, waited);
                if (t.processor().durableState() != null) {
                    stateBytes += t.processor().durableState().writeBufferBytes();
                }
                events += t.processor().stats().reservoirSize();
                keys += t.processor().stats().hotKeys();
            }
        }
        taskStats = List.copyOf(perTask);
        replicaStats = List.copyOf(perReplica);
        recovering = copying;
        unserved = notRun;
        tasks = actives.size();
        replicaTasks = replicas.size();
        lag = lagSum;
        replicaLag = replicaLagSum;
        reservoirEvents = events;
        hotKeys = keys;
        reservoirMemoryBytes = reservoirBytes;
        reservoirWriteWaitNanos = writeWaits;
        writeWaitsSeen = waitsSeen;
        stateBufferBytes = stateBytes;
    }

    /** Heap bytes of the reservoirs' event data (open regions, chunk caches). */
    public long reservoirMemoryBytes() {
        return reservoirMemoryBytes;
    }

    /** Nanoseconds the tasks waited for their reservoirs' writers, since the start (what tasks that left waited included). */
    public long reservoirWriteWaitNanos() {
        return reservoirWriteWaitNanos;
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

    public int replicaTasks() {
        return replicaTasks;
    }

    public int recovering() {
        return recovering;
    }

    public long promotions() {
        return promotions;
    }

    public long demotions() {
        return demotions;
    }

    public long opens() {
        return opens;
    }

    public long repliesSkipped() {
        return repliesSkipped;
    }

    public long replicaLag() {
        return replicaLag;
    }

    /** The unit's replica tasks as last published (their lag is the replica consumer's). */
    public List<TaskStats> replicaStats() {
        return replicaStats;
    }

    /** The unit's active tasks as last published. */
    public List<TaskStats> taskStats() {
        return taskStats;
    }

    /** Partitions assigned to the unit that it does not run: their stream is not (yet) in the catalog. */
    public int unserved() {
        return unserved;
    }

    /** The tasks the unit opened with incomplete history (their input deleted by retention). */
    public HistoryGaps historyGaps() {
        return historyGaps;
    }

    /** False until the unit has its first assignment (or found no stream to subscribe to when it started). */
    public boolean joined() {
        return joined;
    }
}
