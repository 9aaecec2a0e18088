package io.railgun.bench.faults;

/**
 * An event as the generator made it (its own log of what it sent, every attempt carrying the same
 * fields): the checker's cross-check of what it reads from the input topic.
 *
 * @param id          the event id, unique per event ({@code "f<index>"})
 * @param card        the partitioner and GROUP BY key
 * @param ts          event time, ms since the epoch (the wall clock when the event was due)
 * @param amountQuarters the amount in units of 0.25 (amounts are multiples of 0.25, so every sum is
 *                    exact in a double and the comparison needs no tolerance)
 */
record SentEvent(String id, String card, long ts, long amountQuarters) {
    double amount() {
        return amountQuarters / 4.0;
    }

    String json() {
        return "{\"id\":\"" + id + "\",\"ts\":" + ts + ",\"card\":\"" + card + "\",\"amount\":" + amount() + "}";
    }
}
