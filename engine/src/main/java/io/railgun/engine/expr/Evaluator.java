package io.railgun.engine.expr;

import io.railgun.engine.event.EventRow;

/**
 * A compiled expression. {@link #eval} computes the value for one row and leaves it in this object's
 * result fields, so evaluation allocates nothing and boxes nothing: a tree of evaluators built once
 * per statement by {@link ExpressionCompiler}, each node calling its children's {@code eval}.
 *
 * <p>Result fields by {@link #type()}: LONG in {@link #longValue}, DOUBLE in {@link #doubleValue},
 * BOOLEAN in {@link #longValue} (0 or 1), STRING as UTF-8 bytes {@link #stringBuffer}
 * [{@link #stringOffset}, +{@link #stringLength}) (a view that is valid until the next eval).
 *
 * <p>Owned by one task's thread; not thread-safe.
 */
public abstract class Evaluator {
    private final ValueType type;
    public long longValue;
    public double doubleValue;
    public byte[] stringBuffer;
    public int stringOffset;
    public int stringLength;

    protected Evaluator(ValueType type) {
        this.type = type;
    }

    public final ValueType type() {
        return type;
    }

    /** Evaluates against {@code row}; returns false when the value is SQL NULL (fields then undefined). */
    public abstract boolean eval(EventRow row);

    /** For BOOLEAN evaluators used as predicates: true only when the value is TRUE (NULL does not pass). */
    public final boolean test(EventRow row) {
        return eval(row) && longValue != 0;
    }

    /** The result as a double (LONG widened); only for numeric types after a non-null eval. */
    public final double asDouble() {
        return type == ValueType.LONG ? (double) longValue : doubleValue;
    }
}
