package io.railgun.engine.expr;

import io.railgun.engine.event.EventRow;

/** {@code a OR b} in three-valued logic: TRUE if either is TRUE, else NULL if either is NULL, else FALSE. */
final class OrEvaluator extends Evaluator {
    private final Evaluator left;
    private final Evaluator right;

    OrEvaluator(Evaluator left, Evaluator right) {
        super(ValueType.BOOLEAN);
        this.left = left;
        this.right = right;
    }

    @Override
    public boolean eval(EventRow row) {
        boolean leftKnown = left.eval(row);
        if (leftKnown && left.longValue != 0) {
            longValue = 1;
            return true;
        }
        boolean rightKnown = right.eval(row);
        if (rightKnown && right.longValue != 0) {
            longValue = 1;
            return true;
        }
        if (!leftKnown || !rightKnown) {
            return false;
        }
        longValue = 0;
        return true;
    }
}
