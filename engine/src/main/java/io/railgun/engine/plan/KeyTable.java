package io.railgun.engine.plan;

import io.railgun.engine.aggregate.Aggregator;
import io.railgun.engine.event.EventRow;
import io.railgun.engine.state.ColdKeys;
import io.railgun.engine.state.KeyedState;
import io.railgun.engine.state.StateReader;
import io.railgun.engine.state.StateWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
 *  s(n) .. s(n) + width(n)       node n's segment: its population, then its aggregators' longs
 *                                (layout of a segment: {@link io.railgun.engine.aggregate.StateRecord})
 * </pre>
 *
 * So an event that enters five windows grouped by card looks its card up once (the lookup is
 * memoised by the event's seq) and updates one record. A key lives while any node holds one of its
 * events, then its slot is released and reused.
 *
 * <p><b>Hot tier.</b> With a durable store ({@link KeyedState#cold()} not null) at most
 * {@link KeyedState#hotLimit()} keys are in memory. Inserting one more evicts a key chosen by a
 * clock sweep (recently used keys get a second chance); a changed key is serialised and handed to
 * the cold tier, an unchanged one (its cold copy is current) is just dropped. A key that is not hot
 * is looked up in the cold tier and loaded back into a free slot. Serialised form of a key (only
 * the nodes holding events of it; ids are 64-bit hashes of the plan's operator names, so state
 * written before a restart or a metric change finds its node and aggregator again, and the state
 * of deleted ones is skipped):
 *
 * <pre>
 *  int    number of nodes
 *  per node:       long node id, long population, int number of aggregators
 *  per aggregator: long aggregator id, int width, width longs, int n, n bytes of external state
 * </pre>
 *
 * <p><b>Snapshots</b> (for checkpoints) are taken without a pause proportional to the keys:
 * {@link #beginSnapshot()} only marks the keys changed since the last one; {@link #sweepSnapshot}
 * then saves a bounded number of them per call, and a marked key about to change, or to be
 * evicted, is saved first (copy on write). So the snapshot holds every key as it was when it
 * began. Owned by the task's thread.
 */
final class KeyTable {
    private static final int HOLDERS = 0;
    private static final int EPOCH = 1;
    private static final int HEADER = 2;
    private static final byte DIRTY = 1; // changed since its cold copy was written
    private static final byte DURABLE = 2; // the cold tier may hold a copy of it
    private static final byte REFERENCED = 4; // used since the clock hand last passed
    private static final byte SNAPSHOT = 8; // changed before the snapshot being taken began, not saved into it yet

    private final String name;
    private final KeyEncoder encoder;
    private final KeyedState keys;
    private final List<GroupByNode> nodes = new ArrayList<>();
    private long[] records = new long[0];
    private int stride = HEADER;
    private final SlotHints hints = new SlotHints();
    private long lastEpoch;
    private int slots;
    // Lookups memoised by event seq: the last one, and the newest event's (the one being processed:
    // it arrives at several nodes and is evaluated for the reply after the tails looked up older
    // events, which replace the last one)
    private long memoSeq = -1;
    private int memoSlot;
    private long newestSeq = -1;
    private int newestSlot;

    private final ColdKeys cold;
    private byte[] flags = new byte[0];
    private int clockHand;
    private final StateWriter out = new StateWriter();
    private final StateReader in = new StateReader();
    private byte[] keyScratch = new byte[64];
    private long evictions;
    private long loads;
    private int sweep = -1; // next slot the snapshot sweep looks at; -1: no snapshot being taken
    // external (outside the records) bytes of the keys serialised since the last report, and their count
    private long externalBytes;
    private long serialisedBytes;
    private long serialised;
    private int externalPerKey;
    private int serialisedPerKey;

    KeyTable(String name, KeyEncoder encoder, KeyedState keys) {
        this.name = name;
        this.encoder = encoder;
        this.keys = keys;
        this.cold = keys.cold();
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
        int slot = memoised(seq);
        if (slot < 0) {
            slot = hints.get(seq, records, stride, EPOCH); // a delayed window's arrival
            if (slot < 0) {
                int len = encoder.encode(row);
                slot = lookup(encoder.buffer(), len, true);
                hints.put(seq, slot, records[slot * stride + EPOCH]);
            }
            memoise(seq, slot);
        }
        if ((flags[slot] & SNAPSHOT) != 0) {
            saveSnapshot(slot);
        }
        records[slot * stride + HOLDERS]++;
        flags[slot] |= DIRTY | REFERENCED;
        return slot;
    }

    /** The slot of {@code row}'s key for an expiry (the key's state will change), or -1 when no node holds it. */
    int findForUpdate(EventRow row, long seq) {
        int slot = find(row, seq);
        if (slot >= 0) {
            if ((flags[slot] & SNAPSHOT) != 0) {
                saveSnapshot(slot);
            }
            flags[slot] |= DIRTY | REFERENCED;
        }
        return slot;
    }

    /** The slot of {@code row}'s key, or -1 when no node holds it ({@code seq} -1: an event not counted). */
    int find(EventRow row, long seq) {
        if (seq >= 0) {
            int slot = memoised(seq);
            if (slot < 0) {
                slot = hints.get(seq, records, stride, EPOCH);
            }
            if (slot >= 0) {
                return slot;
            }
        }
        int len = encoder.encode(row);
        int slot = lookup(encoder.buffer(), len, false);
        if (slot >= 0 && seq >= 0) {
            memoise(seq, slot);
        }
        return slot;
    }

    /** The memoised slot of event {@code seq} (at least 0), or -1. */
    private int memoised(long seq) {
        if (seq == memoSeq) {
            return memoSlot;
        }
        return seq == newestSeq ? newestSlot : -1;
    }

    private void memoise(long seq, int slot) {
        memoSeq = seq;
        memoSlot = slot;
        if (seq > newestSeq) {
            newestSeq = seq;
            newestSlot = slot;
        }
    }

    /** Forgets memoised lookups of a slot whose key is leaving it. */
    private void forget(int slot) {
        if (memoSlot == slot) {
            memoSeq = -1;
        }
        if (newestSlot == slot) {
            newestSlot = -1; // a miss for that seq; newestSeq stays, so only newer events replace it
        }
    }

    /** A key's slot: hot, or loaded from the cold tier, or (when {@code insert}) new; else -1. */
    private int lookup(byte[] key, int len, boolean insert) {
        int slot = keys.find(key, 0, len);
        if (slot >= 0) {
            return slot;
        }
        if (cold == null) {
            return insert ? insertHot(key, len) : -1;
        }
        makeRoom(); // before loading: the loaded value is read from buffers an eviction may write to
        if (!cold.load(key, 0, len, in)) {
            return insert ? insertHot(key, len) : -1;
        }
        loads++;
        slot = insertHot(key, len);
        restore(slot, in);
        flags[slot] = DURABLE;
        if (records[slot * stride + HOLDERS] == 0 && !insert) {
            release(slot); // only state of deleted metrics: the key is gone, and its copy too
            return -1;
        }
        return slot;
    }

    private int insertHot(byte[] key, int len) {
        if (cold != null) {
            makeRoom();
        }
        int slot = -keys.findOrInsert(key, 0, len) - 1;
        if (slot >= slots) {
            grow(keys.capacity());
        }
        flags[slot] = 0;
        records[slot * stride + EPOCH] = ++lastEpoch;
        return slot;
    }

    /**
     * Evicts a key when the hot tier is full. The limit is asked each time (the store keeps it, and
     * recomputes it only when its inputs change): a node's budget shrinks it as tasks come; then two
     * keys go per insertion until the tier is within it again.
     */
    private void makeRoom() {
        int limit = keys.hotLimit();
        if (keys.size() >= limit) {
            evictOne();
            if (keys.size() >= limit) {
                evictOne();
            }
        }
    }

    /** Moves one key out of memory: the clock hand's first key not used since it last came by. */
    private void evictOne() {
        int victim;
        while (true) {
            clockHand = clockHand + 1 >= slots ? 0 : clockHand + 1;
            if (records[clockHand * stride + HOLDERS] == 0) {
                continue; // a free slot
            }
            if ((flags[clockHand] & REFERENCED) != 0) {
                flags[clockHand] &= ~REFERENCED;
                continue;
            }
            victim = clockHand;
            break;
        }
        evictions++;
        if ((flags[victim] & SNAPSHOT) != 0) {
            saveSnapshot(victim);
        }
        if ((flags[victim] & DIRTY) != 0) {
            saveToCold(victim);
        }
        keys.release(victim);
        int base = victim * stride;
        Arrays.fill(records, base, base + stride, 0L);
        for (GroupByNode n : nodes) {
            n.resetExternal(victim);
        }
        flags[victim] = 0;
        forget(victim);
    }

    /**
     * Begins a snapshot: every key changed since the last one is to be saved as it is now (one
     * pass over a byte per slot; nothing is serialised yet). No-op without a cold tier.
     */
    void beginSnapshot() {
        if (cold == null) {
            return;
        }
        reportKeyBytes();
        for (int s = 0; s < slots; s++) {
            if ((flags[s] & DIRTY) != 0 && records[s * stride + HOLDERS] > 0) {
                flags[s] = (byte) ((flags[s] & ~DIRTY) | SNAPSHOT);
            }
        }
        sweep = 0;
    }

    /**
     * Saves up to {@code budget} keys of the snapshot being taken (looking at up to 16 times as
     * many slots); true once all are saved (or when none is being taken).
     */
    boolean sweepSnapshot(int budget) {
        if (sweep < 0) {
            return true;
        }
        int saved = 0;
        int end = (int) Math.min(slots, sweep + 16L * budget);
        while (sweep < end && saved < budget) {
            if ((flags[sweep] & SNAPSHOT) != 0) {
                saveSnapshot(sweep);
                saved++;
            }
            sweep++;
        }
        if (sweep >= slots) {
            sweep = -1;
            return true;
        }
        return false;
    }

    private void saveSnapshot(int slot) {
        serialise(slot);
        int len = copyKey(slot);
        cold.storeSnapshot(keyScratch, 0, len, out.buffer(), 0, out.length());
        flags[slot] = (byte) ((flags[slot] & ~SNAPSHOT) | DURABLE);
    }

    private void saveToCold(int slot) {
        serialise(slot);
        int len = copyKey(slot);
        cold.store(keyScratch, 0, len, out.buffer(), 0, out.length());
        flags[slot] = (byte) ((flags[slot] & ~DIRTY) | DURABLE);
    }

    /** Serialises the key at {@code slot} into {@link #out}. */
    private void serialise(int slot) {
        int base = slot * stride;
        out.clear();
        int countAt = out.reserveInt();
        int count = 0;
        for (GroupByNode n : nodes) {
            long population = records[base + n.segment()];
            if (population == 0) {
                continue;
            }
            count++;
            List<Aggregator> aggs = n.aggregators();
            out.putLong(n.id()).putLong(population).putInt(aggs.size());
            for (int k = 0; k < aggs.size(); k++) {
                Aggregator a = aggs.get(k);
                out.putLong(n.aggregatorId(k)).putInt(a.width()).putLongs(records, base + n.segment() + a.offset(), a.width());
                int lengthAt = out.reserveInt();
                a.saveExternal(slot, out);
                int external = out.length() - lengthAt - 4;
                out.patchInt(lengthAt, external);
                externalBytes += external;
            }
        }
        out.patchInt(countAt, count);
        serialised++;
        serialisedBytes += out.length() + keys.keyLength(slot); // what its copy holds: value and key
    }

    /**
     * Tells the keyed state what a key costs here ({@link KeyedState#keyBytes}): the records' and
     * flags' bytes per slot, and the mean external state and serialised size of the keys
     * serialised since the last report (evicted or snapshotted: a sample of the keys that changed;
     * the previous means when none was). Called when those can change — the arrays grown or laid out again, a snapshot
     * begun — never per event.
     */
    private void reportKeyBytes() {
        if (serialised > 0) {
            externalPerKey = (int) Math.min(Integer.MAX_VALUE, externalBytes / serialised);
            serialisedPerKey = (int) Math.min(Integer.MAX_VALUE, serialisedBytes / serialised);
            externalBytes = 0;
            serialisedBytes = 0;
            serialised = 0;
        }
        keys.keyBytes(8 * stride + 1, externalPerKey, serialisedPerKey);
    }

    /** The attached node with this id, or null (a few nodes: a scan, no boxed map key per cold load). */
    private GroupByNode nodeById(long id) {
        for (int i = 0, n = nodes.size(); i < n; i++) {
            GroupByNode node = nodes.get(i);
            if (node.id() == id) {
                return node;
            }
        }
        return null;
    }

    /** Fills a fresh slot from a serialised key; state of unknown nodes or aggregators is skipped. */
    private void restore(int slot, StateReader from) {
        int base = slot * stride;
        long holders = 0;
        int count = from.getInt();
        for (int i = 0; i < count; i++) {
            GroupByNode n = nodeById(from.getLong());
            long population = from.getLong();
            int aggCount = from.getInt();
            if (n != null) {
                records[base + n.segment()] = population;
                holders += population;
            }
            for (int k = 0; k < aggCount; k++) {
                Aggregator a = n == null ? null : n.aggregatorById(from.getLong());
                if (n == null) {
                    from.getLong();
                }
                int width = from.getInt();
                if (a != null && a.width() == width) {
                    from.getLongs(records, base + n.segment() + a.offset(), width);
                } else {
                    from.skip(8 * width);
                }
                int external = from.getInt();
                if (a != null) {
                    int end = from.position() + external;
                    a.loadExternal(slot, from);
                    if (from.position() != end) {
                        throw new IllegalStateException("key table " + name + ": aggregator state of " + external
                                + " bytes read as " + (from.position() - end + external));
                    }
                    if (a.width() != width) {
                        a.restoredWithoutRecord(records, base + n.segment() + a.offset(), slot);
                    }
                } else {
                    from.skip(external);
                }
            }
        }
        records[base + HOLDERS] = holders;
    }

    private int copyKey(int slot) {
        int len = keys.keyLength(slot);
        if (keyScratch.length < len) {
            keyScratch = new byte[Math.max(len, keyScratch.length * 2)];
        }
        return keys.copyKey(slot, keyScratch, 0);
    }

    /** Keys moved out of memory, and loaded back, since the table was created. */
    long evictions() {
        return evictions;
    }

    long loads() {
        return loads;
    }

    /** Keys in memory. */
    int hotKeys() {
        return keys.size();
    }

    /** One holder of the key at {@code slot} let go; the key is released when none is left. */
    void unhold(int slot) {
        if (--records[slot * stride + HOLDERS] == 0) {
            release(slot);
        }
    }

    private void release(int slot) {
        if ((flags[slot] & DURABLE) != 0) {
            cold.delete(keyScratch, 0, copyKey(slot));
        }
        flags[slot] = 0;
        records[slot * stride + EPOCH] = 0;
        keys.release(slot);
        forget(slot);
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
        int newStride = HEADER;
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
            next[s * newStride + EPOCH] = records[s * stride + EPOCH];
        }
        records = next;
        stride = newStride;
        reportKeyBytes();
    }

    private void grow(int capacity) {
        int newSlots = Math.max(capacity, Math.max(16, slots * 2));
        records = Arrays.copyOf(records, newSlots * stride);
        flags = Arrays.copyOf(flags, newSlots);
        slots = newSlots;
        for (GroupByNode n : nodes) {
            n.ensureCapacity(slots);
        }
        reportKeyBytes();
    }

    static Set<Aggregator> newIdentitySet() {
        return java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    }
}
