package io.railgun.engine.plan;

import java.util.Arrays;

/**
 * The state records of a {@link KeyTable}: {@code stride} longs per slot, in pages of
 * {@value #PAGE_SLOTS} slots, so a slot's record is {@code page(slot)[base(slot) .. base(slot) + stride)}
 * and never crosses a page.
 *
 * <p>Why pages: a table of a million keys grown by doubling one array allocates every size on the
 * way (twice the final array) and ends at the next power of two of the slots ever used; pages are
 * allocated once each, up to the highest slot used. The first page alone still doubles (16 slots,
 * 32, ... up to a page), so a table of a few keys stays small. Slots past the pages allocated read
 * as zero ({@link #get}): the hot tier's sweeps may look at any slot below the key index's capacity.
 *
 * <p>Owned by the task's thread, like its table.
 */
final class KeyRecords {
    static final int PAGE_BITS = 12;
    static final int PAGE_SLOTS = 1 << PAGE_BITS;
    private static final int PAGE_MASK = PAGE_SLOTS - 1;
    private static final long[] NONE = new long[0];
    private static final int LONGS_PER_LINE = 8; // longs in a 64-byte cache line

    private final int stride;
    private long[][] pages = {NONE};
    private int slots; // slots allocated: page 0's slots, or whole pages

    KeyRecords(int stride) {
        this.stride = stride;
    }

    int stride() {
        return stride;
    }

    /** Slots with a record allocated: [0, slots). */
    int slots() {
        return slots;
    }

    /** The page holding {@code slot}'s record (the slot must be below {@link #slots()}). */
    long[] page(int slot) {
        return pages[slot >>> PAGE_BITS];
    }

    /** Where {@code slot}'s record begins in its {@link #page}. */
    int base(int slot) {
        return (slot & PAGE_MASK) * stride;
    }

    /** Long {@code index} of {@code slot}'s record; 0 for a slot not allocated. */
    long get(int slot, int index) {
        return slot < slots ? pages[slot >>> PAGE_BITS][(slot & PAGE_MASK) * stride + index] : 0L;
    }

    /**
     * Loads longs {@code [from, to)} of {@code slot}'s record, one per 64-byte line, and the last,
     * so that a later use finds them in the cache (a prefetch: the sum returned keeps the loads;
     * 0 for a slot not allocated).
     */
    long touch(int slot, int from, int to) {
        if (slot >= slots) {
            return 0;
        }
        long[] page = pages[slot >>> PAGE_BITS];
        int base = (slot & PAGE_MASK) * stride;
        long sum = 0;
        for (int i = from; i < to; i += LONGS_PER_LINE) {
            sum += page[base + i];
        }
        return sum + page[base + to - 1];
    }

    /** Allocates records (zero) up to {@code slot} at least. */
    void ensure(int slot) {
        if (slot < slots) {
            return;
        }
        if (slots < PAGE_SLOTS) {
            int n = Math.max(16, slots * 2);
            while (n <= slot && n < PAGE_SLOTS) {
                n *= 2;
            }
            n = Math.min(n, PAGE_SLOTS);
            pages[0] = Arrays.copyOf(pages[0], n * stride);
            slots = n;
        }
        while (slot >= slots) {
            int p = slots >>> PAGE_BITS;
            if (p == pages.length) {
                pages = Arrays.copyOf(pages, p * 2);
            }
            pages[p] = new long[PAGE_SLOTS * stride];
            slots += PAGE_SLOTS;
        }
    }

    /** Zeroes {@code slot}'s record. */
    void clear(int slot) {
        int base = base(slot);
        Arrays.fill(page(slot), base, base + stride, 0L);
    }
}
