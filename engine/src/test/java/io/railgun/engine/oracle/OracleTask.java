package io.railgun.engine.oracle;

import io.railgun.engine.schema.LateEventPolicy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * One task (partitioner topic, partition) of the oracle: stream time, the events it counted in
 * counting order, for dedup the largest counted timestamp of each id, and per statement its
 * events grouped by key and sorted by (timestamp, seq), so a window's events are found by binary
 * search instead of a scan of the task's whole history.
 */
final class OracleTask {
    final String partitioner;
    final int partition;
    Long streamTime;
    long nextSeq;
    final List<CountedEvent> counted = new ArrayList<>();
    private final Map<Object, Long> newestCountedById = new HashMap<>();
    private final Map<MetricQuery, Map<List<Object>, List<CountedEvent>>> groups = new IdentityHashMap<>();

    OracleTask(String partitioner, int partition) {
        this.partitioner = partitioner;
        this.partition = partition;
    }

    /**
     * SPEC §5 plus the dedup rule: 1. duplicate when this task counted the id at a timestamp
     * {@code >= T - horizon}; 2. late when {@code ts < T - lateness}: dropped, or counted at
     * {@code T - lateness}; 3. else counted at {@code ts} and {@code T = max(T, ts)}.
     */
    TaskOutcome accept(Object id, long ts, int eventIndex, Map<String, Object> fields, long horizonMs, long latenessMs, LateEventPolicy policy) {
        if (streamTime != null) {
            Long seen = newestCountedById.get(id);
            if (seen != null && seen >= streamTime - horizonMs) {
                return new TaskOutcome(partitioner, partition, TaskStatus.DUPLICATE, ts, streamTime, horizonMs);
            }
        }
        long at = ts;
        TaskStatus status = TaskStatus.COUNTED;
        if (streamTime != null && ts < streamTime - latenessMs) {
            if (policy == LateEventPolicy.DROP) {
                return new TaskOutcome(partitioner, partition, TaskStatus.DROPPED_LATE, ts, streamTime, horizonMs);
            }
            at = streamTime - latenessMs;
            status = TaskStatus.REWRITTEN;
        }
        CountedEvent x = new CountedEvent(id, at, ts, nextSeq++, eventIndex, fields);
        counted.add(x);
        groups.forEach((q, byKey) -> insert(byKey.computeIfAbsent(keyOf(q, fields), k -> new ArrayList<>()), x));
        streamTime = streamTime == null ? at : Math.max(streamTime, at);
        newestCountedById.merge(id, at, Math::max);
        return new TaskOutcome(partitioner, partition, status, at, streamTime, horizonMs);
    }

    /** Starts grouping this task's events for a statement, including those already counted. */
    void index(MetricQuery q) {
        if (!groups.containsKey(q)) {
            Map<List<Object>, List<CountedEvent>> byKey = new HashMap<>();
            for (CountedEvent x : counted) {
                insert(byKey.computeIfAbsent(keyOf(q, x.fields), k -> new ArrayList<>()), x);
            }
            groups.put(q, byKey);
        }
    }

    /** The events of a statement's group, sorted by (timestamp, seq); empty when none. */
    List<CountedEvent> group(MetricQuery q, List<Object> key) {
        return groups.get(q).getOrDefault(key, List.of());
    }

    /** The group-by key of an event (or key row): the group-by values, -0.0 as 0.0; NULL equals NULL. */
    static List<Object> keyOf(MetricQuery q, Map<String, Object> fields) {
        List<Object> key = new ArrayList<>(q.groupBy().size());
        for (String g : q.groupBy()) {
            key.add(SqlValues.normalize(fields.get(g)));
        }
        return key;
    }

    /** First index whose timestamp is greater than {@code t}. */
    static int upperBound(List<CountedEvent> sorted, long t) {
        int lo = 0;
        int hi = sorted.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (sorted.get(mid).timestamp <= t) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    private static void insert(List<CountedEvent> sorted, CountedEvent x) {
        // seq only grows, so an event goes after every event of the same timestamp
        sorted.add(upperBound(sorted, x.timestamp), x);
    }
}
