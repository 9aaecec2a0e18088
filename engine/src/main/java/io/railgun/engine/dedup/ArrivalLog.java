package io.railgun.engine.dedup;

import java.util.Arrays;

/**
 * The log of a {@link DedupIndex}: for each entry, numbered by arrival, the id's counted timestamp
 * and the offset and length of its bytes. Entries {@code [head, tail)} are held (the index keeps
 * both numbers); only those may be read.
 *
 * <p>Layout: pages of {@value #PAGE_ENTRIES} entries (a long[] of timestamps, a long[] of offsets,
 * an int[] of lengths each), on a ring of pages: entry {@code e} is at {@code e & PAGE_MASK} of the
 * page in ring slot {@code (e >>> PAGE_BITS) & ringMask}. When the held entries would span more
 * pages than the ring has, the ring doubles and the held pages move to their new slots: page
 * references are copied, never entries. A page the head has passed is set aside when the next
 * page begins and reused by the next page that needs arrays. So a log allocates about the most
 * pages it ever held at once, plus one: for a task's ids of a 60-minute window at 500 ids/s,
 * its 1.8 M entries once (36 MB), not every power of two up to twice that.
 *
 * <p>Single-threaded: owned by its index's thread.
 */
final class ArrivalLog {
    static final int PAGE_BITS = 11;
    static final int PAGE_ENTRIES = 1 << PAGE_BITS;
    private static final int PAGE_MASK = PAGE_ENTRIES - 1;
    /** Bytes an entry takes: timestamp, offset, length. */
    static final int ENTRY_BYTES = 8 + 8 + 4;

    private long[][] timestamps = new long[1][];
    private long[][] offsets = new long[1][];
    private int[][] lengths = new int[1][];
    private long[] pageNumbers = {-1}; // the page each ring slot holds, -1 none
    private int ringMask;
    private int pagesAllocated;
    private long releasedBelow; // pages below it are set aside or dropped
    // pages set aside for reuse
    private long[][] freeTimestamps = new long[4][];
    private long[][] freeOffsets = new long[4][];
    private int[][] freeLengths = new int[4][];
    private int freeCount;

    long timestamp(long e) {
        return timestamps[ring(e)][(int) e & PAGE_MASK];
    }

    long offset(long e) {
        return offsets[ring(e)][(int) e & PAGE_MASK];
    }

    int length(long e) {
        return lengths[ring(e)][(int) e & PAGE_MASK];
    }

    /** Writes entry {@code e} (the tail: entries {@code [head, e)} are held and stay). */
    void append(long head, long e, long timestamp, long offset, int length) {
        long firstPage = head >>> PAGE_BITS;
        long page = e >>> PAGE_BITS;
        if (page - firstPage > ringMask) {
            growRing(firstPage, page);
        }
        int r = (int) page & ringMask;
        if (pageNumbers[r] != page) {
            release(firstPage);
            beginPage(r, page);
        }
        int at = (int) e & PAGE_MASK;
        timestamps[r][at] = timestamp;
        offsets[r][at] = offset;
        lengths[r][at] = length;
    }

    /** Sets aside the pages below {@code firstPage} (the head's): no entry of theirs is held. */
    private void release(long firstPage) {
        if (firstPage - releasedBelow > timestamps.length) { // the head jumped (cleared): look at every slot
            for (int r = 0; r < timestamps.length; r++) {
                if (pageNumbers[r] >= 0 && pageNumbers[r] < firstPage) {
                    setAside(r);
                }
            }
        } else {
            for (long p = releasedBelow; p < firstPage; p++) {
                int r = (int) p & ringMask;
                if (pageNumbers[r] == p) {
                    setAside(r);
                }
            }
        }
        releasedBelow = Math.max(releasedBelow, firstPage);
    }

    private void setAside(int r) {
        if (freeCount == freeTimestamps.length) {
            freeTimestamps = Arrays.copyOf(freeTimestamps, 2 * freeCount);
            freeOffsets = Arrays.copyOf(freeOffsets, 2 * freeCount);
            freeLengths = Arrays.copyOf(freeLengths, 2 * freeCount);
        }
        freeTimestamps[freeCount] = timestamps[r];
        freeOffsets[freeCount] = offsets[r];
        freeLengths[freeCount++] = lengths[r];
        timestamps[r] = null;
        offsets[r] = null;
        lengths[r] = null;
        pageNumbers[r] = -1;
    }

    /** Gives ring slot {@code r} (empty) arrays for {@code page}: set-aside ones, else new ones. */
    private void beginPage(int r, long page) {
        if (freeCount > 0) {
            timestamps[r] = freeTimestamps[--freeCount];
            offsets[r] = freeOffsets[freeCount];
            lengths[r] = freeLengths[freeCount];
            freeTimestamps[freeCount] = null;
            freeOffsets[freeCount] = null;
            freeLengths[freeCount] = null;
        } else {
            timestamps[r] = new long[PAGE_ENTRIES];
            offsets[r] = new long[PAGE_ENTRIES];
            lengths[r] = new int[PAGE_ENTRIES];
            pagesAllocated++;
        }
        pageNumbers[r] = page;
    }

    /** Heap bytes of the pages allocated. */
    long memoryBytes() {
        return (long) pagesAllocated * PAGE_ENTRIES * ENTRY_BYTES + 24L * timestamps.length;
    }

    private int ring(long e) {
        return (int) (e >>> PAGE_BITS) & ringMask;
    }

    /**
     * Doubles the ring until pages {@code [firstPage, lastPage]} fit, moving the held ones
     * {@code [firstPage, lastPage)}. Called only when a new page begins with every slot held, so no
     * page is left behind.
     */
    private void growRing(long firstPage, long lastPage) {
        int n = timestamps.length;
        while (lastPage - firstPage >= n) {
            n *= 2;
        }
        long[][] ts = new long[n][];
        long[][] off = new long[n][];
        int[][] len = new int[n][];
        long[] numbers = new long[n];
        Arrays.fill(numbers, -1);
        int mask = n - 1;
        for (long p = firstPage; p < lastPage; p++) {
            int from = (int) p & ringMask;
            int to = (int) p & mask;
            ts[to] = timestamps[from];
            off[to] = offsets[from];
            len[to] = lengths[from];
            numbers[to] = p;
        }
        timestamps = ts;
        offsets = off;
        lengths = len;
        pageNumbers = numbers;
        ringMask = mask;
    }
}
