package io.railgun.node.http;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.event.EventTime;
import io.railgun.engine.schema.Field;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.node.frontend.ApiException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Converts JSON events (SPEC §3.3) into binary rows of their stream's schema, through one reused
 * {@link EventRowWriter}.
 *
 * <p>Type rules, per declared field type (every field is nullable: JSON {@code null} or an absent
 * key is NULL):
 * <ul>
 *   <li>{@code string}: a JSON string (a number is refused: quote it);
 *   <li>{@code long}: an integer in the 64-bit range; a decimal number is accepted only when it is
 *       whole ({@code 3.0}, {@code 1e3}: many JSON writers print whole doubles that way), {@code 1.5}
 *       is refused;
 *   <li>{@code timestamp}: epoch milliseconds as for {@code long}, or an ISO-8601 string in one of
 *       the forms of {@link IsoTimestamps} ({@code "2024-01-01T10:00:00Z"},
 *       {@code "2024-01-01T12:00:00.5+02:00"}; without an offset UTC); sub-millisecond digits are
 *       truncated (towards the past);
 *   <li>{@code double}: any finite JSON number (one beyond ±1.8e308 is refused);
 *   <li>{@code boolean}: {@code true} or {@code false}.
 * </ul>
 * Nested objects and arrays are refused; so are unknown keys ({@code unknown_field}), a key given
 * twice (also when only its case differs: field names are case-insensitive), a missing or null
 * event id ({@code missing_event_id}) and, when the stream has an event-time field, a missing or null
 * timestamp ({@code missing_timestamp}), or one outside the accepted range of event times
 * ({@code timestamp_out_of_range}, {@link EventTime}: years 0001 to 9999). Messages start with the path of the value:
 * {@code amount: ...} for one event, {@code events[3].amount: ...} in a batch.
 *
 * <p>One pass: the body is checked to be strict UTF-8 ({@link Utf8}), then parsed straight into
 * rows, checking syntax, shape and types on the way; a batch over its size limit is refused as soon
 * as its limit is passed.
 *
 * <p>Not thread-safe: the HTTP layer pools instances, one request at a time each.
 */
final class EventJson {
    /** Events are parsed without Jackson's duplicate detection: {@link #seen} does it, case-insensitively. */
    static final JsonFactory FACTORY = JsonFactory.builder().recyclerPool(Json.BUFFERS).build();
    private static final BigDecimal LONG_MIN = BigDecimal.valueOf(Long.MIN_VALUE);
    private static final BigDecimal LONG_MAX = BigDecimal.valueOf(Long.MAX_VALUE);

    private final EventRowWriter writer = new EventRowWriter();
    private final CharSlice chars = new CharSlice();
    private Schema schema;
    private final Map<String, Field> byExactName = new HashMap<>();
    private long[] seen = new long[1];
    private int eventIdIndex;
    private int timestampIndex;
    private int batchIndex;

    /** The writer holding the last row written by {@link #readEvent}. */
    EventRowWriter writer() {
        return writer;
    }

    /**
     * Converts a body holding one event into a row in {@link #writer()}, in one pass: syntax, shape
     * and types are checked as the row is written.
     *
     * @return the row's length
     * @throws ApiException 400 {@code invalid_json}, {@code invalid_utf8}, {@code invalid_event} or a
     *                      field's error
     */
    int readEvent(StreamDefinition stream, byte[] body, int length) {
        if (Json.isBlank(body, length)) {
            throw ApiException.badRequest("invalid_json", "the request body is empty; send one event as a JSON object, "
                    + "like {\"id\": \"e1\", \"amount\": 12.5}");
        }
        try (JsonParser p = parser(body, length)) {
            JsonToken t = p.nextToken();
            if (t != JsonToken.START_OBJECT) {
                skimRest(p);
                String hint = t == JsonToken.START_ARRAY ? " (to send several events, POST the array to .../events:batch)" : "";
                throw ApiException.badRequest("invalid_event", "expected one event as a JSON object, got "
                        + Json.describe(t) + hint);
            }
            batchIndex = -1;
            int rowLength = writeObject(p, stream);
            if (p.nextToken() != null) {
                throw Json.trailing(p);
            }
            return rowLength;
        } catch (JsonProcessingException e) {
            throw Json.malformed(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Converts a body holding a JSON array of events into one row per event (each its own array, as
     * {@code FrontEnd.sendBatch} takes them), in one pass. All or nothing: the first invalid event
     * throws, naming its index.
     *
     * @throws ApiException 400 as {@link #readEvent}, or {@code invalid_batch}; 413
     *                      {@code batch_too_large} beyond {@code maxEvents}
     */
    List<byte[]> readBatch(StreamDefinition stream, byte[] body, int length, int maxEvents) {
        if (Json.isBlank(body, length)) {
            throw ApiException.badRequest("invalid_json", "the request body is empty; send a JSON array of events, "
                    + "like [{\"id\": \"e1\", \"amount\": 12.5}, {\"id\": \"e2\", \"amount\": 3}]");
        }
        try (JsonParser p = parser(body, length)) {
            JsonToken t = p.nextToken();
            if (t != JsonToken.START_ARRAY) {
                skimRest(p);
                String hint = t == JsonToken.START_OBJECT ? " (to send one event, POST the object to .../events)" : "";
                throw ApiException.badRequest("invalid_batch", "expected a JSON array of events, got " + Json.describe(t) + hint);
            }
            List<byte[]> rows = new ArrayList<>();
            batchIndex = 0;
            while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                if (t != JsonToken.START_OBJECT) {
                    skimRest(p);
                    throw ApiException.badRequest("invalid_event", "events[" + batchIndex + "]: expected an event as a JSON "
                            + "object, got " + Json.describe(t));
                }
                if (batchIndex >= maxEvents) {
                    throw new ApiException(413, "batch_too_large", "a batch holds at most " + maxEvents
                            + " events; split it into several requests");
                }
                int rowLength = writeObject(p, stream);
                rows.add(Arrays.copyOf(writer.buffer(), rowLength));
                batchIndex++;
            }
            if (p.nextToken() != null) {
                throw Json.trailing(p);
            }
            return rows;
        } catch (JsonProcessingException e) {
            throw Json.malformed(e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads to the end, so a syntax error further on is reported before a shape error (invalid_json first). */
    private static void skimRest(JsonParser p) throws IOException {
        p.skipChildren();
        while (p.nextToken() != null) {
            p.skipChildren();
        }
    }

    /** Writes the object the parser is at (START_OBJECT) and leaves it at the END_OBJECT. */
    private int writeObject(JsonParser p, StreamDefinition stream) throws IOException {
        prepare(stream);
        writer.begin(schema);
        Arrays.fill(seen, 0L);
        boolean hasEventId = false;
        boolean hasTimestamp = false;
        String name;
        while ((name = p.nextFieldName()) != null) {
            Field f = byExactName.get(name);
            if (f == null) {
                f = schema.field(name);
                if (f == null) {
                    throw unknownField(stream, name);
                }
            }
            int i = f.index();
            if ((seen[i >>> 6] & (1L << i)) != 0) {
                throw ApiException.badRequest("duplicate_field", path(name) + ": field '" + f.name()
                        + "' is given twice (names are case-insensitive); give each field once");
            }
            seen[i >>> 6] |= 1L << i;
            JsonToken t = p.nextToken();
            if (t == JsonToken.VALUE_NULL) {
                continue; // begin() left every field null
            }
            writeValue(p, t, f, name);
            if (i == eventIdIndex) {
                hasEventId = true;
            } else if (i == timestampIndex) {
                hasTimestamp = true;
            }
        }
        if (!hasEventId) {
            throw ApiException.badRequest("missing_event_id", path(stream.eventIdField()) + ": the event id is missing or "
                    + "null; every event needs its '" + stream.eventIdField() + "' (duplicates are detected by it)");
        }
        if (timestampIndex >= 0 && !hasTimestamp) {
            throw ApiException.badRequest("missing_timestamp", path(stream.timestampField()) + ": the event time is "
                    + "missing or null; give '" + stream.timestampField() + "' as epoch milliseconds or an ISO-8601 "
                    + "string like \"2024-01-01T10:00:00Z\"");
        }
        return writer.finish();
    }

    private void writeValue(JsonParser p, JsonToken t, Field f, String name) throws IOException {
        if (t == JsonToken.START_OBJECT || t == JsonToken.START_ARRAY) {
            throw mismatch(name, f, t, "; nested objects and arrays are not supported");
        }
        int i = f.index();
        switch (f.type()) {
            case STRING -> {
                if (t != JsonToken.VALUE_STRING) {
                    throw mismatch(name, f, t, t.isNumeric() ? " (quote it: \"" + p.getText() + "\")" : "");
                }
                writer.setString(i, chars.wrap(p.getTextCharacters(), p.getTextOffset(), p.getTextLength()));
            }
            case LONG -> writer.setLong(i, integral(p, t, f, name));
            case TIMESTAMP -> {
                long ms = t == JsonToken.VALUE_STRING ? isoMillis(p.getText(), name) : integral(p, t, f, name);
                if (i == timestampIndex && !EventTime.accepted(ms)) {
                    throw ApiException.badRequest(EventTime.ERROR_CODE, path(name) + ": " + EventTime.refusal(f.name(), ms));
                }
                writer.setLong(i, ms);
            }
            case DOUBLE -> {
                if (!t.isNumeric()) {
                    throw mismatch(name, f, t, "");
                }
                double v = p.getDoubleValue();
                if (!Double.isFinite(v)) {
                    throw invalid(name, p.getText() + " is out of range for a double (about ±1.8e308)");
                }
                writer.setDouble(i, v);
            }
            case BOOLEAN -> {
                if (t != JsonToken.VALUE_TRUE && t != JsonToken.VALUE_FALSE) {
                    throw mismatch(name, f, t, "");
                }
                writer.setBoolean(i, t == JsonToken.VALUE_TRUE);
            }
        }
    }

    private long integral(JsonParser p, JsonToken t, Field f, String name) throws IOException {
        if (t == JsonToken.VALUE_NUMBER_INT) {
            if (p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
                throw outOfRange(p.getText(), name);
            }
            return p.getLongValue();
        }
        if (t == JsonToken.VALUE_NUMBER_FLOAT) {
            BigDecimal d = p.getDecimalValue();
            if (d.compareTo(LONG_MIN) < 0 || d.compareTo(LONG_MAX) > 0) {
                throw outOfRange(p.getText(), name);
            }
            if (d.signum() != 0 && d.stripTrailingZeros().scale() > 0) {
                throw invalid(name, p.getText() + " is not a whole number; " + f.type().jsonName() + " field '"
                        + f.name() + "' takes integers");
            }
            return d.longValueExact();
        }
        String extra = f.type() == FieldType.TIMESTAMP ? " (epoch milliseconds) or an ISO-8601 string" : "";
        throw invalid(name, "expected an integer" + extra + " for " + f.type().jsonName() + " field '" + f.name()
                + "', got " + Json.describe(t));
    }

    /** An ISO-8601 timestamp in one of the forms of {@link IsoTimestamps}. */
    private long isoMillis(String text, String name) {
        try {
            return IsoTimestamps.parseMillis(text);
        } catch (DateTimeParseException e) {
            throw invalid(name, "\"" + text + "\" is not an ISO-8601 timestamp; write " + IsoTimestamps.FORMS);
        } catch (ArithmeticException e) {
            throw invalid(name, "\"" + text + "\" is out of range for epoch milliseconds");
        }
    }

    private void prepare(StreamDefinition stream) {
        if (stream.schema() == schema) {
            return;
        }
        schema = stream.schema();
        byExactName.clear();
        for (Field f : schema.fields()) {
            byExactName.put(f.name(), f);
        }
        seen = new long[(schema.size() + 63) >>> 6];
        eventIdIndex = schema.field(stream.eventIdField()).index();
        timestampIndex = stream.timestampField() == null ? -1 : schema.field(stream.timestampField()).index();
    }

    private String path(String field) {
        return batchIndex < 0 ? field : "events[" + batchIndex + "]." + field;
    }

    private ApiException unknownField(StreamDefinition stream, String name) {
        List<String> names = new ArrayList<>();
        for (Field f : schema.fields()) {
            names.add(f.name());
        }
        return ApiException.badRequest("unknown_field", path(name) + ": stream '" + stream.name() + "' has no field '"
                + name + "'; " + Suggestions.didYouMean(name, names) + "its fields are " + String.join(", ", names)
                + " (add new fields with PUT /v1/streams/" + stream.name() + ")");
    }

    private ApiException mismatch(String name, Field f, JsonToken t, String hint) {
        String expected = switch (f.type()) {
            case STRING -> "a string";
            case LONG -> "an integer";
            case TIMESTAMP -> "epoch milliseconds or an ISO-8601 string";
            case DOUBLE -> "a number";
            case BOOLEAN -> "true or false";
        };
        return invalid(name, "expected " + expected + " for " + f.type().jsonName() + " field '" + f.name() + "', got "
                + Json.describe(t) + hint);
    }

    private ApiException outOfRange(String number, String name) {
        return invalid(name, number + " is out of range for a 64-bit integer (" + Long.MIN_VALUE + " to "
                + Long.MAX_VALUE + ")");
    }

    private ApiException invalid(String name, String message) {
        return ApiException.badRequest("invalid_value", path(name) + ": " + message);
    }

    private static JsonParser parser(byte[] body, int length) {
        try {
            Utf8.check(body, length);
            return FACTORY.createParser(body, 0, length);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
