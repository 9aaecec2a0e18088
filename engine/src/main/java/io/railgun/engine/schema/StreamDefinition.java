package io.railgun.engine.schema;

import java.util.List;

/**
 * A stream as declared by {@code PUT /v1/streams/{stream}} (SPEC §3.1).
 *
 * @param name           stream name
 * @param schema         current schema
 * @param eventIdField   the field whose value identifies an event (duplicates are detected by it)
 * @param timestampField the event-time field, or null to use ingestion time
 * @param partitioners   top-level group-by fields, in declaration order
 * @param partitions     partitions per partitioner topic
 * @param latenessMs     how far behind stream time an event is still inserted at its own timestamp
 * @param lateEvents     what happens to events later than that
 * @param retentionMs    how much history (behind stream time) the reservoir keeps at least, for
 *                       backfilling new metrics; 0 keeps only what the windows and the dedup
 *                       horizon need (unbounded windows need no events: their state suffices)
 * @param inputRetentionMs how long the node's input topics keep the stream's events (Kafka
 *                       {@code retention.ms}), for the node only (the engine keeps its own history):
 *                       {@link #INPUT_RETENTION_FOREVER}, or {@link #INPUT_RETENTION_NODE_DEFAULT}
 *                       until the node resolves it to its default when the stream is created
 */
public record StreamDefinition(
        String name,
        Schema schema,
        String eventIdField,
        String timestampField,
        List<String> partitioners,
        int partitions,
        long latenessMs,
        LateEventPolicy lateEvents,
        long retentionMs,
        long inputRetentionMs) {

    /** {@link #inputRetentionMs}: not given, the node's default applies. */
    public static final long INPUT_RETENTION_NODE_DEFAULT = 0;
    /** {@link #inputRetentionMs}: nothing is deleted. */
    public static final long INPUT_RETENTION_FOREVER = -1;

    /** A stream whose input retention is the node's default. */
    public StreamDefinition(String name, Schema schema, String eventIdField, String timestampField,
            List<String> partitioners, int partitions, long latenessMs, LateEventPolicy lateEvents, long retentionMs) {
        this(name, schema, eventIdField, timestampField, partitioners, partitions, latenessMs, lateEvents, retentionMs,
                INPUT_RETENTION_NODE_DEFAULT);
    }

    /** A stream that keeps no history beyond what its windows and dedup horizon need. */
    public StreamDefinition(String name, Schema schema, String eventIdField, String timestampField,
            List<String> partitioners, int partitions, long latenessMs, LateEventPolicy lateEvents) {
        this(name, schema, eventIdField, timestampField, partitioners, partitions, latenessMs, lateEvents, 0);
    }

    public StreamDefinition {
        partitioners = List.copyOf(partitioners);
        if (schema.field(eventIdField) == null) {
            throw new IllegalArgumentException("eventId field '" + eventIdField + "' is not a field of the stream");
        }
        if (timestampField != null) {
            Field ts = schema.field(timestampField);
            if (ts == null) {
                throw new IllegalArgumentException("timestamp field '" + timestampField + "' is not a field of the stream");
            }
            if (!ts.type().isIntegral()) {
                throw new IllegalArgumentException("timestamp field '" + timestampField + "' must be of type timestamp or long");
            }
        }
        if (partitioners.isEmpty()) {
            throw new IllegalArgumentException("a stream needs at least one partitioner (a top-level group-by field)");
        }
        for (String p : partitioners) {
            if (schema.field(p) == null) {
                throw new IllegalArgumentException("partitioner '" + p + "' is not a field of the stream");
            }
        }
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be at least 1");
        }
        if (latenessMs < 0) {
            throw new IllegalArgumentException("lateness must not be negative");
        }
        if (retentionMs < 0) {
            throw new IllegalArgumentException("retention must not be negative");
        }
        if (inputRetentionMs < INPUT_RETENTION_FOREVER) {
            throw new IllegalArgumentException("inputRetention must be positive, or forever");
        }
    }

    /** The same stream with a new schema (after a compatible change). */
    public StreamDefinition withSchema(Schema newSchema) {
        return new StreamDefinition(name, newSchema, eventIdField, timestampField, partitioners, partitions, latenessMs,
                lateEvents, retentionMs, inputRetentionMs);
    }

    /** The same stream with another input retention. */
    public StreamDefinition withInputRetention(long newInputRetentionMs) {
        return new StreamDefinition(name, schema, eventIdField, timestampField, partitioners, partitions, latenessMs,
                lateEvents, retentionMs, newInputRetentionMs);
    }
}
