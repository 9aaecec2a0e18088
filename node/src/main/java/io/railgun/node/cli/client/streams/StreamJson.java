package io.railgun.node.cli.client.streams;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.railgun.client.StreamSpec;
import io.railgun.node.cli.client.Json;

/** A stream's definition as JSON in the shape of {@code GET /v1/streams/{stream}}, which can be PUT again. */
final class StreamJson {

    private StreamJson() {
    }

    static ObjectNode of(String name, StreamSpec spec) {
        ObjectNode root = Json.MAPPER.createObjectNode();
        root.put("name", name);
        ObjectNode fields = root.putObject("fields");
        spec.fields().forEach((field, type) -> fields.put(field, type.jsonName()));
        root.put("eventId", spec.eventId());
        root.put("timestamp", spec.timestamp());
        spec.partitioners().forEach(root.putArray("partitioners")::add);
        root.put("partitions", spec.partitions());
        root.put("lateness", spec.lateness());
        root.put("lateEvents", spec.lateEvents() == null ? null : spec.lateEvents().jsonName());
        root.put("retention", spec.retention());
        if (spec.inputRetention() != null) {
            root.put("inputRetention", spec.inputRetention());
        }
        return root;
    }
}
