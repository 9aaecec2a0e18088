package io.railgun.node.cli.client.send;

import java.util.Locale;

/** The input formats of {@code railgun send}. */
public enum EventFormat {
    /** One JSON object per line; blank lines are skipped. */
    NDJSON,
    /** A header row naming the stream's fields, then one event per row (RFC 4180 quoting). */
    CSV;

    /** CSV for a name ending in {@code .csv}, else NDJSON (also for standard input). */
    static EventFormat forFile(String name) {
        return name.toLowerCase(Locale.ROOT).endsWith(".csv") ? CSV : NDJSON;
    }
}
