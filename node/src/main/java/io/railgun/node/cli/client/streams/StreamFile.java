package io.railgun.node.cli.client.streams;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.railgun.client.FieldType;
import io.railgun.client.LateEvents;
import io.railgun.client.StreamSpec;
import io.railgun.node.cli.Suggestions;
import io.railgun.node.cli.client.CommandFailure;
import io.railgun.node.cli.client.Json;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads a stream definition file, the body of {@code PUT /v1/streams/{stream}} (docs/http-api.md)
 * as JSON ({@code .json}) or YAML (any other name, and standard input: YAML also reads JSON), into
 * a {@link StreamSpec}. Only the shape is checked here (known keys, value kinds), so that a typo
 * does not vanish on the way; the node checks the rest and answers in its own words. Durations may
 * be strings ({@code "5s"}) or milliseconds. Stateless.
 */
final class StreamFile {
    static final List<String> KEYS = List.of("name", "fields", "eventId", "timestamp", "partitioners", "partitions",
            "lateness", "lateEvents", "retention", "inputRetention");

    private StreamFile() {
    }

    /**
     * @param file   the file, or null for {@code in}
     * @param stream the stream's name on the command line; a {@code name} in the file must be the same
     * @throws CommandFailure (exit code 2) naming the file and what to fix
     */
    static StreamSpec read(Path file, InputStream in, String stream) {
        String what = file == null ? "standard input" : file.toString();
        boolean json = file != null && file.toString().toLowerCase(Locale.ROOT).endsWith(".json");
        ObjectMapper mapper = json ? Json.MAPPER : new YAMLMapper();
        JsonNode root;
        try {
            root = file == null ? mapper.readTree(in) : mapper.readTree(Files.readAllBytes(file));
        } catch (NoSuchFileException e) {
            throw CommandFailure.usage(what + " does not exist");
        } catch (JsonProcessingException e) {
            var at = e.getLocation();
            throw CommandFailure.usage(what + " is not valid " + (json ? "JSON" : "YAML") + (at == null ? ""
                    : " (line " + at.getLineNr() + ", column " + at.getColumnNr() + ")") + ": " + e.getOriginalMessage());
        } catch (IOException e) {
            throw CommandFailure.usage("cannot read " + what + ": " + e.getMessage());
        }
        return toSpec(root, what, stream);
    }

    static StreamSpec toSpec(JsonNode root, String what, String stream) {
        if (root == null || !root.isObject()) {
            throw CommandFailure.usage(what + " must hold one object with fields, eventId, partitioners ...,"
                    + " the body of PUT /v1/streams/{stream} (see docs/http-api.md)");
        }
        List<String> unknown = new ArrayList<>();
        root.fieldNames().forEachRemaining(key -> {
            if (!KEYS.contains(key)) {
                String near = Suggestions.closest(key, KEYS);
                unknown.add("'" + key + "'" + (near == null ? "" : " (did you mean '" + near + "'?)"));
            }
        });
        if (!unknown.isEmpty()) {
            throw CommandFailure.usage("unknown key " + String.join(", ", unknown) + " in " + what + "; valid: "
                    + String.join(", ", KEYS));
        }
        String name = text(root, "name", what);
        if (name != null && !name.equals(stream)) {
            throw CommandFailure.usage(what + " names stream '" + name + "', not '" + stream
                    + "': remove its name key or create it under that name");
        }
        JsonNode fieldsNode = root.get("fields");
        if (fieldsNode == null || !fieldsNode.isObject() || fieldsNode.isEmpty()) {
            throw CommandFailure.usage(what + ": 'fields' must be a map of field name to type"
                    + " (string, long, double, boolean, timestamp), e.g. {\"id\": \"string\", \"amount\": \"double\"}");
        }
        Map<String, FieldType> fields = new LinkedHashMap<>();
        for (var field : fieldsNode.properties()) {
            try {
                fields.put(field.getKey(), FieldType.fromJson(field.getValue().asText()));
            } catch (IllegalArgumentException e) {
                throw CommandFailure.usage(what + ": field '" + field.getKey() + "': " + e.getMessage());
            }
        }
        String eventId = text(root, "eventId", what);
        if (eventId == null) {
            throw CommandFailure.usage(what + ": 'eventId' is required: the field that identifies an event");
        }
        JsonNode partitionersNode = root.get("partitioners");
        List<String> partitioners = new ArrayList<>();
        if (partitionersNode != null && partitionersNode.isArray()) {
            partitionersNode.forEach(p -> partitioners.add(p.asText()));
        } else if (partitionersNode != null && partitionersNode.isTextual()) {
            partitioners.add(partitionersNode.asText());
        }
        if (partitioners.isEmpty()) {
            throw CommandFailure.usage(what + ": 'partitioners' is required: the fields events are routed by,"
                    + " e.g. [\"card\"]");
        }
        JsonNode partitions = root.get("partitions");
        if (partitions != null && !partitions.isNull() && !partitions.canConvertToInt()) {
            throw CommandFailure.usage(what + ": 'partitions' must be a whole number, e.g. 8");
        }
        String lateEvents = text(root, "lateEvents", what);
        try {
            return new StreamSpec(fields, eventId, text(root, "timestamp", what), partitioners,
                    partitions == null || partitions.isNull() ? 0 : partitions.asInt(), duration(root, "lateness", what),
                    lateEvents == null ? null : LateEvents.fromJson(lateEvents), duration(root, "retention", what),
                    duration(root, "inputRetention", what));
        } catch (IllegalArgumentException e) {
            throw CommandFailure.usage(what + ": " + e.getMessage());
        }
    }

    private static String text(JsonNode root, String key, String what) {
        JsonNode node = root.get(key);
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isValueNode() || node.isBoolean()) {
            throw CommandFailure.usage(what + ": '" + key + "' must be a name, not " + node);
        }
        return node.asText();
    }

    /** A duration as the node reads it: a string ("5s", "30 days") or a number of milliseconds. */
    private static String duration(JsonNode root, String key, String what) {
        JsonNode node = root.get(key);
        if (node != null && node.isIntegralNumber()) {
            return node.asLong() + "ms";
        }
        return text(root, key, what);
    }
}
