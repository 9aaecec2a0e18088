package io.railgun.engine.oracle;

/**
 * What one oracle task did with an event.
 *
 * @param partitioner the task's partitioner
 * @param partition   its partition
 * @param status      counted, rewritten, duplicate or dropped
 * @param timestamp   the timestamp it was counted at (its own when not counted)
 * @param streamTime  the task's stream time after the event
 * @param horizonMs   the dedup horizon in force
 */
public record TaskOutcome(String partitioner, int partition, TaskStatus status, long timestamp, long streamTime, long horizonMs) {}
