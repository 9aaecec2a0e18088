package io.railgun.engine.expr;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.query.Expr.BinaryOp;

/**
 * {@code + - * /} where at least one operand is DOUBLE (a LONG operand is widened). A result that is
 * not finite (division by zero, overflow, or a NaN/infinite input) is NULL, so no Infinity or NaN ever
 * reaches an aggregate; a NULL operand is NULL.
 */
final class DoubleArithmeticEvaluator extends Evaluator {
    private final BinaryOp op;
    private final Evaluator left;
    private final Evaluator right;

    DoubleArithmeticEvaluator(BinaryOp op, Evaluator left, Evaluator right) {
        super(ValueType.DOUBLE);
        this.op = op;
        this.left = left;
        this.right = right;
    }

    @Override
    public boolean eval(EventRow row) {
        if (!left.eval(row) || !right.eval(row)) {
            return false;
        }
        double a = left.asDouble();
        double b = right.asDouble();
        double r;
        switch (op) {
            case ADD -> r = a + b;
            case SUBTRACT -> r = a - b;
            case MULTIPLY -> r = a * b;
            default -> {
                if (b == 0.0) {
                    return false;
                }
                r = a / b;
            }
        }
        if (!Double.isFinite(r)) {
            return false;
        }
        doubleValue = r;
        return true;
    }
}
