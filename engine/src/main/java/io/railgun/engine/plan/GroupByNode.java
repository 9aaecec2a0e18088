package io.railgun.engine.plan;

import io.railgun.engine.aggregate.Aggregator;
import io.railgun.engine.aggregate.StateRecord;
import io.railgun.engine.event.EventRow;
import io.railgun.engine.state.KeyedState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The Group By operator: maps each event to its key's slot in the node's {@link KeyedState} and
 * feeds its aggregators. Every key has one state record of {@code stride} longs in
 * {@link #records} (layout in {@link StateRecord}): the key's population, then each aggregator's
 * longs, so one event touches one or two cache lines of state. When a key's last event expires its
 * record is zeroed and the slot released, so state holds only keys present in the window.
 */
final class GroupByNode {
    private final String name;
    private final KeyEncoder encoder;
    private final KeyedState state;
    private final List<Aggregator> aggregators = new ArrayList<>();
    private Aggregator[] dispatch = new Aggregator[0];
    private long[] records = new long[0];
    private int stride = StateRecord.FIRST_AGGREGATOR;
    private int slots; // records has room for this many slots
    // the slot of the last arrival: the reply to an event usually reads the key it just updated
    private long lastArrivalSeq = -1;
    private int lastArrivalSlot;

    GroupByNode(String name, KeyEncoder encoder, KeyedState state) {
        this.name = name;
        this.encoder = encoder;
        this.state = state;
    }

    String name() {
        return name;
    }

    void add(Aggregator a) {
        List<Aggregator> next = new ArrayList<>(aggregators);
        next.add(a);
        relayout(next);
    }

    /** Removes an aggregator; true when the node has none left. */
    boolean remove(Aggregator a) {
        List<Aggregator> next = new ArrayList<>(aggregators);
        next.remove(a);
        relayout(next);
        return next.isEmpty();
    }

    /** Lays records out for a new list of aggregators, keeping every present key's state. */
    private void relayout(List<Aggregator> next) {
        int newStride = StateRecord.FIRST_AGGREGATOR;
        int[] newOffsets = new int[next.size()];
        for (int i = 0; i < next.size(); i++) {
            newOffsets[i] = newStride;
            newStride += next.get(i).width();
        }
        long[] newRecords = new long[slots * newStride];
        for (int s = 0; s < slots; s++) {
            newRecords[s * newStride + StateRecord.POPULATION] = records[s * stride + StateRecord.POPULATION];
            for (int i = 0; i < next.size(); i++) {
                Aggregator a = next.get(i);
                if (aggregators.contains(a)) {
                    System.arraycopy(records, s * stride + a.offset(), newRecords, s * newStride + newOffsets[i], a.width());
                }
            }
        }
        for (int i = 0; i < next.size(); i++) {
            next.get(i).offset(newOffsets[i]);
            next.get(i).ensureCapacity(slots);
        }
        aggregators.clear();
        aggregators.addAll(next);
        dispatch = next.toArray(new Aggregator[0]);
        records = newRecords;
        stride = newStride;
    }

    void arrive(long timestamp, long seq, EventRow row) {
        int len = encoder.encode(row);
        int slot = state.findOrInsert(encoder.buffer(), 0, len);
        if (slot < 0) {
            slot = -slot - 1;
            if (slot >= slots) {
                grow(state.capacity());
            }
        }
        long[] r = records;
        int base = slot * stride;
        r[base]++;
        for (Aggregator a : dispatch) {
            a.arrive(r, base, slot, timestamp, seq, row);
        }
        lastArrivalSeq = seq;
        lastArrivalSlot = slot;
    }

    void expire(long timestamp, long seq, EventRow row) {
        int len = encoder.encode(row);
        int slot = state.find(encoder.buffer(), 0, len);
        if (slot < 0) {
            throw new IllegalStateException("expired an event whose key is not in the window (node " + name + ")");
        }
        long[] r = records;
        int base = slot * stride;
        for (Aggregator a : dispatch) {
            a.expire(r, base, slot, timestamp, seq, row);
        }
        if (--r[base] == 0) {
            Arrays.fill(r, base, base + stride, 0L);
            for (Aggregator a : dispatch) {
                a.reset(slot);
            }
            state.release(slot);
            if (lastArrivalSlot == slot) {
                lastArrivalSeq = -1;
            }
        }
    }

    /** Writes the value of aggregator {@code a} for {@code slot} (or -1: no event of the key in the window). */
    void write(Aggregator a, int slot, io.railgun.engine.task.Reply reply, int index) {
        a.write(records, slot < 0 ? 0 : slot * stride, slot, reply, index);
    }

    /** The slot of {@code row}'s key, or -1 when the window holds none of its events. */
    int slotOf(EventRow row, long seq) {
        if (seq >= 0 && seq == lastArrivalSeq) {
            return lastArrivalSlot;
        }
        int len = encoder.encode(row);
        return state.find(encoder.buffer(), 0, len);
    }

    /** Number of keys currently in the window. */
    int keys() {
        return state.size();
    }

    private void grow(int capacity) {
        int newSlots = Math.max(capacity, slots * 2);
        records = Arrays.copyOf(records, newSlots * stride);
        slots = newSlots;
        for (Aggregator a : dispatch) {
            a.ensureCapacity(slots);
        }
    }
}
