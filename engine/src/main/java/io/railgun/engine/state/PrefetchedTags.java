package io.railgun.engine.state;

/**
 * The tags of the keys a {@link ByteKeyIndex} prefetched ({@link ByteKeyIndex#prefetch}), kept so
 * that after the buckets are loaded the keys' slots can be read from them by tag alone
 * ({@link ByteKeyIndex#prefetchedSlots}): a hint for loading what the lookups will touch next.
 * At most {@link Prefetches#CAPACITY} noted until issued; later ones are dropped. Owned by the
 * index's thread.
 */
final class PrefetchedTags {
    /** Buckets looked at for a key's tag: nearly every key is within them at 60% load. */
    static final int HINT_PROBES = 4;

    // the tags of the keys noted since the last issue, then of those issued
    private final int[] noted = new int[Prefetches.CAPACITY];
    private int notedCount;
    private final int[] issued = new int[Prefetches.CAPACITY];
    private int issuedCount;

    void note(int tag) {
        if (notedCount < noted.length) {
            noted[notedCount++] = tag;
        }
    }

    /** The noted keys' buckets are being loaded: they are the ones {@link #slots} looks for. */
    void issue() {
        System.arraycopy(noted, 0, issued, 0, notedCount);
        issuedCount = notedCount;
        notedCount = 0;
    }

    /**
     * The slots of the issued keys in {@code table} (buckets of {@code bucketLongs} longs, the
     * entry first: tag &lt;&lt; 32 | slot + 1), in the order noted, found by tag within the first
     * {@value #HINT_PROBES} buckets of their run (-1: not found; the key is not compared, so a slot
     * may hold another key); written to {@code slots}, their number returned. Once only.
     */
    int slots(long[] table, int mask, int bucketLongs, int[] slots) {
        int n = issuedCount;
        for (int k = 0; k < n; k++) {
            int tag = issued[k];
            int b = KeyTags.home(tag) & mask;
            int slot = -1;
            for (int probe = 0; probe < HINT_PROBES; probe++) {
                long e = table[bucketLongs * b];
                if (e == 0) {
                    break;
                }
                if ((int) (e >>> 32) == tag) {
                    slot = (int) e - 1;
                    break;
                }
                b = (b + 1) & mask;
            }
            slots[k] = slot;
        }
        issuedCount = 0;
        return n;
    }
}
