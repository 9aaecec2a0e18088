package io.railgun.bench.engine;

import io.railgun.engine.state.durable.DurableStateStore;
import io.railgun.engine.task.TaskProcessor;

/**
 * Durable stores' counters summed over the tasks of an {@link EngineBench} run (zero for in-memory
 * tasks), read before and after the timed part. Read on the replay thread, after the checkpoint
 * thread has written them (see {@code awaitCheckpoint}).
 */
record DurableCounters(long checkpoints, long lastCheckpointBytes, long lastCheckpointNanos, long hotKeys,
                       long evictions, long coldLoads, long coldReads, long hotLimit, long bytesPerHotKey,
                       long bytesWritten) {
    static DurableCounters of(TaskProcessor[] tasks) {
        long checkpoints = 0, bytes = 0, nanos = 0, hot = 0, evictions = 0, loads = 0, reads = 0, written = 0;
        long limit = 0, perKey = 0;
        for (TaskProcessor t : tasks) {
            DurableStateStore s = t.durableState();
            if (s == null) {
                continue;
            }
            checkpoints += s.checkpoints();
            bytes += s.lastCheckpointBytes();
            written += s.checkpointBytesWritten();
            nanos = Math.max(nanos, s.lastCheckpointNanos());
            reads += s.coldReads();
            hot += t.stats().hotKeys();
            evictions += t.stats().evictions();
            loads += t.stats().coldLoads();
            limit = Math.max(limit, s.hotKeyLimit());
            perKey = Math.max(perKey, s.hotBytesPerKey());
        }
        return new DurableCounters(checkpoints, bytes, nanos, hot, evictions, loads, reads, limit, perKey, written);
    }
}
