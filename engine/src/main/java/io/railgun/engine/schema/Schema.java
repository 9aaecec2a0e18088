package io.railgun.engine.schema;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * An immutable stream schema: ordered fields, each with a fixed slot in the binary row. Schemas
 * evolve by appending nullable fields only ({@link #withField}), so a row written with an older
 * schema stays readable: fields it does not have read as null. Field names are case-insensitive
 * (looked up lower-cased) and keep their declared spelling.
 */
public final class Schema {
    private final int id;
    private final List<Field> fields;
    private final Map<String, Field> byName;

    private Schema(int id, List<Field> fields) {
        this.id = id;
        this.fields = Collections.unmodifiableList(fields);
        Map<String, Field> map = new LinkedHashMap<>();
        for (Field f : fields) {
            map.put(f.name().toLowerCase(Locale.ROOT), f);
        }
        this.byName = map;
    }

    /** A first schema (id 1) with the given fields in order. */
    public static Schema of(Map<String, FieldType> fields) {
        List<Field> list = new ArrayList<>();
        Map<String, Boolean> seen = new LinkedHashMap<>();
        for (Map.Entry<String, FieldType> e : fields.entrySet()) {
            if (seen.put(e.getKey().toLowerCase(Locale.ROOT), Boolean.TRUE) != null) {
                throw new IllegalArgumentException("field '" + e.getKey() + "' is declared twice (names are case-insensitive)");
            }
            list.add(new Field(e.getKey(), e.getValue(), list.size()));
        }
        return new Schema(1, list);
    }

    /** The next schema version with one more (nullable) field at the end. */
    public Schema withField(String name, FieldType type) {
        if (field(name) != null) {
            throw new IllegalArgumentException("field '" + name + "' already exists");
        }
        List<Field> list = new ArrayList<>(fields);
        list.add(new Field(name, type, list.size()));
        return new Schema(id + 1, list);
    }

    /**
     * Whether {@code newer} is a compatible evolution of this schema: the same fields with the same
     * types in the same order, then zero or more new fields (every field is nullable).
     */
    public boolean isEvolvedInto(Schema newer) {
        if (newer.size() < size()) {
            return false;
        }
        for (int i = 0; i < size(); i++) {
            Field a = fields.get(i);
            Field b = newer.field(i);
            if (!a.name().equalsIgnoreCase(b.name()) || a.type() != b.type()) {
                return false;
            }
        }
        return true;
    }

    /** Schema version, starting at 1, incremented by each compatible change. */
    public int id() {
        return id;
    }

    public List<Field> fields() {
        return fields;
    }

    public int size() {
        return fields.size();
    }

    /** The field with that name (case-insensitive), or null. */
    public Field field(String name) {
        return byName.get(name.toLowerCase(Locale.ROOT));
    }

    public Field field(int index) {
        return fields.get(index);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Schema{id=").append(id);
        for (Field f : fields) {
            sb.append(", ").append(f.name()).append(':').append(f.type().jsonName());
        }
        return sb.append('}').toString();
    }
}
