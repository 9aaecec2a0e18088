package io.railgun.engine.expr;

import java.util.Arrays;

/**
 * {@code x [NOT] IN (...)} for a LONG operand against a sorted {@code long[]} (binary search). Items that
 * no long can equal (fractional or out-of-range doubles) were dropped at compile time. Three-valued: a
 * NULL operand is NULL; no match with a NULL in the list is NULL.
 */
final class LongInListEvaluator extends InListEvaluator {
    private final long[] sortedItems;

    LongInListEvaluator(Evaluator operand, long[] items, boolean listHasNull, boolean negated) {
        super(operand, listHasNull, negated);
        this.sortedItems = items.clone();
        Arrays.sort(this.sortedItems);
    }

    @Override
    boolean contains() {
        return Arrays.binarySearch(sortedItems, operand.longValue) >= 0;
    }
}
