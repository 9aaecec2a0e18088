package io.railgun.engine.query;

import java.util.Locale;

/** The spellings of the aggregate functions in statements (SPEC §4), case-insensitive. */
final class AggregateNames {
    /** For error hints. */
    static final String ALL = "COUNT, SUM, AVG, MIN, MAX, STDDEV_POP, STDDEV_SAMP, STDDEV, VAR_POP, VAR_SAMP, LAST";

    private AggregateNames() {}

    /** The function spelled {@code name} ({@code STDDEV} is {@code STDDEV_SAMP}), or null. */
    static AggregateFunction lookup(String name) {
        return switch (name.toUpperCase(Locale.ROOT)) {
            case "COUNT" -> AggregateFunction.COUNT;
            case "SUM" -> AggregateFunction.SUM;
            case "AVG" -> AggregateFunction.AVG;
            case "MIN" -> AggregateFunction.MIN;
            case "MAX" -> AggregateFunction.MAX;
            case "STDDEV_POP" -> AggregateFunction.STDDEV_POP;
            case "STDDEV_SAMP", "STDDEV" -> AggregateFunction.STDDEV_SAMP;
            case "VAR_POP" -> AggregateFunction.VAR_POP;
            case "VAR_SAMP" -> AggregateFunction.VAR_SAMP;
            case "LAST" -> AggregateFunction.LAST;
            default -> null;
        };
    }
}
