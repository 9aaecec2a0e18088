package io.railgun.engine.plan;

import java.util.Arrays;
import java.util.List;

/**
 * The records a {@link KeyTable}'s window tails will expire next, loaded ahead with a group's other
 * prefetches ({@link io.railgun.engine.state.Prefetches}). A tail expires its events in seq order,
 * and the first touch of an expiring key's record, far apart from the last in a table of a million
 * keys, was a cache miss per expiry ({@code SlotHints.get}: 12% of E1's time). So for each node
 * whose tail asked, the records that the {@link SlotHints} name for the {@value #AHEAD} seqs after
 * the last it expired are loaded back to back, their misses overlapping; the expiries then hit the
 * cache. A hint only: nothing is changed, and a stale hint loads a record for nothing.
 *
 * <p>Owned by the task's thread, like its table.
 */
final class TailPrefetches {
    /** Seqs after a tail's last expiry whose records are loaded. */
    static final int AHEAD = 16;

    // per change bit's index: the latest seq that node's window tail expired (-1: none yet)
    private final long[] lastExpired = new long[Integer.SIZE];
    private int tails; // the change bits of the nodes whose tails expired something

    TailPrefetches() {
        Arrays.fill(lastExpired, -1);
    }

    /** The tail of the node of change bit {@code bit} is expiring event {@code seq}. */
    void expiring(int bit, long seq) {
        int t = Integer.numberOfTrailingZeros(bit);
        lastExpired[t] = Math.max(lastExpired[t], seq);
        tails |= bit;
    }

    /**
     * Loads, for each tail, the epoch (long {@code epochIndex}) and the node's segment of the records
     * of the keys it expires next; returns the loads' sum, so that they are kept.
     */
    long load(SlotHints hints, KeyRecords records, int epochIndex, List<GroupByNode> nodes) {
        long sum = 0;
        for (int b = tails; b != 0; b &= b - 1) {
            int t = Integer.numberOfTrailingZeros(b);
            // the node's part of the record (the last bit is shared by the nodes past the 31st: all of it)
            GroupByNode node = t < Integer.SIZE - 1 && t < nodes.size() ? nodes.get(t) : null;
            boolean part = node != null && node.segment() >= 0;
            int from = part ? node.segment() : 0;
            int to = part ? from + node.width() : records.stride();
            sum += hints.loadRecords(lastExpired[t], AHEAD, records, epochIndex, from, to);
        }
        return sum;
    }
}
