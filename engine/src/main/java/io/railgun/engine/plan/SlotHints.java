package io.railgun.engine.plan;

import java.util.Arrays;

/**
 * The slots of the last events' keys in a {@link KeyTable}, by event seq, so a window's tail that
 * expires one of them finds its key without a hash lookup: a direct-mapped ring of
 * {@value #SIZE} entries (seq, slot, the key's epoch in that slot). Tails walk it in seq order, so
 * its lines stream through the cache, where a lookup in a key index far larger than the caches
 * costs a miss; FRAUD's 5-minute to 24-hour tails are within it.
 *
 * <p>A hint is only a hint: it is used when its seq is the one asked for and its slot still holds
 * the same incarnation of a key, told by the epoch the key table gives each key it places in a slot
 * (a slot released, evicted to the cold tier or reused since has another epoch, or 0). An event's
 * key is held from its arrival until its last expiry, so a valid hint names its key.
 *
 * <p>Allocated on first use; owned by the task's thread.
 */
final class SlotHints {
    /** Entries: 16 Ki, 320 KiB (a day of FRAUD's steady rate, 0.1 ev/s). */
    static final int SIZE = 1 << 14;
    private static final int MASK = SIZE - 1;

    private long[] seqs;
    private long[] epochs;
    private int[] slots;

    /** Remembers that event {@code seq}'s key is at {@code slot}, with epoch {@code epoch} (not 0). */
    void put(long seq, int slot, long epoch) {
        if (seqs == null) {
            seqs = new long[SIZE];
            Arrays.fill(seqs, -1);
            epochs = new long[SIZE];
            slots = new int[SIZE];
        }
        int i = (int) seq & MASK;
        seqs[i] = seq;
        slots[i] = slot;
        epochs[i] = epoch;
    }

    /**
     * The slot of event {@code seq}'s key, or -1 when not remembered or no longer valid;
     * long {@code epochIndex} of a slot's record is the epoch of the key in it.
     */
    int get(long seq, KeyRecords records, int epochIndex) {
        if (seqs == null) {
            return -1;
        }
        int i = (int) seq & MASK;
        if (seqs[i] != seq) {
            return -1;
        }
        int slot = slots[i];
        return records.get(slot, epochIndex) == epochs[i] ? slot : -1;
    }
}
