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
 *  1                             epoch: a number given to each key placed in the slot (0: none),
 *                                which validates {@link SlotHints}
 *  2 (with a hot tier only)      the {@link HotTier}'s word: its flags, and the change bits of the
 *                                nodes changed since the key was last stored (in the record, not
 *                                in arrays beside it, so that marking a key changed touches the
 *                                line the event is updating anyway)
 *  s(n) .. s(n) + width(n)       node n's segment: its population, then its aggregators' longs
 *                                (layout of a segment: {@link io.railgun.engine.aggregate.StateRecord})
 * </pre>
 *
 * So an event that enters five windows grouped by card looks its card up once (the lookup is
 * memoised by the event's seq) and updates one record. A key lives while any node holds one of its
 * events, then its slot is released and reused. With a durable store ({@link KeyedState#cold()}
 * not null) the {@link HotTier} bounds the keys in memory, loads the others back and takes the
 * snapshots of checkpoints; a key's stored form is {@link KeyRecordCodec}'s. Owned by the task's
 * thread.
 */
final class KeyTable {
    static final int HOLDERS = 0;
    private static final int EPOCH = 1;
    /** The hot tier's word, in tables with a hot tier (see {@link HotTier}). */
    static final int TIER = 2;

    private final String name;
    private final KeyEncoder encoder;
    private final KeyedState keys;
    private final List<GroupByNode> nodes = new ArrayList<>();
    private final int header; // HOLDERS and EPOCH, and TIER with a hot tier
    private KeyRecords records;
    private final SlotHints hints = new SlotHints();
    private long lastEpoch;
    private int slots; // the per-slot arrays' length (hot tier, aggregators); records are allocated by page
    private final SeqMemo memo = new SeqMemo();
    private final RecordPrefetches recordPrefetches = new RecordPrefetches();
    private int tailBits; // the change bits of the nodes whose windows have tails

    private final HotTier tier; // null without a cold tier: every key stays in memory
    private final KeyEncoder prefetchEncoder; // its own buffer: prefetches come between an event's lookups

    KeyTable(String name, KeyEncoder encoder, KeyedState keys) {
        this.name = name;
        this.encoder = encoder;
        this.prefetchEncoder = encoder.copy();
        this.keys = keys;
        this.tier = keys.cold() == null ? null : new HotTier(this, keys, new KeyRecordCodec(name, nodes));
        this.header = tier == null ? TIER : TIER + 1;
        this.records = new KeyRecords(header);
    }

    String name() {
        return name;
    }

    KeyRecords records() {
        return records;
    }

    int stride() {
        return records.stride();
    }

    /** The page of {@code slot}'s record (a slot holding a key); see {@link KeyRecords}. */
    long[] page(int slot) {
        return records.page(slot);
    }

    /** Where {@code slot}'s record begins in its {@link #page}. */
    int base(int slot) {
        return records.base(slot);
    }

    /** The holders of the key at {@code slot}; 0 for a free slot. */
    long holders(int slot) {
        return records.get(slot, HOLDERS);
    }

    /** Heap bytes per slot of the {@link SlotHints} ring, now. */
    int hintBytesPerSlot() {
        return hints.bytesPerSlot(slots);
    }

    int hintEntries() { // (for tests)
        return hints.size();
    }

    boolean isEmpty() {
        return nodes.isEmpty();
    }

    /**
     * The slot of {@code row}'s key for an arrival at the node of change bit {@code bit}, inserting
     * the key when absent; one more holder.
     */
    int hold(EventRow row, long seq, int bit) {
        int slot = memo.get(seq);
        if (slot < 0) {
            slot = hints.get(seq, records, EPOCH); // a delayed window's arrival
            if (slot < 0) {
                int len = encoder.encode(row);
                slot = lookup(encoder.buffer(), len, true);
                hints.put(seq, slot, records.get(slot, EPOCH), recordPrefetches.slowestTail(tailBits), slots);
            }
            memo.put(seq, slot);
        }
        if (tier != null) {
            tier.changing(slot, bit);
        }
        records.page(slot)[records.base(slot) + HOLDERS]++;
        return slot;
    }

    /**
     * The slot of {@code row}'s key for an expiry at the node of change bit {@code bit} (the key's
     * state will change), or -1 when no node holds it.
     */
    int findForUpdate(EventRow row, long seq, int bit) {
        int slot = find(row, seq, bit);
        if (slot >= 0 && tier != null) {
            tier.changing(slot, bit);
        }
        return slot;
    }

    /** The slot of {@code row}'s key, or -1 when no node holds it ({@code seq} -1: an event not counted). */
    int find(EventRow row, long seq) {
        return find(row, seq, 0);
    }

    /**
     * As {@link #find(EventRow, long)}; {@code tailBit}: the change bit of the node whose window's
     * tail asks (which may grow the hints), or 0.
     */
    private int find(EventRow row, long seq, int tailBit) {
        if (seq >= 0) {
            if (tailBit != 0) {
                recordPrefetches.expiring(tailBit, seq);
            }
            int slot = memo.get(seq);
            if (slot < 0) {
                slot = tailBit != 0 ? hints.getForTail(seq, records, EPOCH, slots) : hints.get(seq, records, EPOCH);
            }
            if (slot >= 0) {
                return slot;
            }
        }
        int len = encoder.encode(row);
        int slot = lookup(encoder.buffer(), len, false);
        if (slot >= 0 && seq >= 0) {
            memo.put(seq, slot);
        }
        return slot;
    }

    /** The node of change bit {@code bit}'s tail passed event {@code seq}, which its filter kept from it. */
    void tailPassed(int bit, long seq) {
        recordPrefetches.passed(bit, seq);
    }

    /** Notes that {@code row}'s key will be looked up soon ({@link io.railgun.engine.state.Prefetches}). */
    void prefetch(EventRow row) {
        int len = prefetchEncoder.encode(row);
        keys.prefetch(prefetchEncoder.buffer(), 0, len);
    }

    /**
     * Loads what {@link #prefetch} noted, then the records the group's events will touch
     * ({@link RecordPrefetches}); returns anything.
     */
    long issuePrefetches() {
        return keys.issuePrefetches() + recordPrefetches.load(keys, hints, records, EPOCH, nodes);
    }

    /** A key's slot: hot, or loaded from the cold tier, or (when {@code insert}) new; else -1. */
    private int lookup(byte[] key, int len, boolean insert) {
        int slot = keys.find(key, 0, len);
        if (slot >= 0) {
            return insert || holders(slot) > 0 ? slot : -1; // (an emptied key kept hot: as absent)
        }
        if (tier != null) {
            return tier.lookupCold(key, len, insert);
        }
        return insert ? insertHot(key, len) : -1;
    }

    /** Places a key not hot in a free slot (evicting one first when the hot tier is full). */
    int insertHot(byte[] key, int len) {
        if (tier != null) {
            tier.makeRoom();
        }
        int slot = -keys.findOrInsert(key, 0, len) - 1;
        if (slot >= slots) {
            grow(keys.capacity());
        }
        records.ensure(slot);
        if (tier != null) {
            tier.inserted(slot);
        }
        records.page(slot)[records.base(slot) + EPOCH] = ++lastEpoch;
        return slot;
    }

    /** The hot tier moved the key at {@code slot} out of memory (stored if it had changed): the slot is free. */
    void evicted(int slot) {
        keys.release(slot);
        records.clear(slot);
        for (GroupByNode n : nodes) {
            n.resetExternal(slot);
        }
        memo.forget(slot);
    }

    /**
     * Begins a snapshot of the keys changed since the last one ({@link HotTier#beginSnapshot()});
     * no-op without a cold tier.
     */
    void beginSnapshot() {
        if (tier != null) {
            tier.beginSnapshot();
        }
    }

    /** Saves up to {@code budget} keys of the snapshot being taken; true once all are saved (or none is being taken). */
    boolean sweepSnapshot(int budget) {
        return tier == null || tier.sweepSnapshot(budget);
    }

    /** Keys moved out of memory, and loaded back, since the table was created. */
    long evictions() {
        return tier == null ? 0 : tier.evictions();
    }

    long loads() {
        return tier == null ? 0 : tier.loads();
    }

    /** Keys in memory. */
    int hotKeys() {
        return keys.size();
    }

    /**
     * One holder of the key at {@code slot} let go. When none is left, the key is released, but
     * with a hot tier it stays hot, empty, until the tier frees it ({@link HotTier}: first when room
     * is needed, or at the next snapshot's sweep) or an arrival takes it back: a key back
     * soon after leaving its windows (18% of E1's events) then costs neither a release — its index
     * entry removed, its stored copy deleted through the write buffer's index — nor an insertion.
     * A lookup that does not insert finds an emptied key absent.
     */
    void unhold(int slot) {
        if (--records.page(slot)[records.base(slot) + HOLDERS] == 0) {
            if (tier == null) {
                release(slot);
            } else {
                tier.emptied(slot);
            }
        }
    }

    /** The key at {@code slot} left every window (its stored copy goes too): the slot is free. */
    void release(int slot) {
        if (tier != null) {
            tier.released(slot);
        }
        records.page(slot)[records.base(slot) + EPOCH] = 0;
        keys.release(slot);
        memo.forget(slot);
    }

    void attach(GroupByNode node) {
        nodes.add(node);
        relayout();
    }

    /** Removes a node, dropping its holds on every key. */
    void detach(GroupByNode node) {
        int segment = node.segment();
        for (int s = 0, allocated = records.slots(); s < allocated; s++) {
            long[] page = records.page(s);
            int base = records.base(s);
            long population = page[base + segment];
            if (population > 0) {
                node.resetExternal(s);
                page[base + HOLDERS] -= population;
                if (page[base + HOLDERS] == 0) {
                    release(s);
                }
            }
        }
        nodes.remove(node);
        relayout();
    }

    /**
     * Lays the records out again after nodes or their aggregators changed, keeping the state of
     * every node and aggregator that was laid out before; gives each node its change bit (its
     * index, the nodes past the 31st sharing the last).
     */
    void relayout() {
        int newStride = header;
        int[] segments = new int[nodes.size()];
        for (int i = 0; i < nodes.size(); i++) {
            segments[i] = newStride;
            newStride += nodes.get(i).width();
        }
        int allocated = records.slots();
        KeyRecords next = new KeyRecords(newStride);
        if (allocated > 0) {
            next.ensure(allocated - 1);
        }
        int allBits = 0;
        int tails = 0;
        for (int i = 0; i < nodes.size(); i++) {
            GroupByNode node = nodes.get(i);
            int[] innerOffsets = node.innerOffsets();
            if (node.segment() >= 0) {
                List<Aggregator> aggregators = node.aggregators();
                Set<Aggregator> laidOut = node.laidOut();
                for (int s = 0; s < allocated; s++) {
                    long[] fromPage = records.page(s);
                    long[] toPage = next.page(s);
                    int from = records.base(s) + node.segment();
                    int to = next.base(s) + segments[i];
                    toPage[to] = fromPage[from]; // population
                    for (int k = 0; k < aggregators.size(); k++) {
                        Aggregator a = aggregators.get(k);
                        if (laidOut.contains(a)) {
                            System.arraycopy(fromPage, from + a.offset(), toPage, to + innerOffsets[k], a.width());
                        }
                    }
                }
            }
            node.laidOutAt(segments[i], innerOffsets, slots);
            node.changeBit(1 << Math.min(i, 31));
            allBits |= node.changeBit();
            tails |= node.hasTail() ? node.changeBit() : 0;
        }
        for (int s = 0; s < allocated; s++) {
            System.arraycopy(records.page(s), records.base(s), next.page(s), next.base(s), header);
        }
        records = next;
        tailBits = tails;
        if (tier != null) {
            tier.relaidOut(allBits);
        }
    }

    /** The index's slot table grew to {@code capacity} (doubled, or to a hot tier's limit): the per-slot arrays follow. */
    private void grow(int capacity) {
        slots = Math.max(capacity, 16);
        for (GroupByNode n : nodes) {
            n.ensureCapacity(slots);
        }
        if (tier != null) {
            tier.grow(slots);
        }
    }

    static Set<Aggregator> newIdentitySet() {
        return java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    }
}
