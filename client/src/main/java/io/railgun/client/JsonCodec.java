package io.railgun.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON shapes of SPEC §3, both ways. Numbers are read as the SPEC types them: JSON integers as
 * {@link Long}, numbers with a fraction or exponent as {@link Double} (so a double metric the node
 * writes as {@code 12.0} stays a Double), never Integer or BigDecimal; objects keep their key order.
 * Stateless and thread-safe.
 */
final class JsonCodec {
    static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(DeserializationFeature.USE_LONG_FOR_INTS)
            .disable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            // an event's ISO-8601 timestamp may be given as an Instant
            .addModule(new SimpleModule("railgun-client").addSerializer(Instant.class, ToStringSerializer.instance))
            .build();

    private JsonCodec() {}

    /** A reply whose JSON is not the shape SPEC §3 gives it. */
    static final class ShapeException extends IOException {
        ShapeException(String message) {
            super(message);
        }
    }

    static JsonNode readTree(byte[] body) throws IOException {
        if (body.length == 0) {
            throw new ShapeException("empty body");
        }
        return MAPPER.readTree(body);
    }

    static byte[] write(Object value) {
        try {
            return MAPPER.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write as JSON: " + e.getOriginalMessage(), e);
        }
    }

    // --- requests --------------------------------------------------------------------------

    /** The body of {@code PUT /v1/streams/{stream}}, attributes in the SPEC's order, unset ones left out. */
    static byte[] streamSpec(StreamSpec spec) {
        ObjectNode root = MAPPER.createObjectNode();
        ObjectNode fields = root.putObject("fields");
        spec.fields().forEach((name, type) -> fields.put(name, type.jsonName()));
        root.put("eventId", spec.eventId());
        if (spec.timestamp() != null) {
            root.put("timestamp", spec.timestamp());
        }
        ArrayNode partitioners = root.putArray("partitioners");
        spec.partitioners().forEach(partitioners::add);
        if (spec.partitions() > 0) {
            root.put("partitions", spec.partitions());
        }
        if (spec.lateness() != null) {
            root.put("lateness", spec.lateness());
        }
        if (spec.lateEvents() != null) {
            root.put("lateEvents", spec.lateEvents().jsonName());
        }
        if (spec.retention() != null) {
            root.put("retention", spec.retention());
        }
        if (spec.inputRetention() != null) {
            root.put("inputRetention", spec.inputRetention());
        }
        return write(root);
    }

    /** The body of {@code POST /v1/streams/{stream}/metrics}; {@code backfill} null leaves it out. */
    static byte[] metricsRequest(String query, Boolean backfill) {
        ObjectNode root = MAPPER.createObjectNode();
        root.put("query", query);
        if (backfill != null) {
            root.put("backfill", backfill);
        }
        return write(root);
    }

    // --- replies ---------------------------------------------------------------------------

    static StreamSpec streamSpec(JsonNode node) throws ShapeException {
        requireObject(node, "stream");
        JsonNode fieldsNode = node.get("fields");
        requireObject(fieldsNode, "fields");
        LinkedHashMap<String, FieldType> fields = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> field : fieldsNode.properties()) {
            fields.put(field.getKey(), FieldType.fromJson(text(field.getValue(), "type of field " + field.getKey())));
        }
        String eventId = text(node.get("eventId"), "eventId");
        if (eventId == null) {
            throw new ShapeException("stream has no eventId");
        }
        JsonNode lateEvents = node.get("lateEvents");
        try {
            return new StreamSpec(fields, eventId, text(node.get("timestamp"), "timestamp"),
                    strings(node.get("partitioners"), "partitioners"), (int) integer(node.get("partitions"), "partitions"),
                    duration(node.get("lateness"), "lateness"),
                    lateEvents == null || lateEvents.isNull() ? null : LateEvents.fromJson(text(lateEvents, "lateEvents")),
                    duration(node.get("retention"), "retention"), duration(node.get("inputRetention"), "inputRetention"));
        } catch (IllegalArgumentException e) {
            throw new ShapeException(e.getMessage());
        }
    }

    /** {@code {"streams": [{"name": ..., <stream spec>}, ...]}} → name → spec, in the node's order. */
    static Map<String, StreamSpec> streams(JsonNode root) throws ShapeException {
        JsonNode array = member(root, "streams");
        requireArray(array, "streams");
        LinkedHashMap<String, StreamSpec> streams = new LinkedHashMap<>();
        for (JsonNode stream : array) {
            String name = text(member(stream, "name"), "name");
            if (name == null) {
                throw new ShapeException("a stream of the list has no name");
            }
            streams.put(name, streamSpec(stream));
        }
        return streams;
    }

    /** {@code {"metrics": ["a", "b"]}}. */
    static List<String> metricNames(JsonNode root) throws ShapeException {
        return strings(member(root, "metrics"), "metrics");
    }

    /** {@code {"metrics": [{"name": ..., "statement": ..., "partitioner": ..., "groupBy": [...]}, ...]}}. */
    static List<MetricInfo> metricInfos(JsonNode root) throws ShapeException {
        JsonNode array = member(root, "metrics");
        requireArray(array, "metrics");
        List<MetricInfo> metrics = new ArrayList<>(array.size());
        for (JsonNode metric : array) {
            String name = text(member(metric, "name"), "name");
            if (name == null) {
                throw new ShapeException("a metric of the list has no name");
            }
            JsonNode groupBy = metric.get("groupBy");
            metrics.add(new MetricInfo(name, text(metric.get("statement"), "statement"),
                    text(metric.get("partitioner"), "partitioner"),
                    groupBy == null || groupBy.isNull() ? List.of() : strings(groupBy, "groupBy")));
        }
        return metrics;
    }

    static EventReply eventReply(JsonNode node) throws ShapeException {
        requireObject(node, "event reply");
        JsonNode error = node.get("error");
        if (error != null && error.isObject()) {
            // a batch may answer one of its events with an error object instead of a reply
            throw new ShapeException("an event was refused: " + error);
        }
        JsonNode id = node.get("eventId");
        String eventId = id == null || id.isNull() ? null : id.isValueNode() ? id.asText() : id.toString();
        JsonNode metrics = node.get("metrics");
        Map<String, Object> values = metrics == null || metrics.isNull() ? Map.of() : object(metrics, "metrics");
        JsonNode duplicate = node.get("duplicate");
        JsonNode dropped = node.get("dropped");
        return new EventReply(eventId, values, duplicate != null && duplicate.asBoolean(false),
                dropped != null && "late".equals(dropped.asText()));
    }

    static List<EventReply> eventReplies(JsonNode root) throws ShapeException {
        requireArray(root, "batch reply");
        List<EventReply> replies = new ArrayList<>(root.size());
        for (JsonNode reply : root) {
            replies.add(eventReply(reply));
        }
        return replies;
    }

    static PointRead pointRead(JsonNode node, String metric, Map<String, ?> key) throws ShapeException {
        requireObject(node, "point read");
        String name = text(node.get("metric"), "metric");
        JsonNode keyNode = node.get("key");
        Map<String, Object> readKey = keyNode == null || keyNode.isNull() ? new LinkedHashMap<>(key) : object(keyNode, "key");
        JsonNode streamTime = node.get("streamTime");
        return new PointRead(name == null ? metric : name, readKey, value(node.get("value")),
                streamTime == null || streamTime.isNull() ? null : integer(streamTime, "streamTime"));
    }

    /** The error object of SPEC §3, {@code {"error": {"code": ..., "message": ...}}}. */
    record ErrorBody(String code, String message) {}

    /** The error object in {@code body}, or null when the body is not one. */
    static ErrorBody error(byte[] body) {
        try {
            JsonNode error = readTree(body).get("error");
            if (error == null || !error.isObject()) {
                return null;
            }
            JsonNode code = error.get("code");
            JsonNode message = error.get("message");
            if (code == null || !code.isTextual()) {
                return null;
            }
            return new ErrorBody(code.asText(), message != null && message.isTextual() ? message.asText() : code.asText());
        } catch (IOException e) {
            return null;
        }
    }

    /** JSON → Long, Double, BigInteger (beyond 64 bits), String, Boolean, null, ordered Map or List. */
    static Object value(JsonNode node) {
        if (node == null || node.isNull() || node.isMissingNode()) {
            return null;
        }
        if (node.isIntegralNumber()) {
            return node.canConvertToLong() ? (Object) node.longValue() : node.bigIntegerValue();
        }
        if (node.isNumber()) {
            return node.doubleValue();
        }
        if (node.isTextual()) {
            return node.textValue();
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isArray()) {
            List<Object> list = new ArrayList<>(node.size());
            node.forEach(element -> list.add(value(element)));
            return list;
        }
        if (node.isObject()) {
            LinkedHashMap<String, Object> map = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> entry : node.properties()) {
                map.put(entry.getKey(), value(entry.getValue()));
            }
            return map;
        }
        return node.asText();
    }

    static String excerpt(byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8).strip();
        return text.length() <= 500 ? text : text.substring(0, 500) + "...";
    }

    private static Map<String, Object> object(JsonNode node, String what) throws ShapeException {
        requireObject(node, what);
        @SuppressWarnings("unchecked")
        Map<String, Object> map = (Map<String, Object>) value(node);
        return map;
    }

    private static JsonNode member(JsonNode node, String name) throws ShapeException {
        requireObject(node, "reply");
        JsonNode member = node.get(name);
        if (member == null) {
            throw new ShapeException("no \"" + name + "\" in " + node);
        }
        return member;
    }

    private static String text(JsonNode node, String what) throws ShapeException {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isTextual()) {
            throw new ShapeException(what + " is not a string: " + node);
        }
        return node.textValue();
    }

    private static long integer(JsonNode node, String what) throws ShapeException {
        if (node == null || node.isNull()) {
            return 0;
        }
        if (!node.isIntegralNumber() || !node.canConvertToLong()) {
            throw new ShapeException(what + " is not an integer: " + node);
        }
        return node.longValue();
    }

    /** A duration as the node writes it; a bare number is taken as milliseconds. */
    private static String duration(JsonNode node, String what) throws ShapeException {
        if (node != null && node.isIntegralNumber()) {
            return node.longValue() + "ms";
        }
        return text(node, what);
    }

    private static List<String> strings(JsonNode node, String what) throws ShapeException {
        requireArray(node, what);
        List<String> strings = new ArrayList<>(node.size());
        for (JsonNode element : node) {
            String text = text(element, what + " element");
            if (text == null) {
                throw new ShapeException(what + " has a null element");
            }
            strings.add(text);
        }
        return strings;
    }

    private static void requireObject(JsonNode node, String what) throws ShapeException {
        if (node == null || !node.isObject()) {
            throw new ShapeException(what + " is not a JSON object: " + node);
        }
    }

    private static void requireArray(JsonNode node, String what) throws ShapeException {
        if (node == null || !node.isArray()) {
            throw new ShapeException(what + " is not a JSON array: " + node);
        }
    }
}
