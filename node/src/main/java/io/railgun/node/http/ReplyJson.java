package io.railgun.node.http;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import io.railgun.engine.reply.ReplyMetrics;
import io.railgun.engine.reply.StreamReply;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.node.frontend.ApiException;
import io.railgun.node.frontend.PointRead;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes replies (SPEC §3.3, §3.4):
 * <pre>{"eventId": "e1", "metrics": {"card_sum_5m": 12.5, "card_count_5m": 2}, "duplicate": true, "dropped": "late"}</pre>
 * {@code duplicate} and {@code dropped} appear only when true. Metrics keep the reply's order. A Long
 * is a JSON integer; a Double always has a fraction or exponent ({@code 12.0}, not {@code 12}), so it
 * reads back as a double; a non-finite double (an overflowing SUM) has no JSON form and is written
 * {@code null}. The event id is echoed in its field's type: a number for a long event id.
 * Stateless and thread-safe.
 */
final class ReplyJson {
    /** Metric names as quoted, escaped UTF-8, encoded once each (names are few and long-lived). */
    private static final ConcurrentHashMap<String, SerializedString> NAMES = new ConcurrentHashMap<>();
    private static final int MAX_CACHED_NAMES = 100_000;

    private ReplyJson() {}

    private static SerializedString name(String metric) {
        SerializedString s = NAMES.get(metric);
        if (s == null) {
            if (NAMES.size() >= MAX_CACHED_NAMES) {
                NAMES.clear(); // names of streams long deleted; the live ones come back at once
            }
            s = NAMES.computeIfAbsent(metric, SerializedString::new);
        }
        return s;
    }

    /** Whether {@code stream}'s event ids are echoed as JSON numbers (a long event-id field). */
    static boolean numericEventId(StreamDefinition stream) {
        return stream.schema().field(stream.eventIdField()).type().isIntegral();
    }

    /** The error object of SPEC §3: {@code {"error": {"code", "message"}}}. */
    static void writeError(JsonGenerator g, ApiException e) throws IOException {
        g.writeStartObject();
        g.writeObjectFieldStart("error");
        g.writeStringField("code", e.code());
        g.writeStringField("message", e.getMessage());
        g.writeEndObject();
        g.writeEndObject();
    }

    /** @param numericId {@link #numericEventId} of the event's stream */
    static void writeReply(JsonGenerator g, boolean numericId, StreamReply reply) throws IOException {
        g.writeStartObject();
        g.writeFieldName("eventId");
        writeEventId(g, numericId, reply.eventId());
        g.writeObjectFieldStart("metrics");
        if (reply.metrics() instanceof ReplyMetrics m) { // the merger's: read by index, no entry objects
            for (int i = 0; i < m.size(); i++) {
                g.writeFieldName(name(m.name(i)));
                writeValue(g, m.value(i));
            }
        } else {
            for (Map.Entry<String, Object> e : reply.metrics().entrySet()) {
                g.writeFieldName(name(e.getKey()));
                writeValue(g, e.getValue());
            }
        }
        g.writeEndObject();
        if (reply.duplicate()) {
            g.writeBooleanField("duplicate", true);
        }
        if (reply.droppedLate()) {
            g.writeStringField("dropped", "late");
        }
        g.writeEndObject();
    }

    static void writeReplies(JsonGenerator g, boolean numericId, List<StreamReply> replies) throws IOException {
        g.writeStartArray();
        for (StreamReply r : replies) {
            writeReply(g, numericId, r);
        }
        g.writeEndArray();
    }

    /** {@code {"metric": ..., "key": {...}, "value": ..., "streamTime": ...}}; the key is written by {@code key}. */
    static void writePointRead(JsonGenerator g, PointRead read, PointReadKey key) throws IOException {
        g.writeStartObject();
        g.writeStringField("metric", read.metric());
        g.writeFieldName("key");
        key.write(g);
        g.writeFieldName("value");
        writeValue(g, read.value());
        g.writeFieldName("streamTime");
        if (read.streamTime() == null) {
            g.writeNull();
        } else {
            g.writeNumber(read.streamTime().longValue());
        }
        g.writeEndObject();
    }

    /** A metric value: Long, Double, String, Boolean or null (other numbers by their kind). */
    static void writeValue(JsonGenerator g, Object value) throws IOException {
        switch (value) {
            case null -> g.writeNull();
            case Long l -> g.writeNumber(l.longValue());
            case Double d -> writeDouble(g, d);
            case String s -> g.writeString(s);
            case Boolean b -> g.writeBoolean(b);
            case Integer i -> g.writeNumber(i.intValue());
            case Float f -> writeDouble(g, f.doubleValue());
            case BigInteger bi -> g.writeNumber(bi);
            case BigDecimal bd -> g.writeNumber(bd);
            case Number n -> g.writeNumber(n.longValue());
            default -> g.writeString(value.toString());
        }
    }

    private static void writeDouble(JsonGenerator g, double d) throws IOException {
        if (Double.isFinite(d)) {
            g.writeNumber(d); // Double.toString: always "12.0" or "1.0E10", never a bare integer
        } else {
            g.writeNull();
        }
    }

    private static void writeEventId(JsonGenerator g, boolean numericId, String id) throws IOException {
        if (id != null && numericId) {
            try {
                g.writeNumber(Long.parseLong(id));
                return;
            } catch (NumberFormatException e) {
                // not a number after all: echo it as sent
            }
        }
        g.writeString(id);
    }
}
