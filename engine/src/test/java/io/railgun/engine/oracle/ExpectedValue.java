package io.railgun.engine.oracle;

/**
 * The oracle's value of one metric for one reply or read, with what {@link Tolerance} needs to judge
 * a floating-point answer and what {@link Coverage} counts.
 *
 * @param value         Long, Double, String, Boolean or null
 * @param kind          the aggregate
 * @param windowEvents  events of the group in the window that passed the filter
 * @param inputs        non-null argument values among them (windowEvents for COUNT(*))
 * @param scale         magnitude of the inputs, for {@link Tolerance}: sum of |x| for SUM and AVG,
 *                      max |x| for VAR_* and STDDEV_*, 0 otherwise
 * @param expiredEvents counted events of the same group (filter passed) that are outside the window
 */
public record ExpectedValue(
        Object value, AggregateKind kind, int windowEvents, int inputs, double scale, int expiredEvents) {}
