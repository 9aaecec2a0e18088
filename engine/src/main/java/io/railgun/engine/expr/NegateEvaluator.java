package io.railgun.engine.expr;

import io.railgun.engine.event.EventRow;

/** Unary minus of a LONG (wrapping, like Java) or DOUBLE operand; NULL stays NULL. */
final class NegateEvaluator extends Evaluator {
    private final Evaluator operand;
    private final boolean isLong;

    NegateEvaluator(Evaluator operand) {
        super(operand.type());
        this.operand = operand;
        this.isLong = operand.type() == ValueType.LONG;
    }

    @Override
    public boolean eval(EventRow row) {
        if (!operand.eval(row)) {
            return false;
        }
        if (isLong) {
            longValue = -operand.longValue;
        } else {
            doubleValue = -operand.doubleValue;
        }
        return true;
    }
}
