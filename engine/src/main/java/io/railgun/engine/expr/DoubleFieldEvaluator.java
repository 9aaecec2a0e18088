package io.railgun.engine.expr;

import io.railgun.engine.event.EventRow;

/** Reads a DOUBLE field by its index (resolved at compile time); NULL when the row has it null. */
final class DoubleFieldEvaluator extends Evaluator {
    private final int field;

    DoubleFieldEvaluator(int field) {
        super(ValueType.DOUBLE);
        this.field = field;
    }

    @Override
    public boolean eval(EventRow row) {
        if (row.isNull(field)) {
            return false;
        }
        doubleValue = row.getDouble(field);
        return true;
    }
}
