package io.railgun.engine.schema;

/**
 * The type of a stream field (SPEC §3.1). Every field is nullable. {@link #TIMESTAMP} is epoch
 * milliseconds and behaves as a {@link #LONG} in expressions.
 */
public enum FieldType {
    STRING("string"),
    LONG("long"),
    DOUBLE("double"),
    BOOLEAN("boolean"),
    TIMESTAMP("timestamp");

    private final String jsonName;

    FieldType(String jsonName) {
        this.jsonName = jsonName;
    }

    /** The name used in stream definitions ({@code "double"}, {@code "timestamp"} ...). */
    public String jsonName() {
        return jsonName;
    }

    /** True for the types whose values are 64-bit integers (LONG and TIMESTAMP). */
    public boolean isIntegral() {
        return this == LONG || this == TIMESTAMP;
    }

    /** True for LONG, TIMESTAMP and DOUBLE. */
    public boolean isNumeric() {
        return this == LONG || this == TIMESTAMP || this == DOUBLE;
    }
}
