package io.railgun.engine.oracle;

import io.railgun.engine.schema.StreamDefinition;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Brute-force reference implementation of one stream (SPEC §4, §5): one {@link OracleTask} per
 * (partitioner, partition); each event goes to one task per partitioner; a statement's metrics are
 * computed on the first stream partitioner in its GROUP BY; each reply is recomputed from scratch
 * over every event the task counted. Slow on purpose: no incremental state, nothing clever.
 *
 * <p>Events are maps from field name to Long (LONG, TIMESTAMP), Double, String, Boolean or null
 * (absent = null). The stream must have a timestamp field, and events must carry a timestamp and
 * an id. Not thread-safe.
 */
public final class OracleStream {
    /** Which partition of a partitioner's topic an event (or key row) goes to. */
    @FunctionalInterface
    public interface Router {
        int partition(Map<String, Object> event, String partitioner, int partitions);
    }

    private final StreamDefinition definition;
    private final long minDedupHorizonMs;
    private final Router router;
    private final String idField;
    private final String timestampField;
    private final List<String> partitioners = new ArrayList<>();
    private final Map<String, OracleTask[]> tasks = new HashMap<>();
    private final Map<String, Metric> metrics = new LinkedHashMap<>();
    private int eventCount;
    private boolean naive;

    private record Metric(String name, MetricQuery query, AggregateSpec aggregate, String partitioner, long[] firstSeq) {}

    public OracleStream(StreamDefinition definition, long minDedupHorizonMs, Router router) {
        if (definition.timestampField() == null) {
            throw new IllegalArgumentException("the oracle needs a timestamp field");
        }
        this.definition = definition;
        this.minDedupHorizonMs = minDedupHorizonMs;
        this.router = router;
        this.idField = lower(definition.eventIdField());
        this.timestampField = lower(definition.timestampField());
        for (String p : definition.partitioners()) {
            String name = lower(p);
            partitioners.add(name);
            OracleTask[] array = new OracleTask[definition.partitions()];
            for (int i = 0; i < array.length; i++) {
                array[i] = new OracleTask(name, i);
            }
            tasks.put(name, array);
        }
    }

    /**
     * Evaluates windows by scanning every event the task ever counted (true) instead of binary
     * search in the key's group (false, the default). Same results, much slower; for checking the
     * oracle itself.
     */
    public OracleStream naive(boolean on) {
        this.naive = on;
        return this;
    }

    public StreamDefinition definition() {
        return definition;
    }

    /**
     * Adds a statement's metrics (named by their aliases) and returns their names.
     *
     * @param backfill true: the metrics see every event already counted (SPEC §3.2 backfill);
     *                 false: only events counted from now on
     * @throws IllegalArgumentException when no stream partitioner is in the GROUP BY, or a name is taken
     */
    public List<String> addStatement(MetricQuery query, boolean backfill) {
        String partitioner = partitionerOf(query);
        if (partitioner == null) {
            throw new IllegalArgumentException("no_partitioner: GROUP BY " + query.groupBy() + " has none of " + partitioners);
        }
        List<String> names = new ArrayList<>();
        for (AggregateSpec a : query.aggregates()) {
            if (metrics.containsKey(a.alias()) || names.contains(a.alias())) {
                throw new IllegalArgumentException("duplicate_metric: " + a.alias());
            }
            names.add(a.alias());
        }
        OracleTask[] array = tasks.get(partitioner);
        for (OracleTask t : array) {
            t.index(query);
        }
        for (AggregateSpec a : query.aggregates()) {
            long[] firstSeq = new long[array.length];
            for (int i = 0; i < array.length; i++) {
                firstSeq[i] = backfill ? 0 : array[i].nextSeq;
            }
            metrics.put(a.alias(), new Metric(a.alias(), query, a, partitioner, firstSeq));
        }
        return names;
    }

    /** The partitioner a statement is computed on: the first stream partitioner in its GROUP BY, or null. */
    public String partitionerOf(MetricQuery query) {
        for (String p : partitioners) {
            for (String g : query.groupBy()) {
                if (lower(g).equals(p)) {
                    return p;
                }
            }
        }
        return null;
    }

    public boolean removeMetric(String name) {
        return metrics.remove(name) != null;
    }

    public List<String> metricNames() {
        return List.copyOf(metrics.keySet());
    }

    public MetricQuery queryOf(String metric) {
        return metrics.get(metric).query();
    }

    public AggregateSpec aggregateOf(String metric) {
        return metrics.get(metric).aggregate();
    }

    /** The dedup horizon of a partitioner's tasks: max(min horizon, lateness, extent of each of its windows). */
    public long horizonMs(String partitioner) {
        long h = Math.max(minDedupHorizonMs, definition.latenessMs());
        for (Metric m : metrics.values()) {
            if (m.partitioner().equals(partitioner)) {
                h = Math.max(h, m.query().window().extentMs());
            }
        }
        return h;
    }

    public OracleReply process(Map<String, Object> event) {
        Map<String, Object> fields = lowerKeys(event);
        Object id = Objects.requireNonNull(SqlValues.normalize(fields.get(idField)), "event without id");
        long ts = (Long) Objects.requireNonNull(fields.get(timestampField), "event without timestamp");
        int index = eventCount++;
        List<TaskOutcome> outcomes = new ArrayList<>();
        Map<String, OracleTask> byPartitioner = new HashMap<>();
        boolean duplicate = false;
        boolean dropped = false;
        for (String p : partitioners) {
            OracleTask task = taskFor(p, fields);
            byPartitioner.put(p, task);
            TaskOutcome o = task.accept(id, ts, index, fields, horizonMs(p), definition.latenessMs(), definition.lateEvents());
            outcomes.add(o);
            duplicate |= o.status() == TaskStatus.DUPLICATE;
            dropped |= o.status() == TaskStatus.DROPPED_LATE;
        }
        Map<String, ExpectedValue> values = new LinkedHashMap<>();
        for (Metric m : metrics.values()) {
            values.put(m.name(), evaluate(m, byPartitioner.get(m.partitioner()), fields));
        }
        return new OracleReply(id, duplicate, dropped, Collections.unmodifiableMap(values), List.copyOf(outcomes));
    }

    /**
     * A point read: the metric for the group key in {@code keyRow} at its task's stream time; empty
     * when that task has counted nothing yet (no stream time).
     */
    public Optional<ExpectedValue> read(String metric, Map<String, Object> keyRow) {
        Metric m = Objects.requireNonNull(metrics.get(metric), metric);
        Map<String, Object> fields = lowerKeys(keyRow);
        OracleTask task = taskFor(m.partitioner(), fields);
        if (task.streamTime == null) {
            return Optional.empty();
        }
        return Optional.of(evaluate(m, task, fields));
    }

    /** Stream time of the task a key row goes to for a metric, or null. */
    public Long streamTime(String metric, Map<String, Object> keyRow) {
        Metric m = metrics.get(metric);
        return taskFor(m.partitioner(), lowerKeys(keyRow)).streamTime;
    }

    /** For failure dumps: the events of the key's group in the metric's task, and whether each is in the window. */
    public List<String> explain(String metric, Map<String, Object> keyRow, long timeOrigin) {
        Metric m = metrics.get(metric);
        Map<String, Object> fields = lowerKeys(keyRow);
        OracleTask task = taskFor(m.partitioner(), fields);
        List<String> lines = new ArrayList<>();
        lines.add("task " + m.partitioner() + "#" + task.partition + " T=" + (task.streamTime == null ? "undefined" : "+" + (task.streamTime - timeOrigin))
                + " window " + m.query().window().sql() + " key " + OracleTask.keyOf(m.query(), fields));
        for (CountedEvent x : sorted(task.counted)) {
            if (x.seq < m.firstSeq()[task.partition] || !OracleTask.keyOf(m.query(), x.fields).equals(OracleTask.keyOf(m.query(), fields))) {
                continue;
            }
            boolean in = task.streamTime != null && m.query().window().contains(x.timestamp, task.streamTime);
            lines.add(String.format("  %s event #%d id=%s t=+%d%s seq=%d filter=%s arg=%s",
                    in ? "IN " : "out", x.eventIndex, SqlValues.show(x.id), x.timestamp - timeOrigin,
                    x.timestamp != x.originalTimestamp ? " (rewritten from +" + (x.originalTimestamp - timeOrigin) + ")" : "",
                    x.seq, x.passes(m.query().where()),
                    m.aggregate().argument() == null ? "*" : SqlValues.show(x.eval(m.aggregate().argument()))));
        }
        return lines;
    }

    private ExpectedValue evaluate(Metric m, OracleTask task, Map<String, Object> keyRow) {
        long now = task.streamTime;
        MetricQuery q = m.query();
        WindowDef window = q.window();
        List<Object> key = OracleTask.keyOf(q, keyRow);
        long firstSeq = m.firstSeq()[task.partition];
        List<CountedEvent> in = new ArrayList<>();
        int outside;
        if (naive) {
            outside = 0;
            for (CountedEvent x : sorted(task.counted)) {
                if (x.seq < firstSeq || !x.passes(q.where()) || !OracleTask.keyOf(q, x.fields).equals(key)) {
                    continue;
                }
                if (window.contains(x.timestamp, now)) {
                    in.add(x);
                } else {
                    outside++;
                }
            }
        } else {
            List<CountedEvent> group = task.group(q, key);
            int from = OracleTask.upperBound(group, window.lowerExclusive(now));
            int to = OracleTask.upperBound(group, window.upperInclusive(now));
            for (int i = from; i < to; i++) {
                CountedEvent x = group.get(i);
                if (!window.contains(x.timestamp, now)) {
                    throw new IllegalStateException("oracle bug: window interval and SPEC formula disagree at t=" + x.timestamp + " T=" + now);
                }
                if (x.seq >= firstSeq && x.passes(q.where())) {
                    in.add(x);
                }
            }
            outside = group.size() - Math.max(0, to - from); // coverage only: ignores the filter
        }
        List<Object> values = new ArrayList<>(in.size());
        SqlExpr argument = m.aggregate().argument();
        for (CountedEvent x : in) {
            values.add(argument == null ? Boolean.TRUE : x.eval(argument));
        }
        return ExactAggregates.compute(m.aggregate().kind(), values, outside);
    }

    private static List<CountedEvent> sorted(List<CountedEvent> events) {
        List<CountedEvent> copy = new ArrayList<>(events);
        copy.sort(Comparator.<CountedEvent>comparingLong(x -> x.timestamp).thenComparingLong(x -> x.seq));
        return copy;
    }

    private OracleTask taskFor(String partitioner, Map<String, Object> fields) {
        int partition = router.partition(fields, partitioner, definition.partitions());
        OracleTask[] array = tasks.get(partitioner);
        if (partition < 0 || partition >= array.length) {
            throw new IllegalStateException("router sent " + partitioner + "=" + fields.get(partitioner) + " to partition " + partition
                    + " of " + array.length);
        }
        return array[partition];
    }

    private static Map<String, Object> lowerKeys(Map<String, Object> event) {
        Map<String, Object> out = new HashMap<>();
        event.forEach((k, v) -> out.put(lower(k), v));
        return out;
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }
}
