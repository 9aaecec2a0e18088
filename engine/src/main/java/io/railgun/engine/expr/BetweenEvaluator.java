package io.railgun.engine.expr;

import io.railgun.engine.event.EventRow;

/**
 * {@code x [NOT] BETWEEN low AND high}, i.e. {@code x >= low AND x <= high} in three-valued logic,
 * evaluating {@code x} once: FALSE as soon as one bound excludes x, else NULL if x or a bound is NULL,
 * else TRUE; NOT BETWEEN negates that (NULL stays NULL). A bound of type NULL has a null comparator,
 * which is never called because its eval always returns false.
 */
final class BetweenEvaluator extends Evaluator {
    private static final int NULL = -1;

    private final Evaluator operand;
    private final Evaluator low;
    private final Evaluator high;
    private final ValueComparator lowComparator;
    private final ValueComparator highComparator;
    private final boolean negated;

    BetweenEvaluator(Evaluator operand, Evaluator low, Evaluator high, ValueComparator lowComparator,
            ValueComparator highComparator, boolean negated) {
        super(ValueType.BOOLEAN);
        this.operand = operand;
        this.low = low;
        this.high = high;
        this.lowComparator = lowComparator;
        this.highComparator = highComparator;
        this.negated = negated;
    }

    @Override
    public boolean eval(EventRow row) {
        if (!operand.eval(row)) {
            return false;
        }
        int aboveLow = low.eval(row) ? (lowComparator.compare(operand, low) >= 0 ? 1 : 0) : NULL;
        int belowHigh = aboveLow == 0 ? 0 : high.eval(row) ? (highComparator.compare(operand, high) <= 0 ? 1 : 0) : NULL;
        if (aboveLow == 0 || belowHigh == 0) {
            longValue = negated ? 1 : 0;
            return true;
        }
        if (aboveLow == NULL || belowHigh == NULL) {
            return false;
        }
        longValue = negated ? 0 : 1;
        return true;
    }
}
