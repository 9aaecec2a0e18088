package io.railgun.engine.plan;

import io.railgun.engine.aggregate.Aggregator;
import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ExpressionCompiler;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.query.AggregateFunction;
import io.railgun.engine.query.QueryException;
import io.railgun.engine.query.Statement;
import io.railgun.engine.reservoir.EventReservoir;
import io.railgun.engine.schema.Field;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.state.StateStore;
import io.railgun.engine.task.Reply;
import io.railgun.engine.window.WindowBounds;
import io.railgun.engine.window.WindowCursor;
import io.railgun.engine.window.WindowNode;
import java.util.ArrayList;
import java.util.HashMap;
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
 * <p>Owned by the task's thread.
 */
public final class TaskPlan {
    private Schema schema;
    private final EventReservoir reservoir;
    private final StateStore stateStore;

    private final Map<WindowBounds.Edge, WindowCursor> cursors = new LinkedHashMap<>();
    private WindowCursor[] heads = new WindowCursor[0];
    private WindowCursor[] tails = new WindowCursor[0];
    private final Map<String, Node<WindowNode>> windows = new HashMap<>();
    private final Map<String, Node<FilterNode>> filters = new HashMap<>();
    private final Map<String, Node<GroupByNode>> groups = new HashMap<>();
    private final Map<String, KeyTable> tables = new HashMap<>();
    private KeyTable[] tableArray = new KeyTable[0]; // the tables of the snapshot being taken
    private final Map<String, Node<Aggregator>> aggregators = new HashMap<>();
    private final LinkedHashMap<String, Metric> metrics = new LinkedHashMap<>();

    // evaluation order for replies: group-by nodes, each with its aggregators and reply indexes
    private GroupByNode[] replyGroups = new GroupByNode[0];
    private Aggregator[][] replyAggregators = new Aggregator[0][];
    private int[][] replyIndexes = new int[0][];
    private String[] names = new String[0];
    private ValueType[] types = new ValueType[0];

    /** A shared operator with the number of children (or metrics) using it and its parent's key. */
    private static final class Node<T> {
        final T op;
        final String parentKey;
        int users;

        Node(T op, String parentKey) {
            this.op = op;
            this.parentKey = parentKey;
        }
    }

    /** A metric: its (possibly shared) state aggregator's key, and what writes its values from that state. */
    private record Metric(MetricDefinition definition, String aggregatorKey, String groupKey, Aggregator reader,
                          boolean backfilling) {
        Metric live() {
            return new Metric(definition, aggregatorKey, groupKey, reader, false);
        }
    }

    /**
     * A window being filled from the reservoir's history, on private cursors behind the shared
     * ones: its head walks from where the window's tail is towards the live head in steps, its tail
     * follows (never ahead of the head). Its metrics are left out of replies until it has caught
     * up; then it moves onto the shared cursors.
     */
    private static final class Backfill {
        final String windowKey;
        final WindowNode window;
        final WindowCursor head;
        final WindowCursor tail; // null for unbounded windows
        final long from;
        long sliceMs; // event time per step: a 16th of the history at first, then sized to take ~1 ms

        Backfill(String windowKey, WindowNode window, WindowCursor head, WindowCursor tail) {
            this.windowKey = windowKey;
            this.window = window;
            this.head = head;
            this.tail = tail;
            this.from = head.boundary();
        }
    }

    private static final System.Logger LOG = System.getLogger(TaskPlan.class.getName());
    private final List<Backfill> backfills = new ArrayList<>();

    public TaskPlan(Schema schema, EventReservoir reservoir, StateStore stateStore) {
        this.schema = schema;
        this.reservoir = reservoir;
        this.stateStore = stateStore;
    }

    /**
     * Adopts a compatible schema change (nullable fields appended). Compiled expressions keep their
     * field slots; rows written before the change read the new fields as null.
     */
    public void updateSchema(Schema newSchema) {
        this.schema = newSchema;
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
                WindowNode w = windows.get(windowKey).op;
                WindowBounds.Edge tailEdge = WindowBounds.tail(w.spec());
                long start = headBoundary != Long.MIN_VALUE ? headBoundary
                        : tailEdge == null || streamTime == Long.MIN_VALUE ? Long.MIN_VALUE : tailEdge.boundary(streamTime);
                WindowCursor head = new WindowCursor(WindowBounds.head(w.spec()), reservoir, start);
                head.addWindow(w);
                WindowCursor tail = null;
                if (tailEdge != null) {
                    tail = new WindowCursor(tailEdge, reservoir, headBoundary != Long.MIN_VALUE ? tailBoundary : start);
                    tail.addWindow(w);
                }
                backfills.add(new Backfill(windowKey, w, head, tail));
                LOG.log(System.Logger.Level.INFO, "backfill of " + names(definitions) + " started at " + start);
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
            long target = WindowBounds.head(b.window.spec()).boundary(streamTime);
            long at = b.head.boundary();
            if (b.sliceMs == 0) {
                b.sliceMs = at == Long.MIN_VALUE ? 1 : Math.max(1, (target - at) / 16);
            }
            long next = at == Long.MIN_VALUE || target - at <= b.sliceMs ? target : at + b.sliceMs;
            long started = System.nanoTime();
            b.head.advanceTo(next);
            if (b.tail != null) {
                long tailTarget = b.tail.edge().boundary(streamTime);
                b.tail.advanceTo(Math.min(tailTarget, b.head.boundary()));
                if (tailTarget > b.head.boundary()) {
                    // events between have left the window before the backfill reached them
                    b.head.skipTo(tailTarget);
                    b.tail.skipTo(tailTarget);
                }
            }
            long took = System.nanoTime() - started;
            b.sliceMs = took > 2_000_000 ? Math.max(1, b.sliceMs / 2) : took < 500_000 ? Math.min(b.sliceMs * 2, 1L << 40) : b.sliceMs;
            if (b.head.boundary() >= target) {
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
        b.head.close();
        if (b.tail != null) {
            b.tail.close();
        }
        attachCursor(WindowBounds.head(b.window.spec()), b.window, streamTime);
        WindowBounds.Edge tail = WindowBounds.tail(b.window.spec());
        if (tail != null) {
            attachCursor(tail, b.window, streamTime);
        }
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
        return filters.get(groups.get(m.groupKey()).parentKey).parentKey;
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
        if (b == null) {
            return 1;
        }
        long target = WindowBounds.head(b.window.spec()).boundary(streamTime);
        if (b.from == Long.MIN_VALUE || target <= b.from) {
            return 0;
        }
        return Math.min(0.999, (double) (b.head.boundary() - b.from) / (target - b.from));
    }

    /** The private head and tail boundaries of a metric's backfill (for checkpoints), or null when live. */
    public long[] backfillPosition(String metric) {
        Metric m = metrics.get(metric);
        Backfill b = m == null || !m.backfilling() ? null : backfillOf(windowKeyOf(m));
        if (b == null) {
            return null;
        }
        return new long[] {b.head.boundary(), b.tail == null ? Long.MIN_VALUE : b.tail.boundary()};
    }

    private void addMetric(MetricDefinition def, String origin, long firstSeq, long streamTime, boolean backfilling) {
        Statement st = def.statement();
        String windowKey = origin + "|" + st.window();
        Node<WindowNode> window = windows.get(windowKey);
        if (window == null) {
            WindowNode w = new WindowNode(st.window(), firstSeq);
            window = new Node<>(w, null);
            windows.put(windowKey, window);
            if (!backfilling) {
                attachCursor(WindowBounds.head(st.window()), w, streamTime);
                WindowBounds.Edge tail = WindowBounds.tail(st.window());
                if (tail != null) {
                    attachCursor(tail, w, streamTime);
                }
            }
        }
        String filterKey = windowKey + "|" + (st.where() == null ? "true" : ExprKey.of(st.where()));
        Node<FilterNode> filter = filters.get(filterKey);
        if (filter == null) {
            Evaluator predicate = st.where() == null ? null : compile(st, true, st.where());
            filter = new Node<>(new FilterNode(predicate), windowKey);
            filters.put(filterKey, filter);
            window.op.addListener(filter.op);
            window.users++;
        }
        List<Field> groupFields = new ArrayList<>();
        StringBuilder fk = new StringBuilder("by");
        for (String g : st.groupBy()) {
            Field f = schema.field(g);
            groupFields.add(f);
            fk.append(',').append(f.index());
        }
        String fieldsKey = fk.toString();
        String groupKey = filterKey + "|" + fieldsKey;
        Node<GroupByNode> group = groups.get(groupKey);
        if (group == null) {
            KeyTable table = tables.computeIfAbsent(fieldsKey,
                    k -> new KeyTable(k, new KeyEncoder(groupFields), stateStore.keyedState(k)));
            GroupByNode g = new GroupByNode(groupKey, table);
            table.attach(g);
            group = new Node<>(g, filterKey);
            groups.put(groupKey, group);
            filter.op.add(g);
            filter.users++;
        }
        AggregateFunction function = def.aggregate().function();
        String stateName = AggregatorFactory.stateName(function, def.resultType());
        String argumentKey = "(" + ExprKey.of(def.aggregate().argument()) + ")";
        String aggregatorKey = groupKey + "|" + stateName + argumentKey;
        Node<Aggregator> agg = aggregators.get(aggregatorKey);
        if (agg == null) {
            Evaluator arg = def.aggregate().argument() == null ? null : compile(st, false, def.aggregate().argument());
            agg = new Node<>(AggregatorFactory.create(function, arg), groupKey);
            aggregators.put(aggregatorKey, agg);
            List<String> formerKeys = new ArrayList<>();
            for (AggregateFunction f : AggregatorFactory.formerOwners(stateName, arg == null ? null : arg.type())) {
                formerKeys.add(groupKey + "|" + f + argumentKey);
            }
            group.op.add(agg.op, aggregatorKey, formerKeys);
            group.users++;
        }
        agg.users++;
        metrics.put(def.name(), new Metric(def, aggregatorKey, groupKey, AggregatorFactory.reader(agg.op, function),
                backfilling));
    }

    private Evaluator compile(Statement st, boolean predicate, io.railgun.engine.query.Expr e) {
        try {
            return predicate
                    ? ExpressionCompiler.compilePredicate(e, schema, st.text())
                    : ExpressionCompiler.compile(e, schema, st.text());
        } catch (QueryException ex) {
            // the statement was bound against this schema already: failing now is a bug
            throw new IllegalStateException("statement no longer compiles: " + ex.getMessage(), ex);
        }
    }

    private void attachCursor(WindowBounds.Edge edge, WindowNode w, long streamTime) {
        WindowCursor c = cursors.get(edge);
        if (c == null) {
            long boundary = streamTime == Long.MIN_VALUE ? Long.MIN_VALUE : edge.boundary(streamTime);
            c = new WindowCursor(edge, reservoir, boundary);
            cursors.put(edge, c);
            rebuildCursorArrays();
        }
        c.addWindow(w);
    }

    /** Removes a metric, and every operator no other metric uses; returns false when absent. */
    public boolean remove(String name) {
        Metric m = metrics.remove(name);
        if (m == null) {
            return false;
        }
        Node<Aggregator> agg = aggregators.get(m.aggregatorKey());
        if (--agg.users == 0) {
            aggregators.remove(m.aggregatorKey());
            Node<GroupByNode> group = groups.get(agg.parentKey);
            group.op.remove(agg.op);
            if (--group.users == 0) {
                groups.remove(agg.parentKey);
                KeyTable table = group.op.table();
                table.detach(group.op);
                if (table.isEmpty()) {
                    tables.remove(table.name());
                    stateStore.drop(table.name());
                }
                Node<FilterNode> filter = filters.get(group.parentKey);
                filter.op.remove(group.op);
                if (--filter.users == 0) {
                    filters.remove(group.parentKey);
                    Node<WindowNode> window = windows.get(filter.parentKey);
                    window.op.removeListener(filter.op);
                    if (--window.users == 0) {
                        windows.remove(filter.parentKey);
                        Backfill b = backfillOf(filter.parentKey);
                        if (b != null) {
                            backfills.remove(b);
                            b.head.close();
                            if (b.tail != null) {
                                b.tail.close();
                            }
                        } else {
                            detachCursors(window.op);
                        }
                    }
                }
            }
        }
        rebuildReplyLayout();
        return true;
    }

    private void detachCursors(WindowNode w) {
        WindowBounds.Edge[] edges = {WindowBounds.head(w.spec()), WindowBounds.tail(w.spec())};
        for (WindowBounds.Edge e : edges) {
            if (e == null) {
                continue;
            }
            WindowCursor c = cursors.get(e);
            if (c.removeWindow(w)) {
                c.close();
                cursors.remove(e);
            }
        }
        rebuildCursorArrays();
    }

    /** Moves every window edge to stream time {@code streamTime}: heads first, so arrivals precede expiries. */
    public void advance(long streamTime) {
        for (WindowCursor c : heads) {
            c.advance(streamTime);
        }
        for (WindowCursor c : tails) {
            c.advance(streamTime);
        }
    }

    /**
     * Delivers an event just inserted in the reservoir at or behind some edges (a late event, or one
     * at the current stream time) to the windows of those edges: heads first, then tails.
     */
    public void inserted(long timestamp, long seq, EventRow row) {
        for (int i = 0, n = backfills.size(); i < n; i++) {
            Backfill b = backfills.get(i);
            if (timestamp <= b.head.boundary()) {
                b.head.passed(timestamp, seq, row);
            }
            if (b.tail != null && timestamp <= b.tail.boundary()) {
                b.tail.passed(timestamp, seq, row);
            }
        }
        for (WindowCursor c : heads) {
            if (timestamp <= c.boundary()) {
                c.passed(timestamp, seq, row);
            }
        }
        for (WindowCursor c : tails) {
            if (timestamp <= c.boundary()) {
                c.passed(timestamp, seq, row);
            }
        }
    }

    /** Writes every metric's value for {@code row}'s keys into {@code reply} (seq -1 if not counted). */
    public void evaluate(EventRow row, long seq, Reply reply) {
        for (int g = 0; g < replyGroups.length; g++) {
            GroupByNode group = replyGroups[g];
            int slot = group.slotOf(row, seq);
            Aggregator[] aggs = replyAggregators[g];
            int[] idx = replyIndexes[g];
            for (int i = 0; i < aggs.length; i++) {
                group.write(aggs[i], slot, reply, idx[i]);
            }
        }
    }

    /** The largest extent behind stream time of any window (W + D, or W; 0 when none). */
    public long maxExtentMs() {
        long max = 0;
        for (Node<WindowNode> w : windows.values()) {
            max = Math.max(max, WindowBounds.extentMs(w.op.spec()));
        }
        return max;
    }

    /** Metric names in reply order. */
    public String[] names() {
        return names;
    }

    public ValueType[] types() {
        return types;
    }

    /** Index of a metric in replies, or -1. */
    public int indexOf(String name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** Begins a snapshot of every key changed since the last one (a checkpoint; see {@link KeyTable}). */
    public void beginSnapshot() {
        tableArray = tables.values().toArray(new KeyTable[0]);
        for (KeyTable t : tableArray) {
            t.beginSnapshot();
        }
    }

    /** Saves up to {@code budget} keys of the snapshot per key table; true once it is complete. */
    public boolean sweepSnapshot(int budget) {
        boolean done = true;
        for (KeyTable t : tableArray) {
            done &= t.sweepSnapshot(budget);
        }
        return done;
    }

    /** Keys in memory, over every key table. */
    public long hotKeys() {
        long n = 0;
        for (KeyTable t : tables.values()) {
            n += t.hotKeys();
        }
        return n;
    }

    /** Keys moved out of memory to a durable store's cold tier, over every key table. */
    public long evictions() {
        long n = 0;
        for (KeyTable t : tables.values()) {
            n += t.evictions();
        }
        return n;
    }

    /** Keys loaded back from the cold tier, over every key table. */
    public long coldLoads() {
        long n = 0;
        for (KeyTable t : tables.values()) {
            n += t.loads();
        }
        return n;
    }

    /** Number of reservoir cursors (distinct window edges). */
    public int cursorCount() {
        return cursors.size();
    }

    private void rebuildCursorArrays() {
        List<WindowCursor> h = new ArrayList<>();
        List<WindowCursor> t = new ArrayList<>();
        for (WindowCursor c : cursors.values()) {
            (c.isHead() ? h : t).add(c);
        }
        heads = h.toArray(new WindowCursor[0]);
        tails = t.toArray(new WindowCursor[0]);
    }

    private void rebuildReplyLayout() {
        List<Map.Entry<String, Metric>> live = new ArrayList<>();
        for (Map.Entry<String, Metric> e : metrics.entrySet()) {
            if (!e.getValue().backfilling()) {
                live.add(e);
            }
        }
        names = new String[live.size()];
        types = new ValueType[live.size()];
        Map<String, List<Integer>> byGroup = new LinkedHashMap<>();
        int i = 0;
        for (Map.Entry<String, Metric> e : live) {
            names[i] = e.getKey();
            types[i] = e.getValue().definition().resultType();
            byGroup.computeIfAbsent(e.getValue().groupKey(), k -> new ArrayList<>()).add(i);
            i++;
        }
        Metric[] ordered = new Metric[live.size()];
        for (int k = 0; k < ordered.length; k++) {
            ordered[k] = live.get(k).getValue();
        }
        replyGroups = new GroupByNode[byGroup.size()];
        replyAggregators = new Aggregator[byGroup.size()][];
        replyIndexes = new int[byGroup.size()][];
        int g = 0;
        for (Map.Entry<String, List<Integer>> e : byGroup.entrySet()) {
            replyGroups[g] = groups.get(e.getKey()).op;
            List<Integer> idx = e.getValue();
            replyAggregators[g] = new Aggregator[idx.size()];
            replyIndexes[g] = new int[idx.size()];
            for (int k = 0; k < idx.size(); k++) {
                replyAggregators[g][k] = ordered[idx.get(k)].reader();
                replyIndexes[g][k] = idx.get(k);
            }
            g++;
        }
    }
}
