package io.railgun.bench.engine;

import io.railgun.bench.data.EventBatch;
import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.task.Reply;
import io.railgun.engine.task.TaskProcessor;
import org.HdrHistogram.Histogram;

/**
 * Feeds pre-generated events to the task processors of an {@link EngineBench} run, timed event by
 * event into a {@link ReplayLatency} (the warm-up's dropped); each returns
 * the sum of the replies' values as a checksum. Called on the replay thread; nothing allocates per
 * event.
 */
final class TaskReplay {
    private TaskReplay() {}

    /** Events per call of {@link #replaySlice} (rounded up to a multiple of the prefetch groups). */
    private static final int SLICE = 4096;

    /**
     * Replays events {@code from} to {@code to} (exclusive), timed into {@code latency}, in slices
     * of about {@value #SLICE} events, one {@link #replaySlice} call each. The warm-up and the timed
     * part both run this, so the per-event code the clock measures is the warm-up's, compiled by
     * the JIT as an ordinary method called thousands of times: a timed part run as one loop was
     * compiled on the fly (on-stack replacement) after it started, recompiled after a trap, and
     * its code (callees inlined into that loop or not) differed from run to run, in speeds up to
     * a fifth apart (docs/benchmarks.md, 2026-12-02).
     */
    static double replay(TaskProcessor[] tasks, EventBatch batch, EventRow row, int from, int to, int prefetch,
                         ReplayLatency latency, long t0) {
        int slice = prefetch > 0 ? (SLICE + prefetch - 1) / prefetch * prefetch : SLICE;
        double sum = 0;
        for (int i = from; i < to; i += slice) {
            GcWatchdog.progress = i;
            sum += replaySlice(tasks, batch, row, i, Math.min(to, i + slice), prefetch, latency, t0);
        }
        latency.finish();
        return sum;
    }

    /**
     * A slice of the replay. One clock read after each process() call (the previous read starts the
     * next, so an event's time runs from the end of the one before: its row, its group's prefetch
     * when it opens one, its process() calls, the checksum's sum of its reply); each event's total
     * (over its tasks) into {@code latency.checkpointing} or {@code notCheckpointing}, each call into
     * its task's histogram when there are several ({@link ReplayLatency#finish} then merges them).
     * One read and one or two recordings per event, where a read pair around each call and four
     * recordings took about 9% of E1's replay thread. With {@code prefetch} > 0, each group of that
     * many events is first prefetched ({@link #prefetch}), as the node does a poll's records.
     */
    private static double replaySlice(TaskProcessor[] tasks, EventBatch batch, EventRow row, int from, int to,
                                      int prefetch, ReplayLatency latency, long t0) {
        Histogram[] perTask = tasks.length > 1 ? latency.perTask : null;
        double sum = 0;
        long last = System.nanoTime();
        for (int i = from; i < to; i++) {
            if (prefetch > 0 && (i - from) % prefetch == 0) {
                prefetch(tasks, batch, row, i, Math.min(to, i + prefetch)); // timed with the group's first event
            }
            batch.wrap(row, i);
            long eventStart = last;
            boolean checkpoint = false;
            for (int k = 0; k < tasks.length; k++) {
                TaskProcessor t = tasks[k];
                // set each time the task begins a checkpoint (in process(), after the event): tells
                // which events paid for beginning one (or waited for the previous one)
                long c0 = t.stats().lastCheckpointStartMs();
                Reply r = t.process(row);
                sum += sum(r);
                if (t.stats().lastCheckpointStartMs() != c0) {
                    checkpoint = true;
                }
                if (perTask != null) {
                    long now = System.nanoTime();
                    perTask[k].recordValue(Math.min(now - last, ReplayLatency.HIGHEST_NS));
                    last = now;
                }
            }
            if (perTask == null) {
                last = System.nanoTime();
            }
            long eventNs = last - eventStart;
            long v = Math.min(eventNs, ReplayLatency.HIGHEST_NS);
            (checkpoint ? latency.checkpointing : latency.notCheckpointing).recordValue(v);
            if (eventNs >= ReplayLatency.SLOW_NS) {
                latency.slow(last - t0, eventNs, checkpoint);
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

    /** Cost of a System.nanoTime call, on this machine (best of a few warm rounds). */
    static long timerOverheadNs() {
        long best = Long.MAX_VALUE;
        long sink = 0;
        for (int round = 0; round < 5; round++) {
            int n = 1_000_000;
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                sink += System.nanoTime();
            }
            best = Math.min(best, (System.nanoTime() - t0) / n);
        }
        return sink == Long.MIN_VALUE ? -1 : best;
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
