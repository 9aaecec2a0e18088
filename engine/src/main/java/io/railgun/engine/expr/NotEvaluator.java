package io.railgun.engine.expr;

import io.railgun.engine.event.EventRow;

/** {@code NOT a}: TRUE ↔ FALSE, NULL stays NULL. */
final class NotEvaluator extends Evaluator {
    private final Evaluator operand;

    NotEvaluator(Evaluator operand) {
        super(ValueType.BOOLEAN);
        this.operand = operand;
    }

    @Override
    public boolean eval(EventRow row) {
        if (!operand.eval(row)) {
            return false;
        }
        longValue = operand.longValue == 0 ? 1 : 0;
        return true;
    }
}
