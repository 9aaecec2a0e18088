package io.railgun.engine.aggregate;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.state.ByteKeyIndex;
import io.railgun.engine.state.StateReader;
import io.railgun.engine.state.StateWriter;
import io.railgun.engine.task.Reply;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Exact {@code COUNT(DISTINCT expr)}: a multiset per key. All keys share one {@link ByteKeyIndex}
 * over (key slot, value bytes) entries holding how many events of the window carry that value;
 * the per-key distinct count (one long of the key's record) goes up when an entry is created and
 * down when it is removed. Doubles count -0.0 and 0.0 as one value.
 *
 * <p>The entries of each key are chained in a doubly linked list ({@code head} per key slot,
 * {@code next}/{@code prev} per entry, all holding entry + 1 with 0 for none), so one key's entries
 * can be saved, or dropped by {@link #reset} when the key leaves the hot tier still holding events.
 * An entry's multiplicity, next and prev sit side by side in one int array (three ints per entry):
 * on multisets far larger than the CPU caches, one cache miss per entry update instead of three.
 *
 * <p>External state, saved per key, little-endian: {@code int n}, then the key's n distinct values,
 * each {@code int length, length value bytes, int multiplicity}; value bytes are the UTF-8 string,
 * or the 8-byte long / double bits / boolean.
 */
public final class CountDistinctAggregator extends Aggregator {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int SLOT_BYTES = 4;

    private final ByteKeyIndex multiset = new ByteKeyIndex(1024);
    // per multiset entry e, at ENTRY * e: multiplicity, next, prev
    private static final int ENTRY = 3;
    private static final int MULTIPLICITY = 0;
    private static final int NEXT = 1;
    private static final int PREV = 2;
    private int[] entries = new int[0];
    // per key slot: first entry of the key's list, + 1 (0 = none)
    private int[] head = new int[0];
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
    public void ensureCapacity(int slots) {
        head = Columns.grow(head, slots);
    }

    @Override
    public void arrive(long[] record, int base, int slot, long timestamp, long seq, EventRow row) {
        if (!argument.eval(row)) {
            return;
        }
        int len = encode(slot);
        int r = multiset.findOrInsert(scratch, 0, len);
        if (r < 0) {
            link(slot, -r - 1, 1);
            record[base + offset]++;
        } else {
            entries[ENTRY * r + MULTIPLICITY]++;
        }
    }

    @Override
    public void expire(long[] record, int base, int slot, long timestamp, long seq, EventRow row) {
        if (!argument.eval(row)) {
            return;
        }
        int len = encode(slot);
        int entry = multiset.find(scratch, 0, len);
        if (entry >= 0 && --entries[ENTRY * entry + MULTIPLICITY] == 0) {
            unlink(slot, entry);
            // by the value's bytes, whose bucket find() just read: removeSlot would read the key back
            // from the arena first (two more cache misses)
            multiset.remove(scratch, 0, len);
            record[base + offset]--;
        }
    }

    /** A key emptied by expiry holds no entry (its count is 0): its list head is not reached. */
    @Override
    public void resetKey(long[] record, int base, int slot) {
        if (record[base + offset] != 0) {
            reset(slot);
        }
    }

    /** Drops the entries the key at {@code slot} still holds (none when it emptied by expiry). */
    @Override
    public void reset(int slot) {
        int e = head[slot];
        while (e != 0) {
            int entry = e - 1;
            e = entries[ENTRY * entry + NEXT];
            multiset.removeSlot(entry);
        }
        head[slot] = 0;
    }

    @Override
    public void saveExternal(int slot, StateWriter out) {
        int count = out.reserveInt();
        int n = 0;
        for (int e = head[slot]; e != 0; e = entries[ENTRY * (e - 1) + NEXT]) {
            int entry = e - 1;
            int len = multiset.keyLength(entry);
            if (scratch.length < len) {
                scratch = new byte[Math.max(scratch.length * 2, len)];
            }
            multiset.copyKey(entry, scratch, 0);
            out.putBytes(scratch, SLOT_BYTES, len - SLOT_BYTES).putInt(entries[ENTRY * entry + MULTIPLICITY]);
            n++;
        }
        out.patchInt(count, n);
    }

    @Override
    public void loadExternal(long[] record, int base, int slot, StateReader in) {
        int n = in.getInt();
        if (n < 0) {
            throw new IllegalStateException("corrupt state value: COUNT DISTINCT of " + n + " values");
        }
        for (int i = 0; i < n; i++) {
            int len = in.getBytesLength();
            if (scratch.length < SLOT_BYTES + len) {
                scratch = new byte[Math.max(scratch.length * 2, SLOT_BYTES + len)];
            }
            INT.set(scratch, 0, slot);
            System.arraycopy(in.buffer(), in.position() - len, scratch, SLOT_BYTES, len);
            int count = in.getInt();
            if (count <= 0) {
                throw new IllegalStateException("corrupt state value: COUNT DISTINCT multiplicity " + count);
            }
            int r = multiset.findOrInsert(scratch, 0, SLOT_BYTES + len);
            if (r >= 0) {
                throw new IllegalStateException("COUNT DISTINCT value already held by slot " + slot
                        + ": the saved state repeats it, or the slot was not reset before loading");
            }
            link(slot, -r - 1, count);
        }
    }

    /** Initialises a new multiset entry of the key at {@code slot} and puts it at the head of its list. */
    private void link(int slot, int entry, int count) {
        if (entries.length < ENTRY * multiset.capacity()) {
            entries = Columns.grow(entries, ENTRY * multiset.capacity());
        }
        int at = ENTRY * entry;
        entries[at + MULTIPLICITY] = count;
        int first = head[slot];
        entries[at + NEXT] = first;
        entries[at + PREV] = 0;
        if (first != 0) {
            entries[ENTRY * (first - 1) + PREV] = entry + 1;
        }
        head[slot] = entry + 1;
    }

    private void unlink(int slot, int entry) {
        int p = entries[ENTRY * entry + PREV];
        int n = entries[ENTRY * entry + NEXT];
        if (p == 0) {
            head[slot] = n;
        } else {
            entries[ENTRY * (p - 1) + NEXT] = n;
        }
        if (n != 0) {
            entries[ENTRY * (n - 1) + PREV] = p;
        }
    }

    private int encode(int slot) {
        INT.set(scratch, 0, slot);
        if (argument.type() == ValueType.STRING) {
            int len = argument.stringLength;
            if (scratch.length < SLOT_BYTES + len) {
                scratch = new byte[Math.max(scratch.length * 2, SLOT_BYTES + len)];
                INT.set(scratch, 0, slot);
            }
            System.arraycopy(argument.stringBuffer, argument.stringOffset, scratch, SLOT_BYTES, len);
            return SLOT_BYTES + len;
        }
        long bits = argument.type() == ValueType.DOUBLE
                ? Double.doubleToLongBits(argument.doubleValue == 0.0 ? 0.0 : argument.doubleValue)
                : argument.longValue;
        LONG.set(scratch, SLOT_BYTES, bits);
        return SLOT_BYTES + 8;
    }

    /** Entries of the shared multiset (distinct values summed over keys); for tests. */
    int distinctEntries() {
        return multiset.size();
    }

    @Override
    public void write(long[] record, int base, int slot, Reply reply, int index) {
        reply.setLong(index, slot < 0 ? 0 : record[base + offset]);
    }
}
