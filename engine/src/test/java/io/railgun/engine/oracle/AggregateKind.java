package io.railgun.engine.oracle;

/**
 * The aggregates of SPEC §4 as the generators spell them. {@link #STDDEV} is the SQL spelling
 * {@code STDDEV(x)}, the same function as {@link #STDDEV_SAMP}; it is kept apart so coverage shows
 * both spellings were exercised.
 */
public enum AggregateKind {
    COUNT_STAR, COUNT, COUNT_DISTINCT, SUM, AVG, MIN, MAX, STDDEV_POP, STDDEV_SAMP, STDDEV, VAR_POP, VAR_SAMP, LAST;

    /** The call as statement text over an already rendered argument. */
    public String sql(String argument) {
        return switch (this) {
            case COUNT_STAR -> "COUNT(*)";
            case COUNT_DISTINCT -> "COUNT(DISTINCT " + argument + ")";
            default -> name() + "(" + argument + ")";
        };
    }

    /** True when the argument must be numeric. */
    public boolean numeric() {
        return switch (this) {
            case SUM, AVG, STDDEV_POP, STDDEV_SAMP, STDDEV, VAR_POP, VAR_SAMP -> true;
            default -> false;
        };
    }
}
