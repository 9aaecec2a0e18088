package io.railgun.engine.plan;

import io.railgun.engine.aggregate.Aggregator;
import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.task.Reply;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The order in which a task's live metrics appear in its replies, and how each reply is filled:
 * the metrics' names and types by reply index, and the group-by nodes to visit, each once per
 * event, with the aggregators that write their metrics' values and the reply index of each.
 * Immutable: {@link TaskPlan} builds a new one whenever its live metrics change.
 *
 * <p>Used by the task's thread.
 */
final class ReplyLayout {
    static final ReplyLayout EMPTY = new Builder().build();

    private final String[] names;
    private final ValueType[] types;
    private final GroupByNode[] groups;
    private final Aggregator[][] aggregators;
    private final int[][] indexes;

    private ReplyLayout(String[] names, ValueType[] types, GroupByNode[] groups, Aggregator[][] aggregators,
                        int[][] indexes) {
        this.names = names;
        this.types = types;
        this.groups = groups;
        this.aggregators = aggregators;
        this.indexes = indexes;
    }

    /** Writes every metric's value for {@code row}'s keys into {@code reply} (seq -1 if not counted). */
    void evaluate(EventRow row, long seq, Reply reply) {
        for (int g = 0; g < groups.length; g++) {
            GroupByNode group = groups[g];
            int slot = group.slotOf(row, seq);
            Aggregator[] aggs = aggregators[g];
            int[] idx = indexes[g];
            for (int i = 0; i < aggs.length; i++) {
                group.write(aggs[i], slot, reply, idx[i]);
            }
        }
    }

    /** Metric names in reply order. */
    String[] names() {
        return names;
    }

    /** Metric types in reply order. */
    ValueType[] types() {
        return types;
    }

    /** Index of a metric in replies, or -1. */
    int indexOf(String name) {
        for (int i = 0; i < names.length; i++) {
            if (names[i].equals(name)) {
                return i;
            }
        }
        return -1;
    }

    /** Collects the live metrics in reply order. */
    static final class Builder {
        private final List<String> names = new ArrayList<>();
        private final List<ValueType> types = new ArrayList<>();
        private final List<Aggregator> readers = new ArrayList<>();
        private final Map<String, GroupByNode> groups = new LinkedHashMap<>();
        private final Map<String, List<Integer>> byGroup = new LinkedHashMap<>();

        /**
         * The next metric in reply order.
         *
         * @param groupKey names {@code group} (one key per node)
         * @param reader   writes the metric's value from the group's state
         */
        void add(String name, ValueType type, String groupKey, GroupByNode group, Aggregator reader) {
            byGroup.computeIfAbsent(groupKey, k -> new ArrayList<>()).add(names.size());
            groups.putIfAbsent(groupKey, group);
            names.add(name);
            types.add(type);
            readers.add(reader);
        }

        ReplyLayout build() {
            GroupByNode[] groupArray = new GroupByNode[byGroup.size()];
            Aggregator[][] aggregators = new Aggregator[byGroup.size()][];
            int[][] indexes = new int[byGroup.size()][];
            int g = 0;
            for (Map.Entry<String, List<Integer>> e : byGroup.entrySet()) {
                groupArray[g] = groups.get(e.getKey());
                List<Integer> idx = e.getValue();
                aggregators[g] = new Aggregator[idx.size()];
                indexes[g] = new int[idx.size()];
                for (int k = 0; k < idx.size(); k++) {
                    aggregators[g][k] = readers.get(idx.get(k));
                    indexes[g][k] = idx.get(k);
                }
                g++;
            }
            return new ReplyLayout(names.toArray(new String[0]), types.toArray(new ValueType[0]), groupArray,
                    aggregators, indexes);
        }
    }
}
