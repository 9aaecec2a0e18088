package io.railgun.engine.oracle;

import io.railgun.engine.schema.StreamDefinition;
import java.util.List;
import java.util.Map;

/**
 * One generated (or hand-written) exactness case: a stream, its statements, the events sent in
 * order, metrics removed midway and point reads at the end.
 *
 * @param seed              the generator seed it came from (0 for hand-written or shrunk cases)
 * @param definition        the stream
 * @param minDedupHorizonMs the task option
 * @param statements        added in order before the first event; every aggregate has an alias
 * @param events            field name (lower case) to value: Long, Double, String, Boolean; absent or null = null
 * @param removals          metrics removed just before an event
 * @param reads             point reads after the last event
 * @param timeOrigin        a timestamp near the first event, to print times as offsets
 * @param profile           a one-line description of the generator's choices
 */
public record StreamCase(
        long seed,
        StreamDefinition definition,
        long minDedupHorizonMs,
        List<MetricQuery> statements,
        List<Map<String, Object>> events,
        List<Removal> removals,
        List<Read> reads,
        long timeOrigin,
        String profile) {

    public StreamCase {
        statements = List.copyOf(statements);
        events = List.copyOf(events);
        removals = List.copyOf(removals);
        reads = List.copyOf(reads);
    }

    /** Remove {@code metric} just before event {@code beforeEvent} is sent. */
    public record Removal(int beforeEvent, String metric) {}

    /** Read {@code metric} for the group key in {@code keyRow} after the last event. */
    public record Read(String metric, Map<String, Object> keyRow) {}

    public StreamCase withDefinition(StreamDefinition d) {
        return new StreamCase(seed, d, minDedupHorizonMs, statements, events, removals, reads, timeOrigin, profile);
    }

    public StreamCase withMinDedupHorizonMs(long ms) {
        return new StreamCase(seed, definition, ms, statements, events, removals, reads, timeOrigin, profile);
    }

    public StreamCase withStatements(List<MetricQuery> s) {
        return new StreamCase(seed, definition, minDedupHorizonMs, s, events, removals, reads, timeOrigin, profile);
    }

    public StreamCase withEvents(List<Map<String, Object>> e) {
        return new StreamCase(seed, definition, minDedupHorizonMs, statements, e, removals, reads, timeOrigin, profile);
    }

    public StreamCase withRemovals(List<Removal> r) {
        return new StreamCase(seed, definition, minDedupHorizonMs, statements, events, r, reads, timeOrigin, profile);
    }

    public StreamCase withReads(List<Read> r) {
        return new StreamCase(seed, definition, minDedupHorizonMs, statements, events, removals, r, timeOrigin, profile);
    }

    /** Number of metrics (aggregates over all statements). */
    public int metricCount() {
        return statements.stream().mapToInt(s -> s.aggregates().size()).sum();
    }

    @Override
    public String toString() {
        return "StreamCase{seed=" + seed + ", " + statements.size() + " statements, " + metricCount() + " metrics, "
                + events.size() + " events, " + removals.size() + " removals, " + reads.size() + " reads, " + profile + "}";
    }
}
