package io.railgun.engine.expr;

import io.railgun.engine.event.EventRow;

/** {@code x [NOT] LIKE 'pattern'} on a STRING operand with a precompiled {@link LikePattern}; NULL stays NULL. */
final class LikeEvaluator extends Evaluator {
    private final Evaluator operand;
    private final LikePattern pattern;
    private final boolean negated;

    LikeEvaluator(Evaluator operand, LikePattern pattern, boolean negated) {
        super(ValueType.BOOLEAN);
        this.operand = operand;
        this.pattern = pattern;
        this.negated = negated;
    }

    @Override
    public boolean eval(EventRow row) {
        if (!operand.eval(row)) {
            return false;
        }
        boolean match = pattern.matches(operand.stringBuffer, operand.stringOffset, operand.stringOffset + operand.stringLength);
        longValue = match != negated ? 1 : 0;
        return true;
    }
}
