package io.railgun.engine.expr;


/** {@code x [NOT] IN (...)} for a BOOLEAN operand: the list reduces to "has TRUE" and "has FALSE". */
final class BooleanInListEvaluator extends InListEvaluator {
    private final boolean hasTrue;
    private final boolean hasFalse;

    BooleanInListEvaluator(Evaluator operand, boolean hasTrue, boolean hasFalse, boolean listHasNull, boolean negated) {
        super(operand, listHasNull, negated);
        this.hasTrue = hasTrue;
        this.hasFalse = hasFalse;
    }

    @Override
    boolean contains() {
        return operand.longValue != 0 ? hasTrue : hasFalse;
    }
}
