package io.railgun.engine.expr;

import io.railgun.engine.event.EventRow;

/** {@code a AND b} in three-valued logic: FALSE if either is FALSE, else NULL if either is NULL, else TRUE. */
final class AndEvaluator extends Evaluator {
    private final Evaluator left;
    private final Evaluator right;

    AndEvaluator(Evaluator left, Evaluator right) {
        super(ValueType.BOOLEAN);
        this.left = left;
        this.right = right;
    }

    @Override
    public boolean eval(EventRow row) {
        boolean leftKnown = left.eval(row);
        if (leftKnown && left.longValue == 0) {
            longValue = 0;
            return true;
        }
        boolean rightKnown = right.eval(row);
        if (rightKnown && right.longValue == 0) {
            longValue = 0;
            return true;
        }
        if (!leftKnown || !rightKnown) {
            return false;
        }
        longValue = 1;
        return true;
    }
}
