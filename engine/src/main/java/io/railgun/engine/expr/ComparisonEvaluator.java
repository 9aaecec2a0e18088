package io.railgun.engine.expr;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.query.Expr.BinaryOp;

/**
 * {@code = <> < <= > >=} between two operands of comparable types; NULL when either is NULL. The
 * operator is a 3-bit mask of the outcomes it accepts (bit 0: less, bit 1: equal, bit 2: greater), so
 * evaluation is one comparison and one shift.
 */
final class ComparisonEvaluator extends Evaluator {
    private final Evaluator left;
    private final Evaluator right;
    private final ValueComparator comparator;
    private final int acceptMask;

    ComparisonEvaluator(BinaryOp op, Evaluator left, Evaluator right, ValueComparator comparator) {
        super(ValueType.BOOLEAN);
        this.left = left;
        this.right = right;
        this.comparator = comparator;
        this.acceptMask = mask(op);
    }

    @Override
    public boolean eval(EventRow row) {
        if (!left.eval(row) || !right.eval(row)) {
            return false;
        }
        longValue = (acceptMask >>> (comparator.compare(left, right) + 1)) & 1;
        return true;
    }

    static int mask(BinaryOp op) {
        return switch (op) {
            case EQ -> 0b010;
            case NE -> 0b101;
            case LT -> 0b001;
            case LE -> 0b011;
            case GT -> 0b100;
            case GE -> 0b110;
            default -> throw new IllegalArgumentException("not a comparison: " + op);
        };
    }
}
