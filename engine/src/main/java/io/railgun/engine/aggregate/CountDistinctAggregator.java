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
import java.util.HashMap;
import java.util.Map;

/**
 * Exact {@code COUNT(DISTINCT expr)}: a multiset per key, whose first value is kept in the key's
 * record and the others in one {@link ByteKeyIndex} shared by all keys, over (key slot, value
 * bytes) entries holding how many events of the window carry that value. The per-key distinct
 * count goes up when a value is first held and down when its last event leaves. Doubles count
 * -0.0 and 0.0 as one value.
 *
 * <p><b>The value in the record.</b> Most keys hold one distinct value at a time (a card's
 * country over months, its merchant within a day), and a key's record is in the cache when its
 * events arrive or leave (the task prefetches it), while each entry of the shared index is a cache
 * miss or two on a multiset of millions (COUNT DISTINCT was a fifth of FRAUD's time in memory).
 * So a value whose bytes fit in a long (numbers, booleans, strings of up to 8 UTF-8 bytes) is held
 * in the record when the key holds no other value (its index entries would be looked at first);
 * it stays there until its last event leaves. A value is in one place only: the record's, or an
 * entry of the index.
 *
 * <p>The entries of each key in the index are chained in a doubly linked list ({@code head} per key
 * slot, {@code next}/{@code prev} per entry, all holding entry + 1 with 0 for none), so one key's
 * entries can be saved, or dropped by {@link #reset} when the key leaves the hot tier still holding
 * events. An entry's multiplicity, next and prev sit side by side in one int array (three ints per
 * entry): one cache miss per entry update instead of three.
 *
 * <p>Multiplicities are exact up to 2^60 in the record and 2^63 in the index (a value repeated
 * 2^31 times is 36 minutes of one key at 1 M ev/s, under a long window): an index entry's int
 * stays under {@link #largeFrom}; when an event would take it there, half of that is moved to the
 * entry's count in {@link #carried}, and moved back when the int would fall to 0 while some is
 * carried. So the map is touched once in {@code largeFrom / 2} events of such a value, not per event.
 *
 * <p>Record, {@value #WIDTH} longs: the number of distinct values, the record's value (its bytes,
 * little-endian, zero-padded), its length in bytes &lt;&lt; 60 | its multiplicity (0: no value in
 * the record). External state, saved per key, little-endian: {@code int n}, then the key's n values
 * in the index, each {@code int length, length value bytes, int multiplicity} — or, for a
 * multiplicity over {@code Integer.MAX_VALUE - 1}, {@code int -1, long multiplicity}; value bytes
 * are the UTF-8 string, or the 8-byte long / double bits / boolean. State saved before the record
 * held a value (a record of one long) is restored with every value in the index.
 */
public final class CountDistinctAggregator extends Aggregator {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final int SLOT_BYTES = 4;
    static final int WIDTH = 3;
    // longs of the record, after offset
    private static final int DISTINCT = 0;
    private static final int VALUE = 1;
    private static final int LENGTH_MULTIPLICITY = 2;
    private static final int LENGTH_SHIFT = 60;
    private static final long MULTIPLICITY_MASK = (1L << LENGTH_SHIFT) - 1;
    private static final int SAVED_AS_LONG = -1; // a saved multiplicity that follows as a long
    private static final int NOT_INLINE = -1; // a value longer than 8 bytes

    private final ByteKeyIndex multiset = new ByteKeyIndex(1024);
    // per multiset entry e, at ENTRY * e: multiplicity, next, prev
    private static final int ENTRY = 3;
    private static final int MULTIPLICITY = 0;
    private static final int NEXT = 1;
    private static final int PREV = 2;
    private int[] entries = new int[0];
    // the bound of an entry's int (Integer.MAX_VALUE; lower in tests), and what is moved at a time
    private final int largeFrom;
    private final int half;
    // per entry whose multiplicity went past the int: the events counted here rather than in its int
    private final Map<Integer, Long> carried = new HashMap<>();
    // per key slot: first entry of the key's list, + 1 (0 = none)
    private int[] head = new int[0];
    private byte[] scratch = new byte[64];
    // the current value as the record holds it: its bytes and length (NOT_INLINE if it cannot be)
    private long inlineBits;
    private int inlineLength;

    public CountDistinctAggregator(Evaluator argument) {
        this(argument, Integer.MAX_VALUE);
    }

    /** With index multiplicities from {@code largeFrom} (at least 2) partly {@link #carried}: for tests. */
    CountDistinctAggregator(Evaluator argument, int largeFrom) {
        super(argument);
        if (largeFrom < 2) {
            throw new IllegalArgumentException("largeFrom " + largeFrom);
        }
        this.largeFrom = largeFrom;
        this.half = largeFrom / 2;
    }

    @Override
    public ValueType resultType() {
        return ValueType.LONG;
    }

    @Override
    public int width() {
        return WIDTH;
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
        int at = base + offset;
        inline();
        long held = record[at + LENGTH_MULTIPLICITY];
        if ((held & MULTIPLICITY_MASK) != 0) {
            if (inlineLength == (int) (held >>> LENGTH_SHIFT) && inlineBits == record[at + VALUE]) {
                record[at + LENGTH_MULTIPLICITY] = held + 1;
                return;
            }
        } else if (inlineLength != NOT_INLINE && record[at + DISTINCT] == 0) {
            // no value in the record, so the distinct count is the key's index entries: none (read
            // from the record in the cache, not from head[slot], a miss on most arrivals of a key
            // that had emptied)
            record[at + VALUE] = inlineBits;
            record[at + LENGTH_MULTIPLICITY] = (long) inlineLength << LENGTH_SHIFT | 1;
            record[at + DISTINCT]++;
            return;
        }
        int len = encode(slot);
        int r = multiset.findOrInsert(scratch, 0, len);
        if (r < 0) {
            link(slot, -r - 1, 1);
            record[at + DISTINCT]++;
        } else {
            int m = entries[ENTRY * r + MULTIPLICITY];
            if (m < largeFrom - 1) {
                entries[ENTRY * r + MULTIPLICITY] = m + 1;
            } else {
                carried.merge(r, (long) half, Long::sum); // once in half events of this value
                entries[ENTRY * r + MULTIPLICITY] = m + 1 - half;
            }
        }
    }

    @Override
    public void expire(long[] record, int base, int slot, long timestamp, long seq, EventRow row) {
        if (!argument.eval(row)) {
            return;
        }
        int at = base + offset;
        inline();
        long held = record[at + LENGTH_MULTIPLICITY];
        if ((held & MULTIPLICITY_MASK) != 0 && inlineLength == (int) (held >>> LENGTH_SHIFT)
                && inlineBits == record[at + VALUE]) {
            if ((held & MULTIPLICITY_MASK) == 1) {
                record[at + VALUE] = 0;
                record[at + LENGTH_MULTIPLICITY] = 0;
                record[at + DISTINCT]--;
            } else {
                record[at + LENGTH_MULTIPLICITY] = held - 1;
            }
            return;
        }
        int len = encode(slot);
        int entry = multiset.find(scratch, 0, len);
        if (entry < 0) {
            return;
        }
        int m = entries[ENTRY * entry + MULTIPLICITY];
        if (m > 1) {
            entries[ENTRY * entry + MULTIPLICITY] = m - 1;
        } else if (!carried.isEmpty() && carried.containsKey(entry)) {
            entries[ENTRY * entry + MULTIPLICITY] = uncarry(entry); // m - 1 + what comes back, m being 1
        } else {
            unlink(slot, entry);
            // by the value's bytes, whose bucket find() just read: removeSlot would read the key back
            // from the arena first (two more cache misses)
            multiset.remove(scratch, 0, len);
            record[at + DISTINCT]--;
        }
    }

    /** Takes up to {@link #half} of the events {@link #carried} for {@code entry} back; returns how many. */
    private int uncarry(int entry) {
        long c = carried.get(entry);
        int back = (int) Math.min(c, half);
        if (c == back) {
            carried.remove(entry);
        } else {
            carried.put(entry, c - back);
        }
        return back;
    }

    private long multiplicity(int entry) {
        long m = entries[ENTRY * entry + MULTIPLICITY];
        return carried.isEmpty() ? m : m + carried.getOrDefault(entry, 0L);
    }

    /** A key emptied by expiry holds no entry (its count is 0): its list head is not reached. */
    @Override
    public void resetKey(long[] record, int base, int slot) {
        if (record[base + offset + DISTINCT] != 0) {
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
            if (!carried.isEmpty()) {
                carried.remove(entry);
            }
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
            out.putBytes(scratch, SLOT_BYTES, len - SLOT_BYTES);
            long m = multiplicity(entry);
            if (m < Integer.MAX_VALUE) {
                out.putInt((int) m);
            } else {
                out.putInt(SAVED_AS_LONG).putLong(m);
            }
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
            int saved = in.getInt();
            long count = saved == SAVED_AS_LONG ? in.getLong() : saved;
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

    /** State saved with a record of one long (the count alone): every value is in the index. */
    @Override
    public void restoredWithoutRecord(long[] record, int at, int slot) {
        long n = 0;
        for (int e = head[slot]; e != 0; e = entries[ENTRY * (e - 1) + NEXT]) {
            n++;
        }
        record[at + DISTINCT] = n;
    }

    /** Initialises a new multiset entry of the key at {@code slot} and puts it at the head of its list. */
    private void link(int slot, int entry, long count) {
        if (entries.length < ENTRY * multiset.capacity()) {
            entries = Columns.grow(entries, ENTRY * multiset.capacity());
        }
        int at = ENTRY * entry;
        if (count < largeFrom) {
            entries[at + MULTIPLICITY] = (int) count;
        } else {
            entries[at + MULTIPLICITY] = half;
            carried.put(entry, count - half);
        }
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

    /** Sets {@link #inlineBits} and {@link #inlineLength} from the argument's current value. */
    private void inline() {
        if (argument.type() == ValueType.STRING) {
            int len = argument.stringLength;
            if (len > 8) {
                inlineLength = NOT_INLINE;
                return;
            }
            byte[] b = argument.stringBuffer;
            int from = argument.stringOffset;
            long bits = 0;
            for (int i = 0; i < len; i++) {
                bits |= (b[from + i] & 0xFFL) << (8 * i);
            }
            inlineBits = bits;
            inlineLength = len;
            return;
        }
        inlineBits = argument.type() == ValueType.DOUBLE
                ? Double.doubleToLongBits(argument.doubleValue == 0.0 ? 0.0 : argument.doubleValue)
                : argument.longValue;
        inlineLength = 8;
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
        reply.setLong(index, slot < 0 ? 0 : record[base + offset + DISTINCT]);
    }
}
