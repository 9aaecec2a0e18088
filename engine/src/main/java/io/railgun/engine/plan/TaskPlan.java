package io.railgun.engine.plan;

import io.railgun.engine.aggregate.Aggregator;
import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.reservoir.EventReservoir;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.state.StateStore;
import io.railgun.engine.task.Reply;
import io.railgun.engine.window.WindowNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The DAG computing all metrics of one task (paper §4.1.2): Window → Filter → Group By → Aggregator,
 * with operators shared along common prefixes (two metrics on the same window share the window
 * node; the same window and WHERE share the filter; plus the same GROUP BY share the keyed state;
 * the same function of the same argument shares the aggregator). Windows with the same head or tail
 * edge share one reservoir cursor.
 *
 * <p>Operators created while the task has already counted events start empty (see
 * {@link WindowNode}) and are shared only with operators created at the same point, so every
 * aggregator sees each of its events arrive and expire exactly once.
 *
 * <p>This class keeps the metrics and coordinates the parts, one job each: the shared operators
 * ({@link OperatorGraph}), the live cursors at the window edges ({@link WindowCursors}), windows
 * filled from history ({@link Backfill}), the reply order ({@link ReplyLayout}) and the keyed
 * state with its snapshots ({@link KeyTables}).
 *
 * <p>Owned by the task's thread.
 */
public final class TaskPlan {
    private final EventReservoir reservoir;
    private final WindowCursors cursors;
    private final KeyTables tables;
    private final OperatorGraph graph;
    private final LinkedHashMap<String, Metric> metrics = new LinkedHashMap<>();
    private final List<Backfill> backfills = new ArrayList<>();
    private ReplyLayout layout = ReplyLayout.EMPTY;

    /** A metric: its (possibly shared) state aggregator's key, and what writes its values from that state. */
    private record Metric(MetricDefinition definition, String aggregatorKey, String groupKey, Aggregator reader,
                          boolean backfilling) {
        Metric live() {
            return new Metric(definition, aggregatorKey, groupKey, reader, false);
        }
    }

    private static final System.Logger LOG = System.getLogger(TaskPlan.class.getName());

    public TaskPlan(Schema schema, EventReservoir reservoir, StateStore stateStore) {
        this.reservoir = reservoir;
        this.cursors = new WindowCursors(reservoir);
        this.tables = new KeyTables(stateStore);
        this.graph = new OperatorGraph(schema, cursors, tables);
    }

    /**
     * Adopts a compatible schema change (nullable fields appended). Compiled expressions keep their
     * field slots; rows written before the change read the new fields as null.
     */
    public void updateSchema(Schema newSchema) {
        graph.updateSchema(newSchema);
    }

    /**
     * Adds metrics (all of one statement, already bound).
     *
     * @param firstSeq   the seq of the next event the task will count: the metrics' windows start empty there
     * @param streamTime current stream time, or Long.MIN_VALUE before the first event
     */
    public void add(List<MetricDefinition> definitions, long firstSeq, long streamTime) {
        checkNew(definitions);
        for (MetricDefinition def : definitions) {
            addMetric(def, String.valueOf(firstSeq), firstSeq, streamTime, false);
        }
        rebuildReplyLayout();
    }

    /**
     * Adds metrics (all of one statement) computed first from the events the reservoir holds: their
     * window counts every event, is filled by {@link #stepBackfill} and joins replies once it has
     * caught up with the live edges.
     *
     * @param addedSeq      the seq at which they were added (names their operators)
     * @param headBoundary  where the backfill's head is (restore), or Long.MIN_VALUE to start it at
     *                      the window's tail at {@code streamTime}
     * @param tailBoundary  where its tail is (restore; ignored when starting)
     * @param done          the backfill had completed (restore): the window is on the shared cursors
     */
    public void addBackfilled(List<MetricDefinition> definitions, long addedSeq, long streamTime, long headBoundary,
                              long tailBoundary, boolean done) {
        checkNew(definitions);
        if (definitions.isEmpty()) {
            return;
        }
        // A backfilled window is its statement's own: one added at the same seq must not join it,
        // since it may have walked (some of) the history already and then it runs on the shared
        // cursors. Named by the statement's text, which is the same after a restore.
        String origin = "bf" + addedSeq + "." + Long.toHexString(StableId.of(definitions.getFirst().statement().text()));
        for (MetricDefinition def : definitions) {
            addMetric(def, origin, -1, streamTime, !done);
        }
        if (!done) {
            String windowKey = origin + "|" + definitions.getFirst().statement().window();
            if (backfillOf(windowKey) == null) {
                Backfill b = new Backfill(windowKey, graph.window(windowKey), reservoir, streamTime, headBoundary,
                        tailBoundary);
                backfills.add(b);
                LOG.log(System.Logger.Level.INFO, "backfill of " + names(definitions) + " started at " + b.start());
            }
        }
        rebuildReplyLayout();
    }

    private static List<String> names(List<MetricDefinition> definitions) {
        List<String> n = new ArrayList<>();
        for (MetricDefinition d : definitions) {
            n.add(d.name());
        }
        return n;
    }

    private void checkNew(List<MetricDefinition> definitions) {
        for (MetricDefinition def : definitions) {
            if (metrics.containsKey(def.name())) {
                throw new IllegalArgumentException("metric '" + def.name() + "' already exists on this task");
            }
        }
    }

    /** Whether a backfill is in progress. */
    public boolean backfilling() {
        return !backfills.isEmpty();
    }

    /**
     * One step of every backfill in progress (a slice of event time sized to take about a
     * millisecond); returns true when one completed, so its metrics joined the replies.
     */
    public boolean stepBackfill(long streamTime) {
        boolean joined = false;
        for (int i = backfills.size() - 1; i >= 0; i--) {
            Backfill b = backfills.get(i);
            if (b.step(streamTime)) {
                finish(b, streamTime);
                joined = true;
            }
        }
        if (joined) {
            rebuildReplyLayout();
        }
        return joined;
    }

    private void finish(Backfill b, long streamTime) {
        backfills.remove(b);
        b.close();
        cursors.attach(b.window, streamTime);
        List<String> done = new ArrayList<>();
        for (Map.Entry<String, Metric> e : metrics.entrySet()) {
            Metric m = e.getValue();
            if (m.backfilling() && windowKeyOf(m).equals(b.windowKey)) {
                e.setValue(m.live());
                done.add(e.getKey());
            }
        }
        LOG.log(System.Logger.Level.INFO, "backfill of " + done + " done: joined live processing");
    }

    private String windowKeyOf(Metric m) {
        return graph.windowKeyOf(m.groupKey());
    }

    private Backfill backfillOf(WindowNode window) {
        for (Backfill b : backfills) {
            if (b.window == window) {
                return b;
            }
        }
        return null;
    }

    private Backfill backfillOf(String windowKey) {
        for (Backfill b : backfills) {
            if (b.windowKey.equals(windowKey)) {
                return b;
            }
        }
        return null;
    }

    /**
     * Progress of the backfill of a metric's window in [0, 1) (event time covered over event time
     * to cover), 1 when it is live, -1 when there is no such metric.
     */
    public double backfillProgress(String metric, long streamTime) {
        Metric m = metrics.get(metric);
        if (m == null) {
            return -1;
        }
        Backfill b = m.backfilling() ? backfillOf(windowKeyOf(m)) : null;
        return b == null ? 1 : b.progress(streamTime);
    }

    /** The private head and tail boundaries of a metric's backfill (for checkpoints), or null when live. */
    public long[] backfillPosition(String metric) {
        Metric m = metrics.get(metric);
        Backfill b = m == null || !m.backfilling() ? null : backfillOf(windowKeyOf(m));
        return b == null ? null : b.position();
    }

    private void addMetric(MetricDefinition def, String origin, long firstSeq, long streamTime, boolean backfilling) {
        OperatorGraph.Chain chain = graph.add(def, origin, firstSeq, streamTime, !backfilling);
        metrics.put(def.name(), new Metric(def, chain.aggregatorKey(), chain.groupKey(), chain.reader(), backfilling));
    }

    /** Removes a metric, and every operator no other metric uses; returns false when absent. */
    public boolean remove(String name) {
        Metric m = metrics.remove(name);
        if (m == null) {
            return false;
        }
        WindowNode unused = graph.release(m.aggregatorKey());
        if (unused != null) {
            Backfill b = backfillOf(unused);
            if (b != null) {
                backfills.remove(b);
                b.close();
            } else {
                cursors.detach(unused);
            }
        }
        rebuildReplyLayout();
        return true;
    }

    /** Moves every window edge to stream time {@code streamTime}: heads first, so arrivals precede expiries. */
    public void advance(long streamTime) {
        cursors.advance(streamTime);
    }

    /**
     * Delivers an event just inserted in the reservoir at or behind some edges (a late event, or one
     * at the current stream time) to the windows of those edges: heads first, then tails.
     */
    public void inserted(long timestamp, long seq, EventRow row) {
        for (int i = 0, n = backfills.size(); i < n; i++) {
            backfills.get(i).inserted(timestamp, seq, row);
        }
        cursors.inserted(timestamp, seq, row);
    }

    /** Writes every metric's value for {@code row}'s keys into {@code reply} (seq -1 if not counted). */
    public void evaluate(EventRow row, long seq, Reply reply) {
        layout.evaluate(row, seq, reply);
    }

    /** The largest extent behind stream time of any window (W + D, or W; 0 when none). */
    public long maxExtentMs() {
        return graph.maxExtentMs();
    }

    /** Metric names in reply order. */
    public String[] names() {
        return layout.names();
    }

    public ValueType[] types() {
        return layout.types();
    }

    /** Index of a metric in replies, or -1. */
    public int indexOf(String name) {
        return layout.indexOf(name);
    }

    /** Notes that {@code row}'s keys will be looked up soon ({@link io.railgun.engine.state.Prefetches}). */
    public void prefetch(EventRow row) {
        tables.prefetch(row);
    }

    /** Loads what {@link #prefetch} noted; returns anything. */
    public long issuePrefetches() {
        return tables.issuePrefetches();
    }

    /** Begins a snapshot of every key changed since the last one (a checkpoint; see {@link KeyTable}). */
    public void beginSnapshot() {
        tables.beginSnapshot();
    }

    /** Saves up to {@code budget} keys of the snapshot per key table; true once it is complete. */
    public boolean sweepSnapshot(int budget) {
        return tables.sweepSnapshot(budget);
    }

    /** Keys in memory, over every key table. */
    public long hotKeys() {
        return tables.hotKeys();
    }

    /** Keys moved out of memory to a durable store's cold tier, over every key table. */
    public long evictions() {
        return tables.evictions();
    }

    /** Keys loaded back from the cold tier, over every key table. */
    public long coldLoads() {
        return tables.coldLoads();
    }

    /** Number of reservoir cursors (distinct window edges). */
    public int cursorCount() {
        return cursors.count();
    }

    private void rebuildReplyLayout() {
        ReplyLayout.Builder live = new ReplyLayout.Builder();
        for (Map.Entry<String, Metric> e : metrics.entrySet()) {
            Metric m = e.getValue();
            if (!m.backfilling()) {
                live.add(e.getKey(), m.definition().resultType(), m.groupKey(), graph.group(m.groupKey()), m.reader());
            }
        }
        layout = live.build();
    }
}
