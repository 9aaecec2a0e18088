package io.railgun.engine.query;

/**
 * One aggregate of a SELECT list.
 *
 * @param function the aggregate
 * @param argument its argument; null only for {@code COUNT(*)}
 * @param alias    the {@code AS} name, or null when absent
 * @param position offset of the call in the statement text
 */
public record AggregateCall(AggregateFunction function, Expr argument, String alias, int position) {}
