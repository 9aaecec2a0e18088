package io.railgun.engine.plan;

/**
 * The slots of recent events' keys in a {@link KeyTable}, by event seq, so a window's tail that
 * expires one of them finds its key without a hash lookup: a direct-mapped ring of entries (seq,
 * slot, the key's epoch in that slot), interleaved in one array. Tails walk it in seq order, so its lines stream through the
 * cache, where a lookup in a key index far larger than the caches costs a miss.
 *
 * <p>The ring starts at {@value #INITIAL} entries (256 KiB; FRAUD's 5-minute to 24-hour tails are
 * within it). It grows, the entries it holds kept, to the power of two that holds a tail's span, if
 * that is within {@link #limit(int)}: the smallest power of two of at least four times the key
 * table's slots, so it costs at most {@value #ENTRY_BYTES} × 8 bytes a slot, which the hot tier counts in a
 * key's cost from its next snapshot on ({@link #bytesPerSlot}). It grows when an arriving event
 * would overwrite the hint of a seq that a window tail of the table has still to expire
 * ({@link #put(long, int, long, long, int)}), so a tail finds its keys here from its first expiry
 * (E1's 60-minute tail of 1.8 M events over a million keys, FRAUD's 180-day tail); and when a tail
 * asks for a seq already overwritten ({@link #getForTail}: a tail that the ring was not kept for,
 * such as a new metric's, whose hints overwritten before are lost). A tail longer than the limit
 * falls back to lookups.
 *
 * <p>A hint is only a hint: it is used when its seq is the one asked for and its slot still holds
 * the same incarnation of a key, told by the epoch the key table gives each key it places in a slot
 * (a slot released, evicted to the cold tier or reused since has another epoch, or 0). An event's
 * key is held from its arrival until its last expiry, so a valid hint names its key.
 *
 * <p>Allocated on first use; owned by the task's thread.
 */
final class SlotHints {
    /** Entries at first: 16 Ki (a day of FRAUD's steady rate, 0.1 ev/s). */
    static final int INITIAL = 1 << 14;
    /** Heap bytes of an entry: its seq and slot in one long, the epoch in the next. */
    static final int ENTRY_BYTES = 8 + 8;
    /** Entries at most: two longs each in one array. */
    private static final int MAX_ENTRIES = 1 << 29;
    /** A tail of up to this many times the key table's slots is served from the ring. */
    private static final long SLOTS_COVERED = 4;

    // entry i (for the seqs equal to i modulo the size) at ring[2i] and ring[2i + 1]: the seq's
    // bits above the index in the high 32 bits and the slot in the low 32, then the epoch. One array,
    // so a put writes one stream and an entry is in one cache line. 0 in ring[2i + 1]: empty (epochs
    // are not 0). A seq whose bits above the index pass 32 bits (2^46 events or more) is never kept.
    private long[] ring;
    private int mask;
    private int shift; // log2 of the entries
    private long newest = -1; // the highest seq put

    /** Remembers that event {@code seq}'s key is at {@code slot}, with epoch {@code epoch} (not 0). */
    void put(long seq, int slot, long epoch) {
        if (ring == null) {
            allocate(INITIAL);
        }
        long high = seq >>> shift;
        if ((high >>> 32) != 0) {
            return;
        }
        int i = ((int) seq & mask) << 1;
        ring[i] = high << 32 | (slot & 0xFFFF_FFFFL);
        ring[i + 1] = epoch;
        newest = Math.max(newest, seq);
    }

    /**
     * As {@link #put(long, int, long)}, for an arriving event, the ring first grown when the entry
     * it would overwrite is of a seq a window tail has still to expire (after {@code tailsAt}, what
     * every tail has expired), within {@link #limit} for a table of {@code tableSlots} slots. Before,
     * the ring grew only once a tail asked for a seq already overwritten, and the hints of a tail as
     * long as the ring's limit were then lost for a window's length: FRAUD's 180-day tail looked its
     * keys up for its first 180 days of expiries (6% of its time), and again after each restore.
     */
    void put(long seq, int slot, long epoch, long tailsAt, int tableSlots) {
        if (ring != null) {
            int j = (int) seq & mask;
            if (ring[2 * j + 1] != 0) {
                long overwritten = (ring[2 * j] >>> 32) << shift | j;
                long span = seq - overwritten + 1;
                if (overwritten > tailsAt && span > mask + 1 && span <= limit(tableSlots)) {
                    grow((int) Math.min(MAX_ENTRIES, Long.highestOneBit(span - 1) << 1));
                }
            }
        }
        put(seq, slot, epoch);
    }

    /**
     * The slot of event {@code seq}'s key, or -1 when not remembered or no longer valid;
     * long {@code epochIndex} of a slot's record is the epoch of the key in it.
     */
    int get(long seq, KeyRecords records, int epochIndex) {
        if (ring == null) {
            return -1;
        }
        int i = ((int) seq & mask) << 1;
        long word = ring[i];
        if (word >>> 32 != seq >>> shift || ring[i + 1] == 0) {
            return -1;
        }
        int slot = (int) word;
        return records.get(slot, epochIndex) == ring[i + 1] ? slot : -1;
    }

    /**
     * Loads, back to back, the records the hints of seqs {@code from + 1} to {@code from + n} name:
     * long {@code index} and the longs {@code [lo, hi)} (one per cache line), so that their misses
     * overlap (as {@link io.railgun.engine.state.Prefetches} does for index slots) and a tail
     * expiring those events finds its keys' records in the cache. A hint only: not validated,
     * nothing changed; returns the loads' sum so they are kept.
     */
    long loadRecords(long from, int n, KeyRecords records, int index, int lo, int hi) {
        if (ring == null) {
            return 0;
        }
        long sum = 0;
        for (long seq = from + 1; seq <= from + n; seq++) {
            int i = ((int) seq & mask) << 1;
            long word = ring[i];
            if (word >>> 32 == seq >>> shift && ring[i + 1] != 0) {
                int slot = (int) word;
                sum += records.get(slot, index) + records.touch(slot, lo, hi);
            }
        }
        return sum;
    }

    /**
     * As {@link #get}, for a window's tail expiring event {@code seq}: when the ring had already
     * overwritten it, grows the ring for the tail's span, up to {@link #limit} entries for a table of
     * {@code tableSlots} slots. An arrival grows it only for a tail that will read what it keeps
     * ({@link #put(long, int, long, long, int)}); {@link #get}, for a delayed window's head (within
     * its own tail's span), never does.
     */
    int getForTail(long seq, KeyRecords records, int epochIndex, int tableSlots) {
        if (ring == null) {
            return -1;
        }
        int i = ((int) seq & mask) << 1;
        if (ring[i + 1] != 0 && ring[i] >>> 32 > seq >>> shift) {
            lengthenFor(seq, tableSlots);
        }
        return get(seq, records, epochIndex);
    }

    /**
     * A tail asked for {@code seq}, which the ring had already overwritten: grows it at once to
     * hold the tail's span, when that is within the limit (a tail past the limit is never served
     * here, so growing for it would buy nothing).
     */
    private void lengthenFor(long seq, int tableSlots) {
        long span = newest - seq + 1;
        if (span > mask + 1 && span <= limit(tableSlots)) {
            grow((int) Math.min(MAX_ENTRIES, Long.highestOneBit(span - 1) << 1));
        }
    }

    /**
     * The most entries for a key table of {@code tableSlots} slots: the smallest power of two of at
     * least four times as many (so four to eight times as many), at least {@link #INITIAL}. A tail
     * spans its window's events, which outnumber its keys: FRAUD's 180-day tail over a million
     * cards spans 2.7 M events, and with a limit of twice the slots (2 Mi entries) it looked up
     * every key it expired, 9.5% of the task's time.
     */
    static int limit(int tableSlots) {
        long times = SLOTS_COVERED * Math.max(1, tableSlots);
        return (int) Math.max(INITIAL, Math.min(MAX_ENTRIES, Long.highestOneBit(times - 1) << 1));
    }

    /** Entries now (0 before the first hint). */
    int size() {
        return ring == null ? 0 : mask + 1;
    }

    /**
     * Heap bytes per key-table slot the ring costs now, for a table of {@code tableSlots} slots
     * (rounded up; at most {@value #ENTRY_BYTES} × 8, as it grows to eight times the slots at most):
     * 0 while it has its first {@value #INITIAL} entries, as before the ring could grow (spread over
     * the few slots of a young table they would make each key look kilobytes dear), then all of it.
     */
    int bytesPerSlot(int tableSlots) {
        if (size() <= INITIAL) {
            return 0;
        }
        long bytes = (long) size() * ENTRY_BYTES;
        return (int) ((bytes + tableSlots - 1) / Math.max(1, tableSlots));
    }

    private void grow(int entries) {
        long[] old = ring;
        int oldShift = shift;
        int oldMask = mask;
        allocate(entries);
        for (int j = 0; j <= oldMask; j++) {
            long word = old[2 * j];
            long epoch = old[2 * j + 1];
            if (epoch != 0) { // distinct seqs modulo the old size are distinct modulo the new one
                long seq = (word >>> 32) << oldShift | j;
                long high = seq >>> shift;
                int i = ((int) seq & mask) << 1;
                ring[i] = high << 32 | (word & 0xFFFF_FFFFL);
                ring[i + 1] = epoch;
            }
        }
    }

    private void allocate(int entries) {
        ring = new long[2 * entries];
        mask = entries - 1;
        shift = Integer.numberOfTrailingZeros(entries);
    }
}
