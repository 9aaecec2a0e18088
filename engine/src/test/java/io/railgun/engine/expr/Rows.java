package io.railgun.engine.expr;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.query.Expr;
import io.railgun.engine.query.QueryException;
import io.railgun.engine.query.QueryParser;
import io.railgun.engine.schema.Field;
import io.railgun.engine.schema.FieldType;
import io.railgun.engine.schema.Schema;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/** Test fixture: a small schema, rows built from boxed values, and boxed results of evaluators. */
final class Rows {
    /** l, l2: LONG; d, d2: DOUBLE; s, s2: STRING; b, b2: BOOLEAN; t: TIMESTAMP. */
    static final Schema SCHEMA;

    static {
        Map<String, FieldType> fields = new LinkedHashMap<>();
        fields.put("l", FieldType.LONG);
        fields.put("d", FieldType.DOUBLE);
        fields.put("s", FieldType.STRING);
        fields.put("b", FieldType.BOOLEAN);
        fields.put("t", FieldType.TIMESTAMP);
        fields.put("l2", FieldType.LONG);
        fields.put("d2", FieldType.DOUBLE);
        fields.put("s2", FieldType.STRING);
        fields.put("b2", FieldType.BOOLEAN);
        SCHEMA = Schema.of(fields);
    }

    private Rows() {}

    /** A row of {@link #SCHEMA} from name/value pairs; fields not given are null. */
    static EventRow row(Object... namesAndValues) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (int i = 0; i < namesAndValues.length; i += 2) {
            values.put((String) namesAndValues[i], namesAndValues[i + 1]);
        }
        return row(values);
    }

    static EventRow row(Map<String, Object> values) {
        EventRowWriter w = new EventRowWriter().begin(SCHEMA);
        for (Map.Entry<String, Object> e : values.entrySet()) {
            Field f = SCHEMA.field(e.getKey());
            Object v = e.getValue();
            switch (v) {
                case null -> w.setNull(f.index());
                case Long l -> w.setLong(f.index(), l);
                case Integer i -> w.setLong(f.index(), i);
                case Double d -> w.setDouble(f.index(), d);
                case Boolean b -> w.setBoolean(f.index(), b);
                case String s -> w.setString(f.index(), s);
                default -> throw new IllegalArgumentException(String.valueOf(v));
            }
        }
        w.finish();
        // Copy into a buffer at a non-zero offset so offsets are exercised too.
        byte[] copy = new byte[w.length() + 7];
        System.arraycopy(w.buffer(), 0, copy, 7, w.length());
        return new EventRow().wrap(copy, 7);
    }

    /** The boxed value an evaluator leaves for {@code row}: Long, Double, Boolean, String or null. */
    static Object value(Evaluator e, EventRow row) {
        if (!e.eval(row)) {
            return null;
        }
        return switch (e.type()) {
            case LONG -> e.longValue;
            case DOUBLE -> e.doubleValue;
            case BOOLEAN -> {
                if (e.longValue != 0 && e.longValue != 1) {
                    throw new AssertionError("boolean result " + e.longValue);
                }
                yield e.longValue == 1;
            }
            case STRING -> new String(e.stringBuffer, e.stringOffset, e.stringLength, StandardCharsets.UTF_8);
            case NULL -> throw new AssertionError("a NULL-typed evaluator returned a value");
        };
    }

    /** Parses {@code expression} as the argument of an aggregate. */
    static Expr expr(String expression) throws QueryException {
        return QueryParser.parse("SELECT SUM(" + expression + ") FROM s GROUP BY l [RANGE 1 SECOND]").aggregates().get(0).argument();
    }

    static String statement(String expression) {
        return "SELECT SUM(" + expression + ") FROM s GROUP BY l [RANGE 1 SECOND]";
    }

    static Evaluator compile(String expression) throws QueryException {
        return ExpressionCompiler.compile(expr(expression), SCHEMA, statement(expression));
    }

    /** Compiles and evaluates {@code expression} against {@code row}. */
    static Object eval(String expression, EventRow row) throws QueryException {
        return value(compile(expression), row);
    }

    static String typeName(Evaluator e) {
        return e.type().name().toLowerCase(Locale.ROOT);
    }
}
