package io.railgun.engine.query;

/** The aggregate functions of SPEC §4. {@code STDDEV} parses as {@link #STDDEV_SAMP}. */
public enum AggregateFunction {
    COUNT, COUNT_DISTINCT, SUM, AVG, MIN, MAX, STDDEV_POP, STDDEV_SAMP, VAR_POP, VAR_SAMP, LAST
}
