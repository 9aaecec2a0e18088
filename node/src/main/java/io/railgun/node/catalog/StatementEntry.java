package io.railgun.node.catalog;

import java.util.List;

/**
 * One statement of a stream as the catalog keeps it: its text and the names its metrics got when
 * it was added (so every task names them alike).
 *
 * @param id          unique within the stream (the stream's version that added it)
 * @param query       the statement's text
 * @param names       its metrics' names, in SELECT order
 * @param partitioner the partitioner topic whose tasks compute it
 * @param backfill    whether it was added with backfill
 * @param removed     the names of its metrics that were removed since (the others are live)
 */
public record StatementEntry(long id, String query, List<String> names, String partitioner, boolean backfill,
        List<String> removed) {
    public StatementEntry {
        names = List.copyOf(names);
        removed = List.copyOf(removed);
    }

    /** Whether {@code metric} is one of its metrics and not removed. */
    public boolean defines(String metric) {
        return names.contains(metric) && !removed.contains(metric);
    }

    /** Whether every one of its metrics was removed. */
    public boolean allRemoved() {
        return removed.containsAll(names);
    }

    public StatementEntry withRemoved(String metric) {
        List<String> r = new java.util.ArrayList<>(removed);
        r.add(metric);
        return new StatementEntry(id, query, names, partitioner, backfill, r);
    }
}
