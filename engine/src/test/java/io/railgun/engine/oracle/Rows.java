package io.railgun.engine.oracle;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.event.EventRowWriter;
import io.railgun.engine.schema.Field;
import io.railgun.engine.schema.Schema;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/** Writes the oracle's map events as binary rows of a schema. */
public final class Rows {
    private Rows() {}

    /**
     * Writes {@code values} (field name, any case, to Long / Double / String / Boolean; absent or
     * null = null) with {@code writer} and returns the writer's row flyweight, valid until the
     * writer is used again.
     */
    public static EventRow write(EventRowWriter writer, Schema schema, Map<String, Object> values) {
        Map<String, Object> lower = new HashMap<>();
        values.forEach((k, v) -> lower.put(k.toLowerCase(Locale.ROOT), v));
        writer.begin(schema);
        for (Field f : schema.fields()) {
            Object v = lower.get(f.name().toLowerCase(Locale.ROOT));
            if (v == null) {
                continue;
            }
            switch (f.type()) {
                case STRING -> writer.setString(f.index(), (String) v);
                case LONG, TIMESTAMP -> writer.setLong(f.index(), (Long) v);
                case DOUBLE -> writer.setDouble(f.index(), (Double) v);
                case BOOLEAN -> writer.setBoolean(f.index(), (Boolean) v);
            }
        }
        writer.finish();
        return writer.row();
    }

    /** The same, into a fresh writer whose buffer nobody else touches. */
    public static EventRow fresh(Schema schema, Map<String, Object> values) {
        return write(new EventRowWriter(), schema, values);
    }
}
