package io.railgun.engine.expr;

import io.railgun.engine.event.EventRow;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * {@code x [NOT] IN (...)} for a STRING operand: the items are pre-encoded to UTF-8 and sorted by
 * unsigned bytes, and the operand's bytes are binary-searched in place (no copy, no allocation).
 * Three-valued like {@link LongInListEvaluator}.
 */
final class StringInListEvaluator extends Evaluator {
    private final Evaluator operand;
    private final byte[][] sortedItems;
    private final boolean listHasNull;
    private final boolean negated;

    StringInListEvaluator(Evaluator operand, String[] items, boolean listHasNull, boolean negated) {
        super(ValueType.BOOLEAN);
        this.operand = operand;
        this.sortedItems = new byte[items.length][];
        for (int i = 0; i < items.length; i++) {
            this.sortedItems[i] = items[i].getBytes(StandardCharsets.UTF_8);
        }
        Arrays.sort(this.sortedItems, Arrays::compareUnsigned);
        this.listHasNull = listHasNull;
        this.negated = negated;
    }

    @Override
    public boolean eval(EventRow row) {
        if (!operand.eval(row)) {
            return false;
        }
        if (contains(operand.stringBuffer, operand.stringOffset, operand.stringOffset + operand.stringLength)) {
            longValue = negated ? 0 : 1;
            return true;
        }
        if (listHasNull) {
            return false;
        }
        longValue = negated ? 1 : 0;
        return true;
    }

    private boolean contains(byte[] buffer, int from, int to) {
        int lo = 0;
        int hi = sortedItems.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            byte[] item = sortedItems[mid];
            int c = Arrays.compareUnsigned(item, 0, item.length, buffer, from, to);
            if (c < 0) {
                lo = mid + 1;
            } else if (c > 0) {
                hi = mid - 1;
            } else {
                return true;
            }
        }
        return false;
    }
}
