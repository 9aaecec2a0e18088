package io.railgun.engine.expr;

import io.railgun.engine.event.EventRow;
import java.util.Arrays;

/**
 * {@code x [NOT] IN (...)} for a LONG operand against a sorted {@code long[]} (binary search). Items that
 * no long can equal (fractional or out-of-range doubles) were dropped at compile time. Three-valued: a
 * NULL operand is NULL; no match with a NULL in the list is NULL.
 */
final class LongInListEvaluator extends Evaluator {
    private final Evaluator operand;
    private final long[] sortedItems;
    private final boolean listHasNull;
    private final boolean negated;

    LongInListEvaluator(Evaluator operand, long[] items, boolean listHasNull, boolean negated) {
        super(ValueType.BOOLEAN);
        this.operand = operand;
        this.sortedItems = items.clone();
        Arrays.sort(this.sortedItems);
        this.listHasNull = listHasNull;
        this.negated = negated;
    }

    @Override
    public boolean eval(EventRow row) {
        if (!operand.eval(row)) {
            return false;
        }
        if (Arrays.binarySearch(sortedItems, operand.longValue) >= 0) {
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
