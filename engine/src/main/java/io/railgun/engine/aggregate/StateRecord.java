package io.railgun.engine.aggregate;

/**
 * Layout of a key's state record, the fixed-width run of longs a group-by node keeps per key:
 *
 * <pre>
 *  index                     content
 *  0                         population: events of the key in the window that passed the filter
 *  1 .. 1 + w(a1)            first aggregator's longs (its {@link Aggregator#width()})
 *  ...                       next aggregators', in the order they were added
 * </pre>
 *
 * Doubles are stored as their raw IEEE-754 bits. All zero is the empty state of every aggregator.
 */
public final class StateRecord {
    /** Index of the population counter in a record. */
    public static final int POPULATION = 0;
    /** Index of the first aggregator long. */
    public static final int FIRST_AGGREGATOR = 1;

    private StateRecord() {}
}
