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
 * the per-key distinct count goes up when an entry is created and down when it is removed.
 * Doubles count -0.0 and 0.0 as one value.
 */
public final class CountDistinctAggregator extends Aggregator {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private final ByteKeyIndex multiset = new ByteKeyIndex(1024);
    private int[] multiplicity = new int[0];
    private long[] distinct = new long[0];
    private byte[] scratch = new byte[64];

    public CountDistinctAggregator(Evaluator argument) {
        super(argument);
    }

    @Override
    public ValueType resultType() {
        return ValueType.LONG;
    }

    @Override
    public void ensureCapacity(int slots) {
        distinct = Columns.grow(distinct, slots);
    }

    @Override
    public void arrive(int slot, long timestamp, long seq, EventRow row) {
        if (!argument.eval(row)) {
            return;
        }
        int len = encode(slot);
        int r = multiset.findOrInsert(scratch, 0, len);
        if (r < 0) {
            int entry = -r - 1;
            multiplicity = Columns.grow(multiplicity, multiset.capacity());
            multiplicity[entry] = 1;
            distinct[slot]++;
        } else {
            multiplicity[r]++;
        }
    }

    @Override
    public void expire(int slot, long timestamp, long seq, EventRow row) {
        if (!argument.eval(row)) {
            return;
        }
        int len = encode(slot);
        int entry = multiset.find(scratch, 0, len);
        if (entry >= 0 && --multiplicity[entry] == 0) {
            multiset.removeSlot(entry);
            distinct[slot]--;
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
    public void reset(int slot) {
        distinct[slot] = 0; // every entry of the key reached multiplicity 0 and was removed already
    }

    @Override
    public void write(int slot, Reply reply, int index) {
        reply.setLong(index, slot < 0 ? 0 : distinct[slot]);
    }
}
