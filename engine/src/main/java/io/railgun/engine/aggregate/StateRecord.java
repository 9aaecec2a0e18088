package io.railgun.engine.aggregate;

/**
 * Layout of a group-by node's segment of a key's state record (the record, shared by every node
 * grouping by the same fields, is described in {@code plan.KeyTable}); aggregators address the
 * segment from its start, the {@code base} they are given:
 *
 * <pre>
 *  index in the segment      content
 *  0                         population: events of the key in this window that passed the filter
 *  1 .. 1 + w(a1)            first aggregator's longs (its {@link Aggregator#width()})
 *  ...                       next aggregators', in the order they were added
 * </pre>
 *
 * Doubles are stored as their raw IEEE-754 bits. All zero is the empty state of every aggregator.
 */
public final class StateRecord {
    /** Index of the population counter in a record. */
    public static final int POPULATION = 0;

    private StateRecord() {}
}
