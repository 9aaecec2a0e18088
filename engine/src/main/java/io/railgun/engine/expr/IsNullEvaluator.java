package io.railgun.engine.expr;

import io.railgun.engine.event.EventRow;

/** {@code x IS [NOT] NULL}: never NULL itself. */
final class IsNullEvaluator extends Evaluator {
    private final Evaluator operand;
    private final boolean negated;

    IsNullEvaluator(Evaluator operand, boolean negated) {
        super(ValueType.BOOLEAN);
        this.operand = operand;
        this.negated = negated;
    }

    @Override
    public boolean eval(EventRow row) {
        longValue = operand.eval(row) == negated ? 1 : 0;
        return true;
    }
}
