package io.railgun.engine.aggregate;

import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.task.Reply;

/**
 * Encodes LONG, DOUBLE and BOOLEAN values as longs whose signed order is the values' SQL order, so
 * MIN/MAX/LAST keep one primitive code path: longs as themselves, booleans as 0/1, doubles as their
 * IEEE bits with the magnitude bits flipped for negatives (-0.0 is normalised to 0.0 first).
 */
final class SortableValue {
    private SortableValue() {}

    static long encode(Evaluator e) {
        if (e.type() == ValueType.DOUBLE) {
            double d = e.doubleValue == 0.0 ? 0.0 : e.doubleValue;
            long bits = Double.doubleToRawLongBits(d);
            return bits ^ ((bits >> 63) & 0x7FFFFFFFFFFFFFFFL);
        }
        return e.longValue;
    }

    static void write(long encoded, ValueType type, Reply reply, int index) {
        if (type == ValueType.DOUBLE) {
            long bits = encoded ^ ((encoded >> 63) & 0x7FFFFFFFFFFFFFFFL);
            reply.setDouble(index, Double.longBitsToDouble(bits));
        } else {
            reply.setLong(index, encoded);
        }
    }
}
