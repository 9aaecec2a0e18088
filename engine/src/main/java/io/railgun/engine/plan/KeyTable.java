package io.railgun.engine.plan;

import io.railgun.engine.aggregate.Aggregator;
import io.railgun.engine.event.EventRow;
import io.railgun.engine.state.KeyedState;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The keys of one GROUP BY field list in a task, shared by every group-by node on those fields
 * (whatever their window or filter), and one state record of longs per key holding all those
 * nodes' state side by side:
 *
 * <pre>
 *  index in a key's record       content
 *  0                             holders: the sum of the nodes' populations of this key
 *  s(n) .. s(n) + width(n)       node n's segment: its population, then its aggregators' longs
 *                                (layout of a segment: {@link io.railgun.engine.aggregate.StateRecord})
 * </pre>
 *
 * So an event that enters five windows grouped by card looks its card up once (the lookup is
 * memoised by the event's seq) and updates one record. A key lives while any node holds one of its
 * events, then its slot is released and reused. Owned by the task's thread.
 */
final class KeyTable {
    private static final int HOLDERS = 0;

    private final String name;
    private final KeyEncoder encoder;
    private final KeyedState keys;
    private final List<GroupByNode> nodes = new ArrayList<>();
    private long[] records = new long[0];
    private int stride = 1;
    private int slots;
    private long memoSeq = -1;
    private int memoSlot;

    KeyTable(String name, KeyEncoder encoder, KeyedState keys) {
        this.name = name;
        this.encoder = encoder;
        this.keys = keys;
    }

    String name() {
        return name;
    }

    long[] records() {
        return records;
    }

    int stride() {
        return stride;
    }

    boolean isEmpty() {
        return nodes.isEmpty();
    }

    /** The slot of {@code row}'s key for an arrival, inserting the key when absent; one more holder. */
    int hold(EventRow row, long seq) {
        int slot;
        if (seq == memoSeq) {
            slot = memoSlot;
        } else {
            int len = encoder.encode(row);
            slot = keys.findOrInsert(encoder.buffer(), 0, len);
            if (slot < 0) {
                slot = -slot - 1;
                if (slot >= slots) {
                    grow(keys.capacity());
                }
            }
            memoSeq = seq;
            memoSlot = slot;
        }
        records[slot * stride + HOLDERS]++;
        return slot;
    }

    /** The slot of {@code row}'s key, or -1 when no node holds it ({@code seq} -1: an event not counted). */
    int find(EventRow row, long seq) {
        if (seq >= 0 && seq == memoSeq) {
            return memoSlot;
        }
        int len = encoder.encode(row);
        int slot = keys.find(encoder.buffer(), 0, len);
        if (slot >= 0 && seq >= 0) {
            memoSeq = seq;
            memoSlot = slot;
        }
        return slot;
    }

    /** One holder of the key at {@code slot} let go; the key is released when none is left. */
    void unhold(int slot) {
        if (--records[slot * stride + HOLDERS] == 0) {
            release(slot);
        }
    }

    private void release(int slot) {
        keys.release(slot);
        if (memoSlot == slot) {
            memoSeq = -1;
        }
    }

    void attach(GroupByNode node) {
        nodes.add(node);
        relayout();
    }

    /** Removes a node, dropping its holds on every key. */
    void detach(GroupByNode node) {
        int segment = node.segment();
        for (int s = 0; s < slots; s++) {
            int base = s * stride;
            long population = records[base + segment];
            if (population > 0) {
                node.resetExternal(s);
                records[base + HOLDERS] -= population;
                if (records[base + HOLDERS] == 0) {
                    release(s);
                }
            }
        }
        nodes.remove(node);
        relayout();
    }

    /**
     * Lays the records out again after nodes or their aggregators changed, keeping the state of
     * every node and aggregator that was laid out before.
     */
    void relayout() {
        int newStride = 1;
        int[] segments = new int[nodes.size()];
        for (int i = 0; i < nodes.size(); i++) {
            segments[i] = newStride;
            newStride += nodes.get(i).width();
        }
        long[] next = new long[slots * newStride];
        for (int i = 0; i < nodes.size(); i++) {
            GroupByNode node = nodes.get(i);
            int[] innerOffsets = node.innerOffsets();
            if (node.segment() >= 0) {
                List<Aggregator> aggregators = node.aggregators();
                Set<Aggregator> laidOut = node.laidOut();
                for (int s = 0; s < slots; s++) {
                    int from = s * stride + node.segment();
                    int to = s * newStride + segments[i];
                    next[to] = records[from]; // population
                    for (int k = 0; k < aggregators.size(); k++) {
                        Aggregator a = aggregators.get(k);
                        if (laidOut.contains(a)) {
                            System.arraycopy(records, from + a.offset(), next, to + innerOffsets[k], a.width());
                        }
                    }
                }
            }
            node.laidOutAt(segments[i], innerOffsets, slots);
        }
        for (int s = 0; s < slots; s++) {
            next[s * newStride + HOLDERS] = records[s * stride + HOLDERS];
        }
        records = next;
        stride = newStride;
    }

    private void grow(int capacity) {
        int newSlots = Math.max(capacity, Math.max(16, slots * 2));
        records = java.util.Arrays.copyOf(records, newSlots * stride);
        slots = newSlots;
        for (GroupByNode n : nodes) {
            n.ensureCapacity(slots);
        }
    }

    static Set<Aggregator> newIdentitySet() {
        return java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    }
}
