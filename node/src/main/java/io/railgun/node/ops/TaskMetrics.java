package io.railgun.node.ops;

import io.railgun.node.backend.HistoryGaps;
import io.railgun.node.backend.TaskStats;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.function.ToLongFunction;

/**
 * Per-task figures in {@code /metrics}, labelled {@code stream}, {@code partitioner} and
 * {@code partition}: events processed, consumer lag, replay left, reservoir events and heap bytes,
 * hot keys, state buffer bytes, stream time. Read at each scrape from the snapshots the processor
 * units publish ({@link TaskStats}); a task appears while this node runs it.
 *
 * <p>Thread-safe: the callbacks run on the scraping thread and read immutable snapshots only.
 */
public final class TaskMetrics {
    static final List<String> LABELS = List.of("stream", "partitioner", "partition");

    private TaskMetrics() {}

    /** Registers the per-task metrics on {@code metrics}, reading {@code tasks} at each scrape. */
    public static void register(NodeMetrics metrics, Supplier<List<TaskStats>> tasks) {
        metrics.counter("railgun_task_events", "Events processed by each task since this node opened it", LABELS,
                () -> perTask(tasks, TaskStats::events));
        metrics.gauge("railgun_task_lag", "Input records each task has not read yet", LABELS,
                () -> perTask(tasks, TaskStats::lag));
        metrics.gauge("railgun_task_replay_left", "Input records each task must still replay to catch up after being"
                + " opened (0 when caught up)", LABELS, () -> perTask(tasks, TaskStats::replayLeft));
        metrics.gauge("railgun_task_reservoir_events", "Events held in each task's reservoir", LABELS,
                () -> perTask(tasks, TaskStats::reservoirEvents));
        metrics.gauge("railgun_task_reservoir_cache_bytes", "Heap bytes of each task's reservoir event data", LABELS,
                () -> perTask(tasks, TaskStats::reservoirMemoryBytes));
        metrics.gauge("railgun_task_state_hot_keys", "Keys in each task's hot state tier", LABELS,
                () -> perTask(tasks, TaskStats::hotKeys));
        metrics.gauge("railgun_task_state_buffer_bytes", "State changes each task holds in memory until its next"
                + " checkpoint", LABELS, () -> perTask(tasks, TaskStats::stateBufferBytes));
        metrics.gauge("railgun_task_stream_time_seconds", "Each task's stream time (largest event time accepted), in"
                + " seconds since the epoch", LABELS, () -> {
                    Map<List<String>, Double> m = new LinkedHashMap<>();
                    for (TaskStats t : tasks.get()) {
                        if (t.streamTimeMs() != Long.MIN_VALUE) {
                            m.put(labels(t), t.streamTimeMs() / 1000.0);
                        }
                    }
                    return m;
                });
    }

    /**
     * Registers {@code railgun_task_history_incomplete}: per task this node opened with part of its
     * input already deleted by retention ({@link HistoryGaps}), the records it never saw.
     */
    public static void registerHistoryGaps(NodeMetrics metrics, Supplier<List<HistoryGaps.Gap>> gaps) {
        metrics.gauge("railgun_task_history_incomplete", "Input records deleted by retention before each task could"
                + " read them, for tasks opened without a copy of their history (their windows lack those events)",
                LABELS, () -> {
                    Map<List<String>, Long> m = new LinkedHashMap<>();
                    for (HistoryGaps.Gap g : gaps.get()) {
                        m.put(List.of(g.stream(), g.partitioner(), Integer.toString(g.partition())), g.missingRecords());
                    }
                    return m;
                });
    }

    /** One value per task; negative values (not known) are left out. */
    private static Map<List<String>, Long> perTask(Supplier<List<TaskStats>> tasks, ToLongFunction<TaskStats> f) {
        Map<List<String>, Long> m = new LinkedHashMap<>();
        for (TaskStats t : tasks.get()) {
            long v = f.applyAsLong(t);
            if (v >= 0) {
                m.put(labels(t), v);
            }
        }
        return m;
    }

    private static List<String> labels(TaskStats t) {
        return List.of(t.stream(), t.partitioner(), Integer.toString(t.partition()));
    }
}
