package io.railgun.client;

import java.util.Locale;

/**
 * The type of a stream field, as written in the {@code "fields"} object of {@code PUT
 * /v1/streams/{stream}} (SPEC §3.1). Every field is nullable. A {@link #TIMESTAMP} value is sent as
 * epoch milliseconds (a JSON number) or an ISO-8601 string.
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

    /** The name on the wire: {@code "string"}, {@code "long"}, {@code "double"} ... */
    public String jsonName() {
        return jsonName;
    }

    /**
     * The type named {@code jsonName} (case-insensitive).
     *
     * @throws IllegalArgumentException for a name SPEC §3.1 does not define
     */
    public static FieldType fromJson(String jsonName) {
        for (FieldType type : values()) {
            if (type.jsonName.equals(jsonName.toLowerCase(Locale.ROOT))) {
                return type;
            }
        }
        throw new IllegalArgumentException(
                "unknown field type '" + jsonName + "'; expected string, long, double, boolean or timestamp");
    }
}
