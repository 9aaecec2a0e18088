package io.railgun.engine.expr;

import io.railgun.engine.event.EventRow;

/** Reads a LONG (or TIMESTAMP) field by its index (resolved at compile time); NULL when the row has it null. */
final class LongFieldEvaluator extends Evaluator {
    private final int field;

    LongFieldEvaluator(int field) {
        super(ValueType.LONG);
        this.field = field;
    }

    @Override
    public boolean eval(EventRow row) {
        if (row.isNull(field)) {
            return false;
        }
        longValue = row.getLong(field);
        return true;
    }
}
