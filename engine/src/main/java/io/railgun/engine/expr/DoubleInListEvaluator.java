package io.railgun.engine.expr;

import java.util.Arrays;

/**
 * {@code x [NOT] IN (...)} for a DOUBLE operand against a sorted {@code double[]} (binary search). Long
 * items that no double equals exactly were dropped at compile time; {@code -0.0} is normalised to
 * {@code 0.0} on both sides so it matches as {@code =} does. Three-valued like {@link LongInListEvaluator}.
 */
final class DoubleInListEvaluator extends InListEvaluator {
    private final double[] sortedItems;

    DoubleInListEvaluator(Evaluator operand, double[] items, boolean listHasNull, boolean negated) {
        super(operand, listHasNull, negated);
        this.sortedItems = new double[items.length];
        for (int i = 0; i < items.length; i++) {
            this.sortedItems[i] = items[i] + 0.0; // -0.0 + 0.0 == +0.0
        }
        Arrays.sort(this.sortedItems);
    }

    @Override
    boolean contains() {
        return Arrays.binarySearch(sortedItems, operand.doubleValue + 0.0) >= 0;
    }
}
