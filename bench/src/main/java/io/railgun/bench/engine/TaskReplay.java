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
     * tasks) into {@code latency.perEvent}, each call into its task's histogram.
     */
    static double replayTimed(TaskProcessor[] tasks, EventBatch batch, EventRow row, int from, int to,
                              ReplayLatency latency, long t0) {
        Histogram perEvent = latency.perEvent;
        Histogram[] perTask = latency.perTask;
        double sum = 0;
        for (int i = from; i < to; i++) {
            if ((i & 0xFFFF) == 0) {
                GcWatchdog.progress = i;
            }
            batch.wrap(row, i);
            long eventNs = 0;
            long end = 0;
            boolean checkpoint = false;
            for (int k = 0; k < tasks.length; k++) {
                TaskProcessor t = tasks[k];
                // set each time the task begins a checkpoint (in process(), after the event): tells
                // which events paid for beginning one (or waited for the previous one)
                long c0 = t.lastCheckpointStartMs();
                long start = System.nanoTime();
                Reply r = t.process(row);
                end = System.nanoTime();
                if (t.lastCheckpointStartMs() != c0) {
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
