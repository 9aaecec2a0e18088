package io.railgun.node.backend;

/**
 * One task's figures as its processor unit last published them (about once a second, and at each
 * rebalance): an immutable snapshot built on the unit's thread, read by scrapes and readiness checks
 * on any thread.
 *
 * @param stream               the stream's name
 * @param partitioner          the partitioner field whose topic the task reads
 * @param partition            the topic's partition
 * @param events               events the task processed since this node opened it (duplicates and late ones included)
 * @param lag                  input records not yet read, or -1 while the consumer does not know yet
 * @param replayLeft           records left to replay before the task has caught up with its input
 *                             after being opened, or 0 when it is not replaying (replays of fewer
 *                             than 1,000 records are not tracked: they show as lag)
 * @param reservoirEvents      events held in the task's reservoir
 * @param reservoirMemoryBytes heap bytes of the reservoir's event data (open regions, chunk caches)
 * @param hotKeys              keys in the state's hot tier
 * @param stateBufferBytes     state changes held in memory until the next checkpoint
 * @param streamTimeMs         the task's stream time in epoch milliseconds, or {@link Long#MIN_VALUE} before its first event
 * @param checkpointOffset     the input offset its last complete checkpoint resumes at (0 before any)
 * @param checkpointAgeMs      0 when that checkpoint covers every record the task has read; else how long
 *                             ago this node saw it complete (at least the time since the task was opened
 *                             here, for a checkpoint restored at open), to about a second
 */
public record TaskStats(String stream, String partitioner, int partition, long events, long lag, long replayLeft,
        long reservoirEvents, long reservoirMemoryBytes, long hotKeys, long stateBufferBytes, long streamTimeMs,
        long checkpointOffset, long checkpointAgeMs) {

    /** {@code stream/partitioner-partition}, how logs and readiness reasons name a task. */
    public String name() {
        return stream + "/" + partitioner + "-" + partition;
    }
}
