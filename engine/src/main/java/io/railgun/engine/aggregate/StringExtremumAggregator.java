package io.railgun.engine.aggregate;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.expr.Evaluator;
import io.railgun.engine.expr.ValueType;
import io.railgun.engine.state.StateReader;
import io.railgun.engine.state.StateWriter;
import io.railgun.engine.task.Reply;
import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * {@code MIN} and {@code MAX} of STRING values (UTF-8 byte order = code point order), with the same
 * monotonic-deque algorithm as {@link ExtremumDeque}. Each kept entry holds a copy of its string,
 * so this aggregator allocates for the values it keeps (numeric MIN/MAX do not).
 *
 * <p>External state, saved per key, little-endian: {@code int n}, then the n entries of the key's
 * deque from front to back, each {@code long timestamp, long seq, int length, length bytes} (UTF-8).
 */
public final class StringExtremumAggregator extends Aggregator {
    private final int sign;
    private ArrayDeque<Entry>[] deques = newArray(0);

    private record Entry(long ts, long seq, byte[] value) {}

    public StringExtremumAggregator(boolean max, Evaluator argument) {
        super(argument);
        this.sign = max ? 1 : -1;
    }

    @SuppressWarnings("unchecked")
    private static ArrayDeque<Entry>[] newArray(int n) {
        return (ArrayDeque<Entry>[]) new ArrayDeque<?>[n];
    }

    @Override
    public ValueType resultType() {
        return ValueType.STRING;
    }

    @Override
    public int width() {
        return 0;
    }

    @Override
    public void ensureCapacity(int slots) {
        deques = Columns.grow(deques, slots);
    }

    @Override
    public void arrive(long[] record, int base, int slot, long timestamp, long seq, EventRow row) {
        if (!argument.eval(row)) {
            return;
        }
        ArrayDeque<Entry> d = deques[slot];
        if (d == null) {
            d = new ArrayDeque<>();
            deques[slot] = d;
        }
        byte[] buf = argument.stringBuffer;
        int off = argument.stringOffset;
        int len = argument.stringLength;
        // Entries are few in practice; rebuild through a scan from the back (newest first).
        Entry[] all = d.toArray(new Entry[0]);
        int p = all.length;
        while (p > 0 && (all[p - 1].ts > timestamp || (all[p - 1].ts == timestamp && all[p - 1].seq > seq))) {
            p--;
        }
        if (p < all.length && compare(all[p].value, buf, off, len) * sign >= 0) {
            return;
        }
        int q = p;
        while (q > 0 && compare(all[q - 1].value, buf, off, len) * sign <= 0) {
            q--;
        }
        d.clear();
        for (int i = 0; i < q; i++) {
            d.addLast(all[i]);
        }
        d.addLast(new Entry(timestamp, seq, Arrays.copyOfRange(buf, off, off + len)));
        for (int i = p; i < all.length; i++) {
            d.addLast(all[i]);
        }
    }

    private static int compare(byte[] a, byte[] b, int off, int len) {
        return Arrays.compareUnsigned(a, 0, a.length, b, off, off + len);
    }

    @Override
    public void expire(long[] record, int base, int slot, long timestamp, long seq, EventRow row) {
        ArrayDeque<Entry> d = deques[slot];
        if (d != null && !d.isEmpty() && d.peekFirst().ts == timestamp && d.peekFirst().seq == seq) {
            d.pollFirst();
        }
    }

    @Override
    public void reset(int slot) {
        if (deques[slot] != null) {
            deques[slot].clear();
        }
    }

    @Override
    public void saveExternal(int slot, StateWriter out) {
        ArrayDeque<Entry> d = deques[slot];
        if (d == null) {
            out.putInt(0);
            return;
        }
        out.putInt(d.size());
        for (Entry e : d) {
            out.putLong(e.ts).putLong(e.seq).putBytes(e.value, 0, e.value.length);
        }
    }

    @Override
    public void loadExternal(long[] record, int base, int slot, StateReader in) {
        int n = in.getInt();
        if (n < 0) {
            throw new IllegalStateException("corrupt state value: string MIN/MAX deque of " + n + " entries");
        }
        ArrayDeque<Entry> d = deques[slot];
        if (d != null) {
            d.clear();
        } else if (n > 0) {
            d = new ArrayDeque<>();
            deques[slot] = d;
        }
        for (int i = 0; i < n; i++) {
            long ts = in.getLong();
            long seq = in.getLong();
            int len = in.getBytesLength();
            int from = in.position() - len;
            d.addLast(new Entry(ts, seq, Arrays.copyOfRange(in.buffer(), from, from + len)));
        }
    }

    @Override
    public void write(long[] record, int base, int slot, Reply reply, int index) {
        ArrayDeque<Entry> d = slot < 0 ? null : deques[slot];
        if (d == null || d.isEmpty()) {
            reply.setNull(index);
        } else {
            byte[] v = d.peekFirst().value;
            reply.setString(index, v, 0, v.length);
        }
    }
}
