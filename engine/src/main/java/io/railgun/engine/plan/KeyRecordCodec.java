package io.railgun.engine.plan;

import io.railgun.engine.aggregate.Aggregator;
import io.railgun.engine.state.KeyedState;
import io.railgun.engine.state.StateReader;
import io.railgun.engine.state.StateWriter;
import java.util.Arrays;
import java.util.List;

/**
 * The stored form of a key table's key: what the cold tier and the checkpoints keep of it.
 * On-disk format version 3 (all numbers little-endian). Older versions are refused, by the store
 * when it is opened (see {@code io.railgun.engine.state.durable.StateDb}) and here part by part:
 * version 1, before incremental checkpoints, was one whole part without a header; in version 2 the
 * records of SUM/AVG/VAR/STDDEV held inexact double-double sums of the values outside the
 * fixed-point range, which cannot be made exact (since 3 they are exact sums in that aggregator's
 * external state, see {@link io.railgun.engine.aggregate.MomentsAggregator}). A stored value is
 * one or more parts, oldest first: a whole part, then the patches written since (RocksDB
 * concatenates them: the state column family's merge operator appends). A patch holds only the
 * nodes changed since the key's previous part, so a checkpoint writes only those; a node in a
 * patch replaces that node's state, a node in it with population 0 holds no event of the key any
 * more.
 *
 * <pre>
 *  part:           int    header: version (3) &lt;&lt; 8 | kind (0 whole: every node holding events of the key;
 *                                                          1 patch: only the nodes listed)
 *                  int    number of nodes
 *  per node:       long node id, long population, int number of aggregators (0 when the population is 0)
 *  per aggregator: long aggregator id, int width, width longs, int n, n bytes of external state
 * </pre>
 *
 * Node and aggregator ids are 64-bit hashes of the plan's operator names, so state written before a
 * restart or a metric change finds its node and aggregator again, and the state of deleted ones is
 * skipped. A reader refuses a part of another version with a clear error. Owned by the task's thread.
 */
final class KeyRecordCodec {
    static final int VERSION = 3;
    static final int WHOLE = 0;
    static final int PATCH = 1;

    private final String table;
    private final List<GroupByNode> nodes;
    // external (outside the records) bytes of the keys serialised since the last report, and their count
    private long externalBytes;
    private long serialisedBytes;
    private long serialised;
    private int externalPerKey;
    private int serialisedPerKey;
    private boolean skipped; // the last value read held state of nodes or aggregators no longer attached

    KeyRecordCodec(String table, List<GroupByNode> nodes) {
        this.table = table;
        this.nodes = nodes;
    }

    /**
     * Appends a part for the key at {@code slot} to {@code out}: whole, or a patch of the nodes
     * whose change bit ({@link GroupByNode#changeBit()}) is in {@code changed}.
     */
    void write(KeyRecords table, int slot, boolean whole, int changed, int keyLength, StateWriter out) {
        long[] records = table.page(slot);
        int base = table.base(slot);
        int start = out.length();
        out.putInt(VERSION << 8 | (whole ? WHOLE : PATCH));
        int countAt = out.reserveInt();
        int count = 0;
        long externals = 0;
        for (int i = 0, size = nodes.size(); i < size; i++) {
            GroupByNode n = nodes.get(i);
            long population = records[base + n.segment()];
            if (whole ? population == 0 : (changed & n.changeBit()) == 0) {
                continue;
            }
            count++;
            if (population == 0) {
                out.putLong(n.id()).putLong(0).putInt(0);
                continue;
            }
            List<Aggregator> aggs = n.aggregators();
            out.putLong(n.id()).putLong(population).putInt(aggs.size());
            for (int k = 0; k < aggs.size(); k++) {
                Aggregator a = aggs.get(k);
                out.putLong(n.aggregatorId(k)).putInt(a.width()).putLongs(records, base + n.segment() + a.offset(), a.width());
                int lengthAt = out.reserveInt();
                a.saveExternal(slot, out);
                int external = out.length() - lengthAt - 4;
                out.patchInt(lengthAt, external);
                externals += external;
            }
        }
        out.patchInt(countAt, count);
        if (whole) {
            externalBytes += externals;
            serialised++;
            serialisedBytes += out.length() - start + keyLength; // what its copy holds: value and key
        }
    }

    /**
     * Fills a fresh slot (zero but for its epoch) from a stored value: every part in order, a later
     * one replacing the nodes it lists. Sets the holders; returns the number of parts.
     *
     * @throws IllegalStateException for a part of another format version, or corrupt state
     */
    int read(KeyRecords table, int slot, StateReader from) {
        long[] records = table.page(slot);
        int base = table.base(slot);
        int parts = 0;
        skipped = false;
        while (from.hasRemaining()) {
            int header = from.getInt();
            if (header >>> 8 != VERSION || (header & 0xFF) > PATCH) {
                throw new IllegalStateException("key table " + table + ": a stored key's state is in on-disk format "
                        + (header >>> 8) + " (kind " + (header & 0xFF) + "); this version reads format " + VERSION);
            }
            if ((header & 0xFF) == WHOLE && parts > 0) {
                for (GroupByNode n : nodes) {
                    clear(records, base, n, slot);
                }
            }
            readPart(records, base, slot, from);
            parts++;
        }
        long holders = 0;
        for (int i = 0, size = nodes.size(); i < size; i++) {
            holders += records[base + nodes.get(i).segment()];
        }
        records[base + KeyTable.HOLDERS] = holders;
        return parts;
    }

    private void readPart(long[] records, int base, int slot, StateReader from) {
        int count = from.getInt();
        for (int i = 0; i < count; i++) {
            GroupByNode n = nodeById(from.getLong());
            long population = from.getLong();
            int aggCount = from.getInt();
            if (n != null) {
                clear(records, base, n, slot); // a patch replaces what an earlier part held
                records[base + n.segment()] = population;
            }
            skipped |= n == null;
            for (int k = 0; k < aggCount; k++) {
                Aggregator a = n == null ? null : n.aggregatorById(from.getLong());
                skipped |= a == null;
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
                    a.loadExternal(records, base + n.segment(), slot, from);
                    if (from.position() != end) {
                        throw new IllegalStateException("key table " + table + ": aggregator state of " + external
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
    }

    /**
     * Whether the last value {@link #read} held state of nodes or aggregators no longer attached
     * (a metric removed): written back as a patch it would keep that state, so it is written whole.
     */
    boolean lastReadSkipped() {
        return skipped;
    }

    private static void clear(long[] records, int base, GroupByNode n, int slot) {
        if (records[base + n.segment()] != 0) {
            Arrays.fill(records, base + n.segment(), base + n.segment() + n.width(), 0L);
            n.resetExternal(slot);
        }
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

    /** The slots {@link #sample} looks at: every {@code slots / SAMPLE_KEYS}th (all of fewer than twice as many). */
    private static final int SAMPLE_KEYS = 256;
    private final StateWriter sample = new StateWriter(); // sample's scratch

    /**
     * Serialises the keys with state at about {@value #SAMPLE_KEYS} slots spread over {@code table}'s
     * (every {@code slots / SAMPLE_KEYS}th; at most 511) into a scratch writer, to measure a copy's size and the external state before a
     * snapshot's keys were all saved ({@link HotTier}). Until then a key's records stood in for
     * its copy and its external state counted nothing: FRAUD's cards, 615 B of records for a copy
     * of about 200 B, held the card table to 309 k keys until the first checkpoint's were saved,
     * 10 s in (then 476 k), and the 161 k keys it evicted meanwhile were loaded back in the timed
     * part (0.14 cold loads an event).
     */
    void sample(KeyTable table, KeyedState keys) {
        KeyRecords records = table.records();
        int n = records.slots();
        int stride = Math.max(1, n / SAMPLE_KEYS);
        for (int s = 0; s < n; s += stride) {
            if (table.holders(s) > 0) {
                sample.clear();
                write(records, s, true, 0, keys.keyLength(s), sample);
            }
        }
    }

    /**
     * Tells the keyed state what a key costs ({@link KeyedState#keyBytes}): {@code slotBytes} per
     * slot, and the mean external state and whole serialised size of the keys written since the last
     * report (a sample of the keys that changed; the previous means when none was). Called when
     * those can change — the arrays grown or laid out again, a snapshot begun or all its keys
     * saved — never per event.
     */
    void report(KeyedState keys, int slotBytes) {
        if (serialised > 0) {
            externalPerKey = (int) Math.min(Integer.MAX_VALUE, externalBytes / serialised);
            serialisedPerKey = (int) Math.min(Integer.MAX_VALUE, serialisedBytes / serialised);
            externalBytes = 0;
            serialisedBytes = 0;
            serialised = 0;
        }
        keys.keyBytes(slotBytes, externalPerKey, serialisedPerKey);
    }
}
