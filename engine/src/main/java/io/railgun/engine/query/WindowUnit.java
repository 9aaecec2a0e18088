package io.railgun.engine.query;

import java.util.Locale;

/** The time units of a window clause, singular or plural, case-insensitive (SPEC §4). */
enum WindowUnit {
    MILLISECOND(1L),
    SECOND(1_000L),
    MINUTE(60_000L),
    HOUR(3_600_000L),
    DAY(86_400_000L),
    WEEK(604_800_000L);

    /** For error hints. */
    static final String ALL = "MILLISECOND(S), SECOND(S), MINUTE(S), HOUR(S), DAY(S), WEEK(S)";

    private final long millis;

    WindowUnit(long millis) {
        this.millis = millis;
    }

    long millis() {
        return millis;
    }

    /** The unit spelled {@code word} (e.g. {@code minutes}), or null. */
    static WindowUnit lookup(String word) {
        String upper = word.toUpperCase(Locale.ROOT);
        for (WindowUnit u : values()) {
            if (upper.equals(u.name()) || upper.equals(u.name() + "S")) {
                return u;
            }
        }
        return null;
    }
}
