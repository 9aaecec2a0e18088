package io.railgun.engine.plan;

import io.railgun.engine.aggregate.Aggregator;
import io.railgun.engine.event.EventRow;
import io.railgun.engine.task.Reply;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The Group By operator of one window and filter: finds each event's key in the {@link KeyTable}
 * of its GROUP BY fields and feeds its aggregators with the node's segment of the key's record
 * (layout in {@link io.railgun.engine.aggregate.StateRecord}): the key's population in this
 * window, then each aggregator's longs. When the key's last event leaves this window, the segment
 * is zeroed and the node lets go of the key.
 */
final class GroupByNode {
    private final String name;
    private final KeyTable table;
    private final boolean tail; // whether its window has a tail (all but unbounded ones): its events expire
    private final long id;
    private final List<Aggregator> aggregators = new ArrayList<>();
    private long[] aggregatorIds = new long[0];
    private long[][] formerIds = new long[0][]; // per aggregator: ids its state was saved under before (see add)
    private Aggregator[] dispatch = new Aggregator[0];
    private Aggregator[] fed = new Aggregator[0]; // those of dispatch that take events (not COUNT(*))
    private Set<Aggregator> laidOut = KeyTable.newIdentitySet();
    private int segment = -1;
    private int width = 1;
    private int changeBit; // this node's bit in the key table's change bits (HotTier)

    GroupByNode(String name, KeyTable table, boolean tail) {
        this.name = name;
        this.table = table;
        this.tail = tail;
        this.id = StableId.of(name);
    }

    /** Identity of this node in serialised state: a hash of its name, stable across restarts. */
    long id() {
        return id;
    }

    long aggregatorId(int index) {
        return aggregatorIds[index];
    }

    /** The aggregator saved under this id: its own, else one it had before states were shared; or null. */
    Aggregator aggregatorById(long aggregatorId) {
        for (int i = 0; i < aggregatorIds.length; i++) {
            if (aggregatorIds[i] == aggregatorId) {
                return aggregators.get(i);
            }
        }
        for (int i = 0; i < formerIds.length; i++) {
            for (long former : formerIds[i]) {
                if (former == aggregatorId) {
                    return aggregators.get(i);
                }
            }
        }
        return null;
    }

    String name() {
        return name;
    }

    /** Whether the node's window has a tail, which will expire its events (not an unbounded window). */
    boolean hasTail() {
        return tail;
    }

    KeyTable table() {
        return table;
    }

    /** Adds an aggregator, named by its key in the plan (its identity in serialised state). */
    void add(Aggregator a, String key) {
        add(a, key, List.of());
    }

    /**
     * Adds an aggregator named by its key, which state saved under {@code formerKeys} (by the
     * aggregators one shared state replaced, same layout) is also restored into. Several of them
     * may be in one saved key: they were fed the same events, so they hold the same longs.
     */
    void add(Aggregator a, String key, List<String> formerKeys) {
        aggregators.add(a);
        aggregatorIds = Arrays.copyOf(aggregatorIds, aggregatorIds.length + 1);
        aggregatorIds[aggregatorIds.length - 1] = StableId.of(key);
        long[] former = new long[formerKeys.size()];
        for (int i = 0; i < former.length; i++) {
            former[i] = StableId.of(formerKeys.get(i));
        }
        formerIds = Arrays.copyOf(formerIds, formerIds.length + 1);
        formerIds[formerIds.length - 1] = former;
        table.relayout();
    }

    /** Removes an aggregator; true when the node has none left. */
    boolean remove(Aggregator a) {
        int i = aggregators.indexOf(a);
        aggregators.remove(i);
        long[] ids = new long[aggregatorIds.length - 1];
        System.arraycopy(aggregatorIds, 0, ids, 0, i);
        System.arraycopy(aggregatorIds, i + 1, ids, i, ids.length - i);
        aggregatorIds = ids;
        long[][] former = new long[formerIds.length - 1][];
        System.arraycopy(formerIds, 0, former, 0, i);
        System.arraycopy(formerIds, i + 1, former, i, former.length - i);
        formerIds = former;
        table.relayout();
        return aggregators.isEmpty();
    }

    // --- layout, driven by the key table ---

    int segment() {
        return segment;
    }

    /** This node's bit in the key table's per-key change bits: which nodes a checkpoint must write. */
    int changeBit() {
        return changeBit;
    }

    void changeBit(int bit) {
        changeBit = bit;
    }

    /** Longs of this node's segment as laid out ({@link #laidOutAt}); the event path's (no loop over the aggregators). */
    int laidOutWidth() {
        return width;
    }

    /** Longs of this node's segment: population plus every aggregator's width (as it will be laid out next). */
    int width() {
        int w = 1;
        for (Aggregator a : aggregators) {
            w += a.width();
        }
        return w;
    }

    List<Aggregator> aggregators() {
        return aggregators;
    }

    Set<Aggregator> laidOut() {
        return laidOut;
    }

    /** Inner offsets the aggregators will have: packed after the population. */
    int[] innerOffsets() {
        int[] offsets = new int[aggregators.size()];
        int at = 1;
        for (int i = 0; i < offsets.length; i++) {
            offsets[i] = at;
            at += aggregators.get(i).width();
        }
        return offsets;
    }

    void laidOutAt(int newSegment, int[] innerOffsets, int slots) {
        segment = newSegment;
        Set<Aggregator> now = KeyTable.newIdentitySet();
        for (int i = 0; i < aggregators.size(); i++) {
            aggregators.get(i).offset(innerOffsets[i]);
            aggregators.get(i).ensureCapacity(slots);
            now.add(aggregators.get(i));
        }
        laidOut = now;
        width = width();
        dispatch = aggregators.toArray(new Aggregator[0]);
        fed = aggregators.stream().filter(Aggregator::takesEvents).toArray(Aggregator[]::new);
    }

    void ensureCapacity(int slots) {
        for (Aggregator a : dispatch) {
            a.ensureCapacity(slots);
        }
    }

    /** Clears what the aggregators keep outside the record for a slot this node lets go of. */
    void resetExternal(int slot) {
        for (Aggregator a : fed) {
            a.reset(slot);
        }
    }

    // --- the event path ---

    void arrive(long timestamp, long seq, EventRow row) {
        int slot = table.hold(row, seq, changeBit);
        long[] r = table.page(slot);
        int base = table.base(slot) + segment;
        r[base]++;
        for (Aggregator a : fed) {
            a.arrive(r, base, slot, timestamp, seq, row);
        }
    }

    void expire(long timestamp, long seq, EventRow row) {
        int slot = table.findForUpdate(row, seq, changeBit);
        if (slot < 0) {
            throw new IllegalStateException("expired an event whose key is not in the window (node " + name + ")");
        }
        long[] r = table.page(slot);
        int base = table.base(slot) + segment;
        for (Aggregator a : fed) {
            a.expire(r, base, slot, timestamp, seq, row);
        }
        if (--r[base] == 0) {
            for (Aggregator a : fed) {
                a.resetKey(r, base, slot); // before the record is zeroed: they may read it
            }
            Arrays.fill(r, base, base + width, 0L);
        }
        table.unhold(slot);
    }

    /**
     * The window's tail passed event {@code seq}, which the filter kept from this node: the key
     * table learns where the tail is (see {@link KeyTable#tailPassed}).
     */
    void tailPassed(long seq) {
        table.tailPassed(changeBit, seq);
    }

    /** The slot of {@code row}'s key in the table, or -1 when no window holds it. */
    int slotOf(EventRow row, long seq) {
        return table.find(row, seq);
    }

    /** Writes aggregator {@code a}'s value for {@code slot} (-1: none of the key's events anywhere). */
    void write(Aggregator a, int slot, Reply reply, int index) {
        // a key held only by other nodes has an all-zero segment here: the empty state
        // (slot -1: aggregators read nothing; they get page 0, possibly empty, as before the records were paged)
        a.write(table.page(Math.max(slot, 0)), slot < 0 ? 0 : table.base(slot) + segment, slot, reply, index);
    }
}
