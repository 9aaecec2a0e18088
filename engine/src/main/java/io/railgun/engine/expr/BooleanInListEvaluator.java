package io.railgun.engine.expr;

import io.railgun.engine.event.EventRow;

/** {@code x [NOT] IN (...)} for a BOOLEAN operand: the list reduces to "has TRUE" and "has FALSE". */
final class BooleanInListEvaluator extends Evaluator {
    private final Evaluator operand;
    private final boolean hasTrue;
    private final boolean hasFalse;
    private final boolean listHasNull;
    private final boolean negated;

    BooleanInListEvaluator(Evaluator operand, boolean hasTrue, boolean hasFalse, boolean listHasNull, boolean negated) {
        super(ValueType.BOOLEAN);
        this.operand = operand;
        this.hasTrue = hasTrue;
        this.hasFalse = hasFalse;
        this.listHasNull = listHasNull;
        this.negated = negated;
    }

    @Override
    public boolean eval(EventRow row) {
        if (!operand.eval(row)) {
            return false;
        }
        if (operand.longValue != 0 ? hasTrue : hasFalse) {
            longValue = negated ? 0 : 1;
            return true;
        }
        if (listHasNull) {
            return false;
        }
        longValue = negated ? 1 : 0;
        return true;
    }
}
