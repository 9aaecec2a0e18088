package io.railgun.engine.aggregate;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.state.ByteKeyIndex;
import io.railgun.engine.task.Reply;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Exact {@code COUNT(DISTINCT expr)}: a multiset per key. All keys share one {@link ByteKeyIndex}
 * over (key slot, value bytes) entries holding how many events of the window carry that value;
 * the per-key distinct count (one long of the key's record) goes up when an entry is created and
 * down when it is removed; when the key leaves the window all its entries are gone already.
 * Doubles count -0.0 and 0.0 as one value.
 */
public final class CountDistinctAggregator extends Aggregator {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private final ByteKeyIndex multiset = new ByteKeyIndex(1024);
    private int[] multiplicity = new int[0];
    private byte[] scratch = new byte[64];

    public CountDistinctAggregator(Evaluator argument) {
        super(argument);
    }

    @Override
    public ValueType resultType() {
        return ValueType.LONG;
    }

    @Override
    public int width() {
        return 1; // the number of distinct values of the key
    }

    @Override
    public void arrive(long[] record, int base, int slot, long timestamp, long seq, EventRow row) {
        if (!argument.eval(row)) {
            return;
        }
        int len = encode(slot);
        int r = multiset.findOrInsert(scratch, 0, len);
        if (r < 0) {
            int entry = -r - 1;
            multiplicity = Columns.grow(multiplicity, multiset.capacity());
            multiplicity[entry] = 1;
            record[base + offset]++;
        } else {
            multiplicity[r]++;
        }
    }

    @Override
    public void expire(long[] record, int base, int slot, long timestamp, long seq, EventRow row) {
        if (!argument.eval(row)) {
            return;
        }
        int len = encode(slot);
        int entry = multiset.find(scratch, 0, len);
        if (entry >= 0 && --multiplicity[entry] == 0) {
            multiset.removeSlot(entry);
            record[base + offset]--;
        }
    }

    private int encode(int slot) {
        INT.set(scratch, 0, slot);
        if (argument.type() == ValueType.STRING) {
            int len = argument.stringLength;
            if (scratch.length < 4 + len) {
                scratch = new byte[Math.max(scratch.length * 2, 4 + len)];
                INT.set(scratch, 0, slot);
            }
            System.arraycopy(argument.stringBuffer, argument.stringOffset, scratch, 4, len);
            return 4 + len;
        }
        long bits = argument.type() == ValueType.DOUBLE
                ? Double.doubleToLongBits(argument.doubleValue == 0.0 ? 0.0 : argument.doubleValue)
                : argument.longValue;
        LONG.set(scratch, 4, bits);
        return 12;
    }

    @Override
    public void write(long[] record, int base, int slot, Reply reply, int index) {
        reply.setLong(index, slot < 0 ? 0 : record[base + offset]);
    }
}
