package io.railgun.bench.faults;

import java.util.List;

/**
 * One record of a stream's input topic as the checker reads it back from Kafka: an event (id, card,
 * timestamp and amount decoded from the record's binary row) or a metric-added marker (the names of
 * the metrics it adds). Other markers (schema changes, point reads, removals) are {@link Kind#OTHER}.
 */
record InputRecord(int partition, long offset, Kind kind, String id, String card, long ts, long amountQuarters,
                   List<String> metrics) {

    /** What a record is. */
    enum Kind { EVENT, STATEMENT, OTHER }

    static InputRecord event(int partition, long offset, String id, String card, long ts, long amountQuarters) {
        return new InputRecord(partition, offset, Kind.EVENT, id, card, ts, amountQuarters, List.of());
    }

    static InputRecord statement(int partition, long offset, List<String> metrics) {
        return new InputRecord(partition, offset, Kind.STATEMENT, null, null, 0, 0, List.copyOf(metrics));
    }

    static InputRecord other(int partition, long offset) {
        return new InputRecord(partition, offset, Kind.OTHER, null, null, 0, 0, List.of());
    }
}
