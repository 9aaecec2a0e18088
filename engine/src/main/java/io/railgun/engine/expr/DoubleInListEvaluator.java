package io.railgun.engine.expr;

import io.railgun.engine.event.EventRow;
import java.util.Arrays;

/**
 * {@code x [NOT] IN (...)} for a DOUBLE operand against a sorted {@code double[]} (binary search). Long
 * items that no double equals exactly were dropped at compile time; {@code -0.0} is normalised to
 * {@code 0.0} on both sides so it matches as {@code =} does. Three-valued like {@link LongInListEvaluator}.
 */
final class DoubleInListEvaluator extends Evaluator {
    private final Evaluator operand;
    private final double[] sortedItems;
    private final boolean listHasNull;
    private final boolean negated;

    DoubleInListEvaluator(Evaluator operand, double[] items, boolean listHasNull, boolean negated) {
        super(ValueType.BOOLEAN);
        this.operand = operand;
        this.sortedItems = new double[items.length];
        for (int i = 0; i < items.length; i++) {
            this.sortedItems[i] = items[i] + 0.0; // -0.0 + 0.0 == +0.0
        }
        Arrays.sort(this.sortedItems);
        this.listHasNull = listHasNull;
        this.negated = negated;
    }

    @Override
    public boolean eval(EventRow row) {
        if (!operand.eval(row)) {
            return false;
        }
        if (Arrays.binarySearch(sortedItems, operand.doubleValue + 0.0) >= 0) {
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
