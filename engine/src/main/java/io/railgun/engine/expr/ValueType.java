package io.railgun.engine.expr;

import io.railgun.engine.schema.FieldType;

/** The type of a compiled expression's value. {@link #NULL} is the type of the bare NULL literal. */
public enum ValueType {
    LONG, DOUBLE, BOOLEAN, STRING, NULL;

    public boolean isNumeric() {
        return this == LONG || this == DOUBLE;
    }

    public static ValueType of(FieldType t) {
        return switch (t) {
            case LONG, TIMESTAMP -> LONG;
            case DOUBLE -> DOUBLE;
            case BOOLEAN -> BOOLEAN;
            case STRING -> STRING;
        };
    }
}
