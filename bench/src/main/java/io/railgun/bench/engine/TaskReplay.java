package io.railgun.bench.engine;

import io.railgun.bench.data.EventBatch;
import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.task.Reply;
import io.railgun.engine.task.TaskProcessor;
import org.HdrHistogram.Histogram;

/**
 * Feeds pre-generated events to the task processors of an {@link EngineBench} run, untimed (the
 * warm-up) or timed around every {@code process()} call into a {@link ReplayLatency}; each returns
 * the sum of the replies' values as a checksum. Called on the replay thread; nothing allocates per
 * event.
 */
final class TaskReplay {
    private TaskReplay() {}

    /**
     * The timed replay: System.nanoTime around every process() call, the event's total (over its
     * tasks) into {@code latency.perEvent}, each call into its task's histogram. With {@code
     * prefetch} > 0, each group of that many events is first prefetched ({@link #prefetch}), as the
     * node does a poll's records.
     */
    static double replayTimed(TaskProcessor[] tasks, EventBatch batch, EventRow row, int from, int to, int prefetch,
                              ReplayLatency latency, long t0) {
        Histogram perEvent = latency.perEvent;
        Histogram[] perTask = latency.perTask;
        double sum = 0;
        for (int i = from; i < to; i++) {
            if ((i & 0xFFFF) == 0) {
                GcWatchdog.progress = i;
            }
            if (prefetch > 0 && (i - from) % prefetch == 0) {
                prefetch(tasks, batch, row, i, Math.min(to, i + prefetch)); // untimed per event, in the run's time
            }
            batch.wrap(row, i);
            long eventNs = 0;
            long end = 0;
            boolean checkpoint = false;
            for (int k = 0; k < tasks.length; k++) {
                TaskProcessor t = tasks[k];
                // set each time the task begins a checkpoint (in process(), after the event): tells
                // which events paid for beginning one (or waited for the previous one)
                long c0 = t.stats().lastCheckpointStartMs();
                long start = System.nanoTime();
                Reply r = t.process(row);
                end = System.nanoTime();
                if (t.stats().lastCheckpointStartMs() != c0) {
                    checkpoint = true;
                }
                long ns = end - start;
                eventNs += ns;
                perTask[k].recordValue(Math.min(ns, ReplayLatency.HIGHEST_NS));
                sum += sum(r);
            }
            long v = Math.min(eventNs, ReplayLatency.HIGHEST_NS);
            perEvent.recordValue(v);
            (checkpoint ? latency.checkpointing : latency.notCheckpointing).recordValue(v);
            if (eventNs >= ReplayLatency.SLOW_NS) {
                latency.slow(end - t0, eventNs, checkpoint);
            }
        }
        return sum;
    }

    /**
     * Events {@code from} to {@code to} (exclusive) will be processed next: each task notes their
     * lookups, which its next process() loads together ({@link TaskProcessor#prefetch}), as the
     * node does for the records of a poll.
     */
    static void prefetch(TaskProcessor[] tasks, EventBatch batch, EventRow row, int from, int to) {
        for (int j = from; j < to; j++) {
            batch.wrap(row, j);
            for (TaskProcessor t : tasks) {
                t.prefetch(row);
            }
        }
    }

    /** Cost of the two System.nanoTime calls around a call, on this machine (best of a few warm rounds). */
    static long timerOverheadNs() {
        long best = Long.MAX_VALUE;
        long sink = 0;
        for (int round = 0; round < 5; round++) {
            int n = 1_000_000;
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                long a = System.nanoTime();
                sink += System.nanoTime() - a;
            }
            best = Math.min(best, (System.nanoTime() - t0) / n);
        }
        return sink == Long.MIN_VALUE ? -1 : best;
    }

    /** The untimed replay of one event (the warm-up): each task processes it. */
    static double replay(TaskProcessor[] tasks, EventRow row) {
        double sum = 0;
        for (TaskProcessor t : tasks) {
            sum += sum(t.process(row));
        }
        return sum;
    }

    /** The sum of a reply's values, for the run's checksum. */
    static double sum(Reply r) {
        double sum = 0;
        for (int i = 0; i < r.size(); i++) {
            if (!r.isNull(i)) {
                sum += r.type(i) == ValueType.DOUBLE ? r.doubleValue(i) : r.longValue(i);
            }
        }
        return sum;
    }
}
