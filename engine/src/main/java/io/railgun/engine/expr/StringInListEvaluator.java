package io.railgun.engine.expr;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * {@code x [NOT] IN (...)} for a STRING operand: the items are pre-encoded to UTF-8 and sorted by
 * unsigned bytes, and the operand's bytes are binary-searched in place (no copy, no allocation).
 * Three-valued like {@link LongInListEvaluator}.
 */
final class StringInListEvaluator extends InListEvaluator {
    private final byte[][] sortedItems;

    StringInListEvaluator(Evaluator operand, String[] items, boolean listHasNull, boolean negated) {
        super(operand, listHasNull, negated);
        this.sortedItems = new byte[items.length][];
        for (int i = 0; i < items.length; i++) {
            this.sortedItems[i] = items[i].getBytes(StandardCharsets.UTF_8);
        }
        Arrays.sort(this.sortedItems, Arrays::compareUnsigned);
    }

    @Override
    boolean contains() {
        return contains(operand.stringBuffer, operand.stringOffset, operand.stringOffset + operand.stringLength);
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
