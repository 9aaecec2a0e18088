package io.railgun.node.http;

import com.fasterxml.jackson.core.JsonGenerator;
import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.schema.Field;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.node.frontend.ApiException;
import io.railgun.node.frontend.MetricInfo;
import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * The key of a point read (SPEC §3.4), from the query string: one parameter per GROUP BY field of the
 * metric, converted by the field's type ({@code ?card=c1&mcc=5411}). Names match fields
 * case-insensitively; values are percent-decoded ({@code +} is a space). A parameter without
 * {@code =} ({@code ?card}) asks for the NULL key; {@code ?card=} is the empty string (for other
 * types, an error). Numbers follow JSON's syntax; a timestamp is epoch milliseconds or ISO-8601;
 * a boolean is {@code true} or {@code false}. Missing, unknown or repeated parameters are 400s.
 * Immutable once parsed.
 */
final class PointReadKey {
    private static final Pattern INTEGER = Pattern.compile("-?\\d+");
    private static final String TIMESTAMP_FORMS = IsoTimestamps.FORMS.replace("as a number, ", "");
    private static final Pattern JSON_NUMBER = Pattern.compile("-?(?:0|[1-9]\\d*)(?:\\.\\d+)?(?:[eE][+-]?\\d+)?");
    private final StreamDefinition stream;
    private final Field[] fields;
    private final Object[] values;

    private PointReadKey(StreamDefinition stream, Field[] fields, Object[] values) {
        this.stream = stream;
        this.fields = fields;
        this.values = values;
    }

    /**
     * @param rawQuery the request's raw (still encoded) query string, or null
     * @throws ApiException 400 naming the parameters the metric needs
     */
    static PointReadKey parse(StreamDefinition stream, MetricInfo metric, String rawQuery) {
        int n = metric.groupBy().size();
        Field[] fields = new Field[n];
        for (int i = 0; i < n; i++) {
            fields[i] = stream.schema().field(metric.groupBy().get(i));
            if (fields[i] == null) {
                throw new IllegalStateException("metric " + metric.name() + " groups by " + metric.groupBy().get(i)
                        + ", not a field of stream " + stream.name());
            }
        }
        Object[] values = new Object[n];
        boolean[] given = new boolean[n];
        if (rawQuery != null) {
            for (String pair : rawQuery.split("&")) {
                if (pair.isEmpty()) {
                    continue;
                }
                int eq = pair.indexOf('=');
                String name = decode(eq < 0 ? pair : pair.substring(0, eq));
                String value = eq < 0 ? null : decode(pair.substring(eq + 1));
                int i = indexOf(fields, name);
                if (i < 0) {
                    throw ApiException.badRequest("unknown_parameter", "parameter '" + name + "' is not a GROUP BY field of "
                            + "metric '" + metric.name() + "'; " + needs(metric, fields));
                }
                if (given[i]) {
                    throw ApiException.badRequest("duplicate_parameter", "parameter '" + name + "' is given twice; give "
                            + "each GROUP BY field once");
                }
                given[i] = true;
                values[i] = value == null ? null : convert(fields[i], value);
            }
        }
        List<String> missing = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            if (!given[i]) {
                missing.add(fields[i].name());
            }
        }
        if (!missing.isEmpty()) {
            throw ApiException.badRequest("missing_key", "missing " + String.join(", ", missing) + ": " + needs(metric, fields));
        }
        return new PointReadKey(stream, fields, values);
    }

    /** The key as a row of the stream's schema: the GROUP BY fields set, every other field null. */
    byte[] row() {
        EventRowWriter w = new EventRowWriter().begin(stream.schema());
        for (int i = 0; i < fields.length; i++) {
            Object v = values[i];
            int f = fields[i].index();
            switch (v) {
                case null -> w.setNull(f);
                case String s -> w.setString(f, s);
                case Long l -> w.setLong(f, l);
                case Double d -> w.setDouble(f, d);
                case Boolean b -> w.setBoolean(f, b);
                default -> throw new IllegalStateException("unexpected key value " + v);
            }
        }
        int length = w.finish();
        return Arrays.copyOf(w.buffer(), length);
    }

    /** The typed key, {@code {"card": "c1", "mcc": 5411}}, in GROUP BY order. */
    void write(JsonGenerator g) throws IOException {
        g.writeStartObject();
        for (int i = 0; i < fields.length; i++) {
            g.writeFieldName(fields[i].name());
            ReplyJson.writeValue(g, values[i]);
        }
        g.writeEndObject();
    }

    private static Object convert(Field f, String value) {
        return switch (f.type()) {
            case STRING -> value;
            case LONG -> parseLong(f, value);
            case TIMESTAMP -> INTEGER.matcher(value).matches() ? parseLong(f, value) : parseInstant(f, value);
            case DOUBLE -> {
                if (!JSON_NUMBER.matcher(value).matches()) {
                    throw badValue(f, value, "a number like 12.5");
                }
                double d = Double.parseDouble(value);
                if (!Double.isFinite(d)) {
                    throw badValue(f, value, "a number within ±1.8e308");
                }
                yield d;
            }
            case BOOLEAN -> switch (value.toLowerCase(Locale.ROOT)) {
                case "true" -> Boolean.TRUE;
                case "false" -> Boolean.FALSE;
                default -> throw badValue(f, value, "true or false");
            };
        };
    }

    private static Long parseLong(Field f, String value) {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw badValue(f, value, f.type() == FieldType.TIMESTAMP ? TIMESTAMP_FORMS : "an integer in the 64-bit range");
        }
    }

    /** The forms events take ({@link IsoTimestamps}). */
    private static Long parseInstant(Field f, String value) {
        try {
            return IsoTimestamps.parseMillis(value);
        } catch (DateTimeParseException | ArithmeticException e) {
            String hint = "";
            if (value.indexOf(' ') > 0) {
                try {
                    IsoTimestamps.parseMillis(value.replace(' ', '+'));
                    hint = "; in a query string '+' means a space: write the offset's + as %2B";
                } catch (DateTimeParseException | ArithmeticException notThat) {
                    // no: the space was meant
                }
            }
            throw badValue(f, value, TIMESTAMP_FORMS + hint);
        }
    }

    private static ApiException badValue(Field f, String value, String expected) {
        return ApiException.badRequest("invalid_value", "parameter '" + f.name() + "': '" + value + "' is not valid for "
                + f.type().jsonName() + " field '" + f.name() + "'; give " + expected);
    }

    private static String needs(MetricInfo metric, Field[] fields) {
        StringBuilder example = new StringBuilder();
        for (Field f : fields) {
            example.append(example.isEmpty() ? "?" : "&").append(f.name()).append("=...");
        }
        return "metric '" + metric.name() + "' is keyed by its GROUP BY fields, so give one parameter each: " + example;
    }

    private static int indexOf(Field[] fields, String name) {
        for (int i = 0; i < fields.length; i++) {
            if (fields[i].name().equalsIgnoreCase(name)) {
                return i;
            }
        }
        return -1;
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw ApiException.badRequest("invalid_query", "'" + s + "' in the query string is not valid percent-encoding; "
                    + "encode special characters as %XX (e.g. a space as %20)");
        }
    }
}
