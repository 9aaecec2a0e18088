package io.railgun.engine.expr;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.query.Expr.BinaryOp;

/**
 * {@code + - * /} on two LONG operands with Java long semantics (wrapping on overflow, {@code /}
 * truncating toward zero). Division by zero is NULL, as is a NULL operand.
 */
final class LongArithmeticEvaluator extends Evaluator {
    private final BinaryOp op;
    private final Evaluator left;
    private final Evaluator right;

    LongArithmeticEvaluator(BinaryOp op, Evaluator left, Evaluator right) {
        super(ValueType.LONG);
        this.op = op;
        this.left = left;
        this.right = right;
    }

    @Override
    public boolean eval(EventRow row) {
        if (!left.eval(row) || !right.eval(row)) {
            return false;
        }
        long a = left.longValue;
        long b = right.longValue;
        switch (op) {
            case ADD -> longValue = a + b;
            case SUBTRACT -> longValue = a - b;
            case MULTIPLY -> longValue = a * b;
            default -> {
                if (b == 0) {
                    return false;
                }
                longValue = a / b;
            }
        }
        return true;
    }
}
