package io.railgun.engine.plan;

import io.railgun.engine.aggregate.Aggregator;
import io.railgun.engine.event.EventRow;
import io.railgun.engine.state.KeyedState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The Group By operator: maps each event to its key's slot in the node's {@link KeyedState} and
 * feeds its aggregators. It counts the window's events per key (population); when a key's last
 * event expires, its aggregators are reset and the slot released, so state holds only keys present
 * in the window.
 */
final class GroupByNode {
    private final String name;
    private final KeyEncoder encoder;
    private final KeyedState state;
    private final List<Aggregator> aggregators = new ArrayList<>();
    private Aggregator[] dispatch = new Aggregator[0];
    private int[] population = new int[0];
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
        a.ensureCapacity(population.length);
        aggregators.add(a);
        dispatch = aggregators.toArray(new Aggregator[0]);
    }

    boolean remove(Aggregator a) {
        aggregators.remove(a);
        dispatch = aggregators.toArray(new Aggregator[0]);
        return aggregators.isEmpty();
    }

    void arrive(long timestamp, long seq, EventRow row) {
        int len = encoder.encode(row);
        int r = state.findOrInsert(encoder.buffer(), 0, len);
        int slot = r;
        if (r < 0) {
            slot = -r - 1;
            if (slot >= population.length) {
                grow(state.capacity());
            }
        }
        population[slot]++;
        for (Aggregator a : dispatch) {
            a.arrive(slot, timestamp, seq, row);
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
        for (Aggregator a : dispatch) {
            a.expire(slot, timestamp, seq, row);
        }
        if (--population[slot] == 0) {
            for (Aggregator a : dispatch) {
                a.reset(slot);
            }
            state.release(slot);
            if (lastArrivalSlot == slot) {
                lastArrivalSeq = -1;
            }
        }
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
        population = Arrays.copyOf(population, Math.max(capacity, population.length * 2));
        for (Aggregator a : dispatch) {
            a.ensureCapacity(population.length);
        }
    }
}
