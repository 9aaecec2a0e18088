package io.railgun.engine.expr;

import io.railgun.engine.event.EventRow;
import java.nio.charset.StandardCharsets;

/** A literal: its value is set once at construction (strings pre-encoded to UTF-8). */
final class ConstantEvaluator extends Evaluator {
    private final boolean isNull;

    private ConstantEvaluator(ValueType type, boolean isNull) {
        super(type);
        this.isNull = isNull;
    }

    static ConstantEvaluator ofLong(long value) {
        ConstantEvaluator c = new ConstantEvaluator(ValueType.LONG, false);
        c.longValue = value;
        return c;
    }

    static ConstantEvaluator ofDouble(double value) {
        ConstantEvaluator c = new ConstantEvaluator(ValueType.DOUBLE, false);
        c.doubleValue = value;
        return c;
    }

    static ConstantEvaluator ofBoolean(boolean value) {
        ConstantEvaluator c = new ConstantEvaluator(ValueType.BOOLEAN, false);
        c.longValue = value ? 1 : 0;
        return c;
    }

    static ConstantEvaluator ofString(String value) {
        ConstantEvaluator c = new ConstantEvaluator(ValueType.STRING, false);
        c.stringBuffer = value.getBytes(StandardCharsets.UTF_8);
        c.stringOffset = 0;
        c.stringLength = c.stringBuffer.length;
        return c;
    }

    /** A value of {@code type} that is always NULL ({@link ValueType#NULL} for the bare NULL literal). */
    static ConstantEvaluator nullOf(ValueType type) {
        return new ConstantEvaluator(type, true);
    }

    @Override
    public boolean eval(EventRow row) {
        return !isNull;
    }
}
