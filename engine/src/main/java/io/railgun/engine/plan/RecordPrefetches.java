package io.railgun.engine.plan;

import io.railgun.engine.state.KeyedState;
import io.railgun.engine.state.Prefetches;
import java.util.Arrays;
import java.util.List;

/**
 * The key records a {@link KeyTable}'s next events will touch, loaded back to back with a group's
 * other prefetches ({@link Prefetches}), after the key index's buckets, so that their misses
 * overlap instead of coming one per lookup:
 * <ul>
 *   <li>the records the window tails will expire next: a tail expires its events in seq order, and
 *       the first touch of an expiring key's record, far from the last in a table of a million
 *       keys, was a miss per expiry ({@code SlotHints.get}: 12% of E1's time). For each node whose
 *       tail asked, the records that the {@link SlotHints} name for the {@value #AHEAD} seqs after
 *       the last it expired: their epoch and the node's segment.</li>
 *   <li>the records of the keys noted by {@link KeyTable#prefetch} (the arrivals), at the slots
 *       their buckets name ({@link KeyedState#prefetchedSlots}): every cache line of each, as an
 *       arrival updates most of the record (loading the first line alone moved E1's miss from
 *       {@code SlotHints.put} to the sum's line).</li>
 * </ul>
 * A hint only: nothing is changed, and a stale hint loads a record for nothing. Owned by the
 * task's thread, like its table.
 */
final class RecordPrefetches {
    /** Seqs after a tail's last expiry whose records are loaded. */
    static final int AHEAD = 16;

    // per change bit's index: the latest seq that node's window tail expired or passed (-1: none yet)
    private final long[] lastExpired = new long[Integer.SIZE];
    private int tails; // the change bits of the nodes whose tails expired something
    private final int[] slots = new int[Prefetches.CAPACITY];

    RecordPrefetches() {
        Arrays.fill(lastExpired, -1);
    }

    /** The tail of the node of change bit {@code bit} is expiring event {@code seq}. */
    void expiring(int bit, long seq) {
        int t = Integer.numberOfTrailingZeros(bit);
        lastExpired[t] = Math.max(lastExpired[t], seq);
        tails |= bit;
    }

    /**
     * The tail of the node of change bit {@code bit} passed event {@code seq}, which its filter kept
     * from the node: where the tail is, for {@link #slowestTail} (a node whose filter rarely passes
     * would otherwise hold the slot hints' growth back at its last expiry, or its first when none).
     */
    void passed(int bit, long seq) {
        int t = Integer.numberOfTrailingZeros(bit);
        lastExpired[t] = Math.max(lastExpired[t], seq);
    }

    /**
     * The latest seq that every window tail of the nodes of change bits {@code tailBits} has
     * expired (-1 while one of them has expired none): a tail may still ask for any seq after it.
     */
    long slowestTail(int tailBits) {
        long slowest = Long.MAX_VALUE;
        for (int b = tailBits; b != 0; b &= b - 1) {
            slowest = Math.min(slowest, lastExpired[Integer.numberOfTrailingZeros(b)]);
        }
        return slowest;
    }

    /**
     * Loads the tails' next records (their epoch, long {@code epochIndex}, and the node's segment),
     * then the noted keys' records; call after {@code keys.issuePrefetches()}. Returns the loads'
     * sum, so that they are kept.
     */
    long load(KeyedState keys, SlotHints hints, KeyRecords records, int epochIndex, List<GroupByNode> nodes) {
        long sum = 0;
        for (int b = tails; b != 0; b &= b - 1) {
            int t = Integer.numberOfTrailingZeros(b);
            // the node's part of the record (the last bit is shared by the nodes past the 31st: all of it)
            GroupByNode node = t < Integer.SIZE - 1 && t < nodes.size() ? nodes.get(t) : null;
            boolean part = node != null && node.segment() >= 0;
            int from = part ? node.segment() : 0;
            int to = part ? from + node.laidOutWidth() : records.stride();
            sum += hints.loadRecords(lastExpired[t], AHEAD, records, epochIndex, from, to);
        }
        for (int k = 0, n = keys.prefetchedSlots(slots); k < n; k++) {
            if (slots[k] >= 0) {
                sum += records.touch(slots[k], 0, records.stride());
            }
        }
        return sum;
    }
}
