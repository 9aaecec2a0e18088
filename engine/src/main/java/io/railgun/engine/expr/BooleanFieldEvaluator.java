package io.railgun.engine.expr;

import io.railgun.engine.event.EventRow;

/** Reads a BOOLEAN field by its index (resolved at compile time); NULL when the row has it null. */
final class BooleanFieldEvaluator extends Evaluator {
    private final int field;

    BooleanFieldEvaluator(int field) {
        super(ValueType.BOOLEAN);
        this.field = field;
    }

    @Override
    public boolean eval(EventRow row) {
        if (row.isNull(field)) {
            return false;
        }
        longValue = row.getBoolean(field) ? 1 : 0;
        return true;
    }
}
