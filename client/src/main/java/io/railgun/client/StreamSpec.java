package io.railgun.client;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A stream's definition: the body of {@code PUT /v1/streams/{stream}} and of {@code GET
 * /v1/streams/{stream}} (SPEC §3.1), written in this order:
 * <pre>{@code
 * {"fields": {"id": "string", "ts": "timestamp", "card": "string", "amount": "double"},
 *  "eventId": "id", "timestamp": "ts", "partitioners": ["card"], "partitions": 8,
 *  "lateness": "5s", "lateEvents": "drop", "retention": "30d"}
 * }</pre>
 * Optional attributes that are unset (null, or 0 for {@code partitions}) are left out, so the node
 * applies its defaults. Build one with {@link #builder()}.
 *
 * <p>Immutable and safe to share between threads. Equality ignores the order of the fields (the
 * wire format keeps it).
 *
 * @param fields       field name → type, in declaration order (unmodifiable, order kept); every
 *                     field is nullable
 * @param eventId      the field that identifies an event: duplicates are detected by it
 * @param timestamp    the event-time field, or null to use the node's ingestion time
 * @param partitioners the top-level group-by fields events are routed by (a Kafka topic each)
 * @param partitions   partitions per partitioner topic, or 0 for the node's default
 * @param lateness     how far behind its partition's stream time an event may arrive and still count
 *                     at its own timestamp, a duration such as {@code "5s"}; null for the node's
 *                     default ({@code 0s})
 * @param lateEvents   what happens to events later than that, or null for the node's default
 *                     ({@link LateEvents#DROP})
 * @param retention    how much history the node keeps at least (for backfilling new metrics), a
 *                     duration such as {@code "30d"}; null for the node's default. Railgun's
 *                     extension of SPEC §3.1.
 * @param inputRetention how long Kafka keeps the stream's input events, {@code "forever"} or a
 *                     duration of at least {@code "1m"}; null for the node's {@code --input-retention}
 *                     (at creation; an existing stream keeps its own). {@code GET} answers the value in
 *                     force. Railgun's extension of SPEC §3.1.
 */
public record StreamSpec(
        Map<String, FieldType> fields,
        String eventId,
        String timestamp,
        List<String> partitioners,
        int partitions,
        String lateness,
        LateEvents lateEvents,
        String retention,
        String inputRetention) {

    public StreamSpec {
        Objects.requireNonNull(fields, "fields");
        Objects.requireNonNull(eventId, "eventId");
        Objects.requireNonNull(partitioners, "partitioners");
        for (Map.Entry<String, FieldType> field : fields.entrySet()) {
            Objects.requireNonNull(field.getKey(), "field name");
            Objects.requireNonNull(field.getValue(), "type of field " + field.getKey());
        }
        // Map.copyOf would lose the declaration order, which the wire format keeps
        fields = Collections.unmodifiableMap(new LinkedHashMap<>(fields));
        partitioners = List.copyOf(partitioners);
        if (partitions < 0) {
            throw new IllegalArgumentException("partitions must be positive, or 0 for the node's default");
        }
    }

    /** A spec whose input retention is the node's default. */
    public StreamSpec(Map<String, FieldType> fields, String eventId, String timestamp, List<String> partitioners,
            int partitions, String lateness, LateEvents lateEvents, String retention) {
        this(fields, eventId, timestamp, partitioners, partitions, lateness, lateEvents, retention, null);
    }

    /** An empty builder. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this spec, to change it (e.g. add a field) and PUT it again. */
    public Builder toBuilder() {
        return new Builder().fields(fields).eventId(eventId).timestamp(timestamp)
                .partitioners(partitioners).partitions(partitions).lateness(lateness).lateEvents(lateEvents)
                .retention(retention).inputRetention(inputRetention);
    }

    /**
     * Builds a {@link StreamSpec}; {@code fields}, {@code eventId} and {@code partitioners} are
     * required. Not thread-safe.
     */
    public static final class Builder {
        private final LinkedHashMap<String, FieldType> fields = new LinkedHashMap<>();
        private String eventId;
        private String timestamp;
        private List<String> partitioners = new ArrayList<>();
        private int partitions;
        private String lateness;
        private LateEvents lateEvents;
        private String retention;
        private String inputRetention;

        private Builder() {}

        /**
         * Declares a field after the ones already declared.
         *
         * @throws IllegalArgumentException when {@code name} is already declared
         */
        public Builder field(String name, FieldType type) {
            Objects.requireNonNull(name, "field name");
            Objects.requireNonNull(type, "type of field " + name);
            if (fields.putIfAbsent(name, type) != null) {
                throw new IllegalArgumentException("field '" + name + "' is declared twice");
            }
            return this;
        }

        /** Declares every field of {@code namesToTypes}, in its iteration order. */
        public Builder fields(Map<String, FieldType> namesToTypes) {
            namesToTypes.forEach(this::field);
            return this;
        }

        public Builder eventId(String field) {
            this.eventId = field;
            return this;
        }

        /** The event-time field; not calling this (or null) means ingestion time. */
        public Builder timestamp(String field) {
            this.timestamp = field;
            return this;
        }

        public Builder partitioners(String... fieldNames) {
            return partitioners(List.of(fieldNames));
        }

        public Builder partitioners(List<String> fieldNames) {
            this.partitioners = new ArrayList<>(fieldNames);
            return this;
        }

        /** Partitions per partitioner topic; 0 (the default) leaves it to the node. */
        public Builder partitions(int count) {
            this.partitions = count;
            return this;
        }

        /** A duration such as {@code "5s"}, {@code "500ms"}, {@code "2m"}; null leaves the node's default. */
        public Builder lateness(String duration) {
            this.lateness = duration;
            return this;
        }

        public Builder lateEvents(LateEvents policy) {
            this.lateEvents = policy;
            return this;
        }

        /** A duration such as {@code "30d"}; null leaves the node's default. */
        public Builder retention(String duration) {
            this.retention = duration;
            return this;
        }

        /** {@code "forever"} or a duration of at least {@code "1m"} such as {@code "14d"}; null leaves the node's default. */
        public Builder inputRetention(String durationOrForever) {
            this.inputRetention = durationOrForever;
            return this;
        }

        /** @throws NullPointerException when eventId is missing */
        public StreamSpec build() {
            return new StreamSpec(fields, eventId, timestamp, partitioners, partitions, lateness, lateEvents, retention,
                    inputRetention);
        }
    }
}
