package io.railgun.node.recovery;

import io.railgun.node.assignment.TaskId;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Counters of a node's recoveries from peers, and the progress of those under way: written by the
 * recovery threads, read by metric scrapes, logs and tests from any thread.
 */
public final class RecoveryMetrics {
    final AtomicLong started = new AtomicLong();
    final AtomicLong completed = new AtomicLong();
    final AtomicLong failed = new AtomicLong();
    final AtomicLong bytesCopied = new AtomicLong();
    final AtomicLong bytesReused = new AtomicLong();
    private final Map<TaskId, Progress> inProgress = new ConcurrentHashMap<>();

    /** A recovery under way: the task, its source and bytes done of total (updated as it goes). */
    public static final class Progress {
        public final TaskId task;
        public final String fromNode;
        public final long totalBytes;
        final long startedNs = System.nanoTime();
        final AtomicLong doneBytes = new AtomicLong();

        Progress(TaskId task, String fromNode, long totalBytes) {
            this.task = task;
            this.fromNode = fromNode;
            this.totalBytes = totalBytes;
        }

        public long doneBytes() {
            return doneBytes.get();
        }
    }

    public long started() {
        return started.get();
    }

    public long completed() {
        return completed.get();
    }

    public long failed() {
        return failed.get();
    }

    /** Bytes fetched from peers (not those of files already held). */
    public long bytesCopied() {
        return bytesCopied.get();
    }

    /** Bytes of files a stale copy already held, kept rather than fetched. */
    public long bytesReused() {
        return bytesReused.get();
    }

    public List<Progress> inProgress() {
        return List.copyOf(inProgress.values());
    }

    Progress begin(TaskId task, String fromNode, long totalBytes) {
        Progress p = new Progress(task, fromNode, totalBytes);
        inProgress.put(task, p);
        return p;
    }

    void end(TaskId task) {
        inProgress.remove(task);
    }
}
