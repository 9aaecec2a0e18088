package io.railgun.node.http;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import io.railgun.engine.schema.Field;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.LateEventPolicy;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.node.frontend.ApiException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The JSON of stream definitions (SPEC §3.1): the body of {@code PUT /v1/streams/{stream}} to a
 * {@link StreamDefinition}, and back for {@code GET} (the same shape plus {@code "name"}, so what GET
 * returns can be PUT again).
 *
 * <pre>{"fields": {"id": "string", "ts": "timestamp", "card": "string", "amount": "double"},
 *  "eventId": "id", "timestamp": "ts", "partitioners": ["card"], "partitions": 8,
 *  "lateness": "5s", "lateEvents": "drop", "retention": "7d", "inputRetention": "14d"}</pre>
 *
 * {@code inputRetention} (Railgun's, optional) is how long the stream's input topics keep events:
 * {@code "forever"} or at least 1m; left out, the node's {@code --input-retention} applies when the
 * stream is created, and GET shows the value in force.
 *
 * Rules beyond SPEC: field names are 1-100 characters without control characters, distinct ignoring
 * case, at most {@value #MAX_FIELDS}; the eventId field is a string or long; {@code partitions} is
 * 1..{@value #MAX_PARTITIONS}; durations as in {@link Durations}; references to fields (eventId,
 * timestamp, partitioners) are case-insensitive and stored with the field's declared spelling.
 * Stateless and thread-safe.
 */
public final class StreamJson {
    /** Stream names: a letter, digit or underscore, then up to 99 of those, '.' or '-'. */
    public static final Pattern STREAM_NAME = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}");
    static final int MAX_FIELDS = 1024;
    static final int MAX_PARTITIONS = 10_000;
    static final String EXAMPLE = "{\"fields\": {\"id\": \"string\", \"ts\": \"timestamp\", \"card\": \"string\", "
            + "\"amount\": \"double\"}, \"eventId\": \"id\", \"timestamp\": \"ts\", \"partitioners\": [\"card\"]}";
    private static final Set<String> KEYS = Set.of("name", "fields", "eventId", "timestamp", "partitioners", "partitions",
            "lateness", "lateEvents", "retention", "inputRetention");
    private static final String KEY_LIST = "fields, eventId, timestamp, partitioners, partitions, lateness, lateEvents,"
            + " retention, inputRetention (and name)";
    /** The shortest input retention: less would let Kafka delete events before a moved task has read them. */
    static final long MIN_INPUT_RETENTION_MS = 60_000;
    private static final List<String> TYPES = List.of("string", "long", "double", "boolean", "timestamp");
    private static final String TYPE_LIST = String.join(", ", TYPES);

    private StreamJson() {}

    /**
     * @throws ApiException 400 {@code invalid_stream_name} unless {@code name} matches {@link #STREAM_NAME}
     */
    public static void checkName(String name) {
        if (!STREAM_NAME.matcher(name).matches()) {
            throw ApiException.badRequest("invalid_stream_name", "stream name '" + name + "' is not valid: use 1-100"
                    + " letters, digits, '_', '.' or '-', starting with a letter, digit or '_'");
        }
    }

    /**
     * Parses a PUT body into the definition of stream {@code name}.
     *
     * @throws ApiException 400 with a message naming the mistake and the fix
     */
    public static StreamDefinition parse(String name, byte[] body, int length) {
        checkName(name);
        JsonNode root = Json.readTree(body, length, EXAMPLE);
        if (!root.isObject()) {
            throw invalid("the stream definition must be a JSON object like " + EXAMPLE);
        }
        for (Iterator<String> it = root.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!KEYS.contains(key)) {
                throw ApiException.badRequest("unknown_key", "unknown key \"" + key + "\" in the stream definition; "
                        + Suggestions.didYouMean(key, KEYS) + "the valid keys are " + KEY_LIST);
            }
        }
        JsonNode bodyName = root.get("name");
        if (bodyName != null && !bodyName.isNull() && !(bodyName.isTextual() && bodyName.asText().equals(name))) {
            throw invalid("\"name\" is " + bodyName + " but the path names stream '" + name
                    + "'; remove \"name\" from the body or make it match the path");
        }
        Schema schema = Schema.of(fields(root.get("fields")));
        String eventId = fieldRef(root, "eventId", schema, true);
        FieldType idType = schema.field(eventId).type();
        if (idType != FieldType.STRING && idType != FieldType.LONG) {
            throw invalid("eventId field '" + eventId + "' is a " + idType.jsonName()
                    + "; an event id must be a string or long field");
        }
        String timestamp = fieldRef(root, "timestamp", schema, false);
        if (timestamp != null && !schema.field(timestamp).type().isIntegral()) {
            throw invalid("timestamp field '" + timestamp + "' is a " + schema.field(timestamp).type().jsonName()
                    + "; the event-time field must be of type timestamp (or long epoch milliseconds)");
        }
        List<String> partitioners = partitioners(root.get("partitioners"), schema);
        int partitions = partitions(root.get("partitions"));
        long latenessMs = duration(root, "lateness");
        LateEventPolicy lateEvents = lateEvents(root.get("lateEvents"));
        long retentionMs = duration(root, "retention");
        long inputRetentionMs = inputRetention(root.get("inputRetention"));
        try {
            return new StreamDefinition(name, schema, eventId, timestamp, partitioners, partitions, latenessMs, lateEvents,
                    retentionMs, inputRetentionMs);
        } catch (IllegalArgumentException e) {
            throw invalid(e.getMessage()); // all checked above; kept so a new engine rule is still a 400
        }
    }

    /** Writes a definition as GET returns it: the PUT shape plus "name" first; "timestamp" is null without one. */
    public static void write(JsonGenerator g, StreamDefinition d) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", d.name());
        g.writeObjectFieldStart("fields");
        for (Field f : d.schema().fields()) {
            g.writeStringField(f.name(), f.type().jsonName());
        }
        g.writeEndObject();
        g.writeStringField("eventId", d.eventIdField());
        g.writeStringField("timestamp", d.timestampField());
        g.writeArrayFieldStart("partitioners");
        for (String p : d.partitioners()) {
            g.writeString(p);
        }
        g.writeEndArray();
        g.writeNumberField("partitions", d.partitions());
        g.writeStringField("lateness", Durations.format(d.latenessMs()));
        g.writeStringField("lateEvents", d.lateEvents().name().toLowerCase(Locale.ROOT));
        g.writeStringField("retention", Durations.format(d.retentionMs()));
        if (d.inputRetentionMs() != StreamDefinition.INPUT_RETENTION_NODE_DEFAULT) {
            g.writeStringField("inputRetention", formatInputRetention(d.inputRetentionMs()));
        }
        g.writeEndObject();
    }

    /** Writes {@code {"streams": [...]}} for {@code GET /v1/streams}. */
    public static void writeList(JsonGenerator g, List<StreamDefinition> streams) throws IOException {
        g.writeStartObject();
        g.writeArrayFieldStart("streams");
        for (StreamDefinition d : streams) {
            write(g, d);
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static Map<String, FieldType> fields(JsonNode node) {
        if (node == null || node.isNull()) {
            throw invalid("\"fields\" is missing; declare the fields as an object of name to type, like "
                    + "{\"id\": \"string\", \"amount\": \"double\"} (types: " + TYPE_LIST + ")");
        }
        if (!node.isObject() || node.isEmpty()) {
            throw invalid("\"fields\" must be a non-empty object of name to type, like {\"id\": \"string\", "
                    + "\"amount\": \"double\"} (types: " + TYPE_LIST + ")");
        }
        if (node.size() > MAX_FIELDS) {
            throw invalid("a stream has at most " + MAX_FIELDS + " fields; this one declares " + node.size());
        }
        Map<String, FieldType> fields = new LinkedHashMap<>();
        Map<String, String> lowerCased = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : node.properties()) {
            String field = e.getKey();
            checkFieldName(field);
            String previous = lowerCased.put(field.toLowerCase(Locale.ROOT), field);
            if (previous != null) {
                throw invalid("fields '" + previous + "' and '" + field + "' differ only in case; field names are "
                        + "case-insensitive, rename one");
            }
            fields.put(field, fieldType(field, e.getValue()));
        }
        return fields;
    }

    private static void checkFieldName(String field) {
        if (field.isEmpty() || field.length() > 100 || field.chars().anyMatch(Character::isISOControl)) {
            throw ApiException.badRequest("invalid_field_name", "field name \"" + field + "\" is not valid: use 1-100 "
                    + "characters without control characters (names other than letters, digits and _ must be "
                    + "written \"quoted\" in queries)");
        }
    }

    private static FieldType fieldType(String field, JsonNode type) {
        if (type.isTextual()) {
            String t = type.asText().toLowerCase(Locale.ROOT);
            for (FieldType ft : FieldType.values()) {
                if (ft.jsonName().equals(t)) {
                    return ft;
                }
            }
        }
        String didYouMean = type.isTextual() ? Suggestions.didYouMean(type.asText(), TYPES) : "";
        throw ApiException.badRequest("invalid_field_type", "field '" + field + "' has unknown type " + type
                + "; " + didYouMean + "the valid types are " + TYPE_LIST);
    }

    /** A reference to a field; null when optional and absent or null. */
    private static String fieldRef(JsonNode root, String key, Schema schema, boolean required) {
        JsonNode node = root.get(key);
        if (node == null || node.isNull()) {
            if (required) {
                throw invalid("\"" + key + "\" is missing; name the field that identifies an event, e.g. \"" + key
                        + "\": \"" + schema.field(0).name() + "\"");
            }
            return null;
        }
        if (!node.isTextual()) {
            throw invalid("\"" + key + "\" must be the name of a field (a string), not " + node);
        }
        Field f = schema.field(node.asText());
        if (f == null) {
            throw unknownField("\"" + key + "\"", node.asText(), schema);
        }
        return f.name();
    }

    private static List<String> partitioners(JsonNode node, Schema schema) {
        if (node == null || node.isNull()) {
            throw invalid("\"partitioners\" is missing; list the top-level group-by fields events are routed by, "
                    + "e.g. \"partitioners\": [\"" + schema.field(0).name() + "\"]");
        }
        if (!node.isArray() || node.isEmpty()) {
            throw invalid("\"partitioners\" must be a non-empty array of field names, e.g. [\""
                    + schema.field(0).name() + "\"]");
        }
        List<String> names = new ArrayList<>();
        for (JsonNode p : node) {
            if (!p.isTextual()) {
                throw invalid("\"partitioners\" must hold field names (strings), not " + p);
            }
            Field f = schema.field(p.asText());
            if (f == null) {
                throw unknownField("partitioner", p.asText(), schema);
            }
            if (names.contains(f.name())) {
                throw invalid("partitioner '" + f.name() + "' is listed twice; list each field once");
            }
            names.add(f.name());
        }
        return names;
    }

    private static int partitions(JsonNode node) {
        if (node == null || node.isNull()) {
            return 1;
        }
        if (!node.isNumber() || !node.canConvertToExactIntegral() || node.asDouble() < 1 || node.asDouble() > MAX_PARTITIONS) {
            throw invalid("\"partitions\" must be a whole number from 1 to " + MAX_PARTITIONS + ", not " + node);
        }
        return node.asInt();
    }

    private static long duration(JsonNode root, String key) {
        JsonNode node = root.get(key);
        if (node == null || node.isNull()) {
            return 0;
        }
        if (node.isNumber()) {
            if (!node.canConvertToExactIntegral() || !node.canConvertToLong() || node.asLong() < 0) {
                throw invalid("\"" + key + "\" must not be negative or fractional: " + node + "; " + Durations.FORMAT_HINT);
            }
            return node.asLong();
        }
        if (!node.isTextual()) {
            throw invalid("\"" + key + "\" must be a duration, not " + node + "; " + Durations.FORMAT_HINT);
        }
        try {
            return Durations.parseMs(node.asText());
        } catch (IllegalArgumentException e) {
            throw invalid("\"" + key + "\": " + e.getMessage());
        }
    }

    /**
     * {@code "inputRetention"}: absent or null is the node's default; {@code "forever"}, or a duration of
     * at least {@link #MIN_INPUT_RETENTION_MS}.
     *
     * @throws ApiException 400 {@code invalid_input_retention}
     */
    static long inputRetention(JsonNode node) {
        if (node == null || node.isNull()) {
            return StreamDefinition.INPUT_RETENTION_NODE_DEFAULT;
        }
        String hint = "; \"inputRetention\" is how long Kafka keeps the stream's input events: \"forever\" or a"
                + " duration of at least 1m, like \"7d\" (leave it out for the node's --input-retention)";
        if (node.isTextual() && node.asText().strip().equalsIgnoreCase("forever")) {
            return StreamDefinition.INPUT_RETENTION_FOREVER;
        }
        long ms;
        if (node.isTextual()) {
            try {
                ms = Durations.parseMs(node.asText());
            } catch (IllegalArgumentException e) {
                throw ApiException.badRequest("invalid_input_retention", "\"inputRetention\": " + e.getMessage() + hint);
            }
        } else if (node.isNumber() && node.canConvertToExactIntegral() && node.canConvertToLong()) {
            ms = node.asLong();
        } else {
            throw ApiException.badRequest("invalid_input_retention", "\"inputRetention\" is " + node + hint);
        }
        if (ms < MIN_INPUT_RETENTION_MS) {
            throw ApiException.badRequest("invalid_input_retention", "\"inputRetention\" " + node + " is shorter than"
                    + " 1m" + hint);
        }
        return ms;
    }

    /** {@code forever} or a duration such as {@code 7d}. */
    static String formatInputRetention(long ms) {
        return ms == StreamDefinition.INPUT_RETENTION_FOREVER ? "forever" : Durations.format(ms);
    }

    private static LateEventPolicy lateEvents(JsonNode node) {
        if (node == null || node.isNull()) {
            return LateEventPolicy.DROP;
        }
        if (node.isTextual()) {
            switch (node.asText().toLowerCase(Locale.ROOT)) {
                case "drop":
                    return LateEventPolicy.DROP;
                case "rewrite":
                    return LateEventPolicy.REWRITE;
                default:
                    break;
            }
        }
        throw invalid("\"lateEvents\" must be \"drop\" (late events are not counted) or \"rewrite\" (counted at the "
                + "partition's stream time minus lateness), not " + node);
    }

    private static ApiException unknownField(String what, String name, Schema schema) {
        List<String> all = new ArrayList<>();
        for (Field f : schema.fields()) {
            all.add(f.name());
        }
        return ApiException.badRequest("unknown_field", what + " '" + name + "' is not a field of the stream; "
                + Suggestions.didYouMean(name, all) + "declare it in \"fields\" or use one of: " + String.join(", ", all));
    }

    private static ApiException invalid(String message) {
        return ApiException.badRequest("invalid_stream", message);
    }
}
