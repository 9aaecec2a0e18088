package io.railgun.engine.plan;

import io.railgun.engine.aggregate.Aggregator;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ExpressionCompiler;
import io.railgun.engine.query.AggregateFunction;
import io.railgun.engine.query.QueryException;
import io.railgun.engine.query.Statement;
import io.railgun.engine.schema.Field;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.window.WindowBounds;
import io.railgun.engine.window.WindowNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The operators of one task's DAG (paper §4.1.2), Window → Filter → Group By → Aggregator, shared
 * along common prefixes and counted: each operator is kept by a key naming its prefix (origin and
 * window; + WHERE; + GROUP BY fields; + state and argument) with the number of children (or
 * metrics) using it, created by the first chain that needs it and torn down with the last.
 *
 * <p>Owned by the task's thread.
 */
final class OperatorGraph {
    private Schema schema;
    private final WindowCursors cursors;
    private final KeyTables tables;
    private final Map<String, Node<WindowNode>> windows = new HashMap<>();
    private final Map<String, Node<FilterNode>> filters = new HashMap<>();
    private final Map<String, Node<GroupByNode>> groups = new HashMap<>();
    private final Map<String, Node<Aggregator>> aggregators = new HashMap<>();

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

    /** A metric's place in the graph: its (possibly shared) aggregator, its group, and what writes its values. */
    record Chain(String aggregatorKey, String groupKey, Aggregator reader) {}

    OperatorGraph(Schema schema, WindowCursors cursors, KeyTables tables) {
        this.schema = schema;
        this.cursors = cursors;
        this.tables = tables;
    }

    /** The schema new expressions compile against (see {@link TaskPlan#updateSchema}). */
    void updateSchema(Schema newSchema) {
        this.schema = newSchema;
    }

    /**
     * Finds or creates the chain of operators of {@code def} (window, filter, group by, aggregator)
     * and counts one more user of its aggregator.
     *
     * @param origin        names the point the operators were created at: only chains of the same
     *                      origin share operators
     * @param firstSeq      the seq the new window starts empty at, or -1 (it counts every event)
     * @param attachCursors put a new window on the shared cursors at once (false while it backfills)
     */
    Chain add(MetricDefinition def, String origin, long firstSeq, long streamTime, boolean attachCursors) {
        Statement st = def.statement();
        String windowKey = origin + "|" + st.window();
        Node<WindowNode> window = windows.get(windowKey);
        if (window == null) {
            WindowNode w = new WindowNode(st.window(), firstSeq);
            window = new Node<>(w, null);
            windows.put(windowKey, window);
            if (attachCursors) {
                cursors.attach(w, streamTime);
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
            KeyTable table = tables.forFields(fieldsKey, groupFields);
            GroupByNode g = new GroupByNode(groupKey, table, WindowBounds.tail(st.window()) != null);
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
        return new Chain(aggregatorKey, groupKey, AggregatorFactory.reader(agg.op, function));
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

    /**
     * Counts one user less of an aggregator, and removes every operator no one uses any more;
     * returns the window removed with them (for the caller to take off its cursors), or null.
     */
    WindowNode release(String aggregatorKey) {
        Node<Aggregator> agg = aggregators.get(aggregatorKey);
        if (--agg.users == 0) {
            aggregators.remove(aggregatorKey);
            Node<GroupByNode> group = groups.get(agg.parentKey);
            group.op.remove(agg.op);
            if (--group.users == 0) {
                groups.remove(agg.parentKey);
                KeyTable table = group.op.table();
                table.detach(group.op);
                tables.releaseIfUnused(table);
                Node<FilterNode> filter = filters.get(group.parentKey);
                filter.op.remove(group.op);
                if (--filter.users == 0) {
                    filters.remove(group.parentKey);
                    Node<WindowNode> window = windows.get(filter.parentKey);
                    window.op.removeListener(filter.op);
                    if (--window.users == 0) {
                        windows.remove(filter.parentKey);
                        return window.op;
                    }
                }
            }
        }
        return null;
    }


    /** The window named {@code windowKey}. */
    WindowNode window(String windowKey) {
        return windows.get(windowKey).op;
    }

    /** The group-by node named {@code groupKey}. */
    GroupByNode group(String groupKey) {
        return groups.get(groupKey).op;
    }

    /** The key of the window above the group-by node named {@code groupKey}. */
    String windowKeyOf(String groupKey) {
        return filters.get(groups.get(groupKey).parentKey).parentKey;
    }

    /** The largest extent behind stream time of any window (W + D, or W; 0 when none). */
    long maxExtentMs() {
        long max = 0;
        for (Node<WindowNode> w : windows.values()) {
            max = Math.max(max, WindowBounds.extentMs(w.op.spec()));
        }
        return max;
    }
}
