package io.railgun.engine.expr;

import io.railgun.engine.event.EventRow;

/** Reads a STRING field by its index (resolved at compile time) as a view of the row's UTF-8 bytes; NULL when null. */
final class StringFieldEvaluator extends Evaluator {
    private final int field;

    StringFieldEvaluator(int field) {
        super(ValueType.STRING);
        this.field = field;
    }

    @Override
    public boolean eval(EventRow row) {
        if (row.isNull(field)) {
            return false;
        }
        stringBuffer = row.buffer();
        stringOffset = row.stringOffset(field);
        stringLength = row.stringLength(field);
        return true;
    }
}
