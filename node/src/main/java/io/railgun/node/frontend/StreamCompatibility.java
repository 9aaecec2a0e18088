package io.railgun.node.frontend;

import io.railgun.engine.schema.Field;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import java.util.ArrayList;
import java.util.List;

/**
 * What may change when a stream is defined again ({@code PUT /v1/streams/{name}} on an existing
 * stream): fields appended to its schema and its input retention; nothing else. Says what was
 * changed otherwise, and how to do it instead. Stateless; called by {@link FrontEnd}.
 */
final class StreamCompatibility {
    private StreamCompatibility() {}

    /**
     * Refuses a new definition of an existing stream that changes anything but its fields and input
     * retention (eventId, timestamp, partitioners, partitions, lateness, late events, retention).
     *
     * @throws ApiException 409 {@code incompatible_stream_change} naming every attribute changed
     */
    static void checkSameAttributes(StreamDefinition old, StreamDefinition now) {
        List<String> changed = new ArrayList<>();
        if (!old.eventIdField().equalsIgnoreCase(now.eventIdField())) {
            changed.add("eventId (" + old.eventIdField() + " -> " + now.eventIdField() + ")");
        }
        if (old.timestampField() == null ? now.timestampField() != null
                : now.timestampField() == null || !old.timestampField().equalsIgnoreCase(now.timestampField())) {
            changed.add("timestamp (" + old.timestampField() + " -> " + now.timestampField() + ")");
        }
        if (!old.partitioners().equals(now.partitioners())) {
            changed.add("partitioners (" + old.partitioners() + " -> " + now.partitioners() + ")");
        }
        if (old.partitions() != now.partitions()) {
            changed.add("partitions (" + old.partitions() + " -> " + now.partitions() + ")");
        }
        if (old.latenessMs() != now.latenessMs()) {
            changed.add("lateness (" + old.latenessMs() + " ms -> " + now.latenessMs() + " ms)");
        }
        if (old.lateEvents() != now.lateEvents()) {
            changed.add("lateEvents (" + old.lateEvents() + " -> " + now.lateEvents() + ")");
        }
        if (old.retentionMs() != now.retentionMs()) {
            changed.add("retention (" + old.retentionMs() + " ms -> " + now.retentionMs() + " ms)");
        }
        if (!changed.isEmpty()) {
            throw ApiException.conflict("incompatible_stream_change", "stream '" + old.name() + "' exists and only new"
                    + " fields may be added to it; changed: " + String.join(", ", changed)
                    + ". Delete the stream and create it again to change these.");
        }
    }

    /** Why {@code now} is not {@code old} evolved (fields kept in order and type, new ones appended). */
    static String incompatibility(Schema old, Schema now) {
        for (int i = 0; i < old.size(); i++) {
            Field a = old.field(i);
            if (i >= now.size()) {
                return "incompatible schema change: field '" + a.name() + "' is missing; existing fields must stay, with their"
                        + " types and order, and new fields may only be added at the end";
            }
            Field b = now.field(i);
            if (!a.name().equalsIgnoreCase(b.name())) {
                return "incompatible schema change: field " + (i + 1) + " is '" + a.name() + "', not '" + b.name()
                        + "'; existing fields must stay in their order, and new fields may only be added at the end";
            }
            if (a.type() != b.type()) {
                return "incompatible schema change: field '" + a.name() + "' is " + a.type().jsonName() + ", it cannot become "
                        + b.type().jsonName() + "; add a new field instead";
            }
        }
        return "incompatible schema change";
    }
}
