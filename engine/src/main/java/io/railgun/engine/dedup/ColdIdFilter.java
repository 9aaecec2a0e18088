package io.railgun.engine.dedup;

import io.railgun.engine.state.ColdKeys;
import io.railgun.engine.state.LayeredBloomFilter;
import io.railgun.engine.state.Prefetches;
import java.util.Arrays;

/**
 * The dedup ids of a durable task's cold tier (those RocksDB holds) as Bloom filters in memory, so
 * that a new id, the common case, is not looked up in RocksDB: a lookup there answered "absent"
 * only after a JNI call, a memtable and the SST files' bloom filters, once per event (FRAUD, 1 M
 * cards: 1.15 RocksDB reads per event; ruling them out gained 4-12% events/s).
 *
 * <p><b>Generations.</b> Ids leave the cold tier in the order of their timestamps (the forget cursor
 * at {@code T - H - 1}), and a Bloom filter cannot remove a key; so the ids are kept in generations
 * by timestamp, each a {@link LayeredBloomFilter} of the ids with {@code t} in
 * {@code [g * span, (g + 1) * span)}, and a generation goes whole once the forget boundary passes
 * its end. The span is a quarter of the cold tier's width when the filter is made ({@code H - Hh}),
 * so a lookup asks five or six generations (a cache line each, one hash for all), and the
 * forgotten ids a generation still holds (at most one span's) only cost false positives. A new
 * generation is sized for the ids its span is expected to get ({@link #expect}), so it has one
 * layer.
 *
 * <p><b>Completeness.</b> No false negatives for the ids with {@code t > completeAfter}: every id
 * stored in the cold tier is added, unless the filter gave up. Ids at or before {@code completeAfter}
 * may be missing (a store restored from a checkpoint taken before the filter existed: the ids it
 * spilled), so until the forget boundary passes it, {@link #mightContain} says "maybe" to all. The
 * filter gives up (says "maybe" to all, for good, and drops its generations) when it would pass
 * {@link #MAX_BYTES} or {@link #MAX_GENERATIONS}: some 50 million cold ids (a layer's bits are rounded
 * up to a power of two, and the live generations hold the tier plus up to a span of forgotten ids:
 * 2-3 bytes per cold id; FRAUD with 1 M cards, 2.5 MiB for about a million). Ids spilled at or before
 * the forget boundary (after a jump in time) are not added: the tier forgets them at once.
 *
 * <p><b>Durability.</b> Saved with each checkpoint and read back at a restore by
 * {@link SavedColdIdFilter}, so a restored task does not rebuild it from its ids.
 *
 * <p>Allocation: a generation's layers as it fills; saving reuses one buffer. Owned by the task's thread.
 */
public final class ColdIdFilter {
    /** The most heap the generations may take before the filter gives up. */
    public static final long MAX_BYTES = 128L << 20;
    static final int MAX_GENERATIONS = 64;
    private static final int NOTED = Prefetches.CAPACITY; // ids noted for a prefetch, at most
    // a generation sized for more ids than this grows in layers (one of 8 M ids: 16 MiB)
    private static final long MAX_EXPECTED = 8L << 20;
    private final long span;
    // the live generations, by number (ascending); a slot of filters is null once dropped
    private long[] numbers = new long[16];
    private LayeredBloomFilter[] filters = new LayeredBloomFilter[16];
    private boolean[] dirty = new boolean[16];
    private int count;
    private long[] dropped = new long[8]; // numbers dropped since the last save
    private int droppedCount;
    private long completeAfter;
    private long forgetBoundary = Long.MIN_VALUE;
    private long bytes;
    private long expectedPerGeneration;
    private byte[] saveBuffer = new byte[0];
    private final long[] noted = new long[NOTED]; // hashes of the ids noted for a prefetch
    private int notedCount;

    /**
     * A filter for a cold tier {@code widthMs} wide ({@code H - Hh}), missing no id with a
     * timestamp after {@code completeAfter} (Long.MIN_VALUE: complete).
     */
    public static ColdIdFilter forWidth(long widthMs, long completeAfter) {
        return new ColdIdFilter(spanFor(widthMs), completeAfter);
    }

    /**
     * A filter replacing {@code old} (its generations are deleted at the next {@link #save}): for a
     * cold tier of a new width, missing no id after {@code completeAfter}.
     */
    public static ColdIdFilter replacing(ColdIdFilter old, long widthMs, long completeAfter) {
        ColdIdFilter f = forWidth(widthMs, completeAfter);
        for (int i = 0; i < old.droppedCount; i++) {
            f.markDropped(old.dropped[i]);
        }
        for (int i = 0; i < old.count; i++) {
            f.markDropped(old.numbers[i]);
        }
        return f;
    }

    /**
     * The filter for a cold tier whose horizon changed: {@code current} (null: none yet) when it
     * suits the tier's new width, else a new one missing no id after {@code coldHigh} (the latest
     * timestamp of an id the tier holds, or Long.MIN_VALUE when it held none: all it holds from
     * now on is added). An inactive tier's filter is cleared (its ids go back to memory) and kept,
     * so that the next save deletes its generations.
     */
    public static ColdIdFilter adopt(ColdIdFilter current, boolean active, long widthMs, long coldHigh) {
        if (!active) {
            if (current != null) {
                current.clear();
            }
            return current;
        }
        if (current == null) {
            return forWidth(widthMs, coldHigh);
        }
        if (coldHigh == Long.MIN_VALUE || !current.suits(widthMs)) {
            return replacing(current, widthMs, coldHigh);
        }
        return current;
    }

    /** Whether this filter's generations suit a cold tier {@code widthMs} wide (else: {@link #replacing}). */
    public boolean suits(long widthMs) {
        long s = spanFor(widthMs);
        return span <= 2 * s && s <= 2 * span;
    }

    private static long spanFor(long widthMs) {
        return Math.max(1, widthMs / 4);
    }

    private ColdIdFilter(long span, long completeAfter) {
        this.span = span;
        this.completeAfter = completeAfter;
    }

    /**
     * The ids expected: {@code ids} over {@code overMs} of event time (the hot tier's now), so that
     * a new generation is sized for its span's ids at once.
     */
    public void expect(long ids, long overMs) {
        if (overMs > 0) {
            expectedPerGeneration = (long) Math.min(MAX_EXPECTED, (double) ids * span / overMs);
        }
    }

    /** Adds a cold id (its bytes) of an event with timestamp {@code t}. */
    public void add(byte[] id, int offset, int length, long t) {
        if (skips(t)) {
            return;
        }
        long g = Math.floorDiv(t, span);
        int i = find(g);
        if (i < 0) {
            if (count == MAX_GENERATIONS) {
                giveUp();
                return;
            }
            // sized like the newest generation so far (ids arrive at about the same rate), or from the
            // rate the caller expects: a generation grown layer by layer asks each layer at a lookup
            long expected = Math.max(Math.max(1024, expectedPerGeneration), count > 0 ? filters[count - 1].keys() : 0);
            i = insert(-i - 1, g, new LayeredBloomFilter(expected));
        }
        LayeredBloomFilter f = filters[i];
        long before = f.bytes();
        f.add(id, offset, length);
        dirty[i] = true;
        bytes += f.bytes() - before;
        if (bytes > MAX_BYTES) {
            giveUp();
        }
    }

    /**
     * Notes an id a {@link #mightContain} will soon ask for, so that {@link #issuePrefetches} loads
     * its blocks with the others noted: a new id, the common case, reads a block of every generation
     * (five or six cache misses), which one at a time were 4% of durable FRAUD's time. At most
     * {@value #NOTED} are kept until issued.
     */
    public void prefetch(byte[] id, int offset, int length) {
        if (notedCount < NOTED && answers()) {
            noted[notedCount++] = LayeredBloomFilter.hash(id, offset, length);
        }
    }

    /** Loads the blocks of the ids noted since the last call, back to back; returns anything. */
    public long issuePrefetches() {
        long sum = 0;
        for (int k = 0; k < notedCount; k++) {
            for (int i = count - 1; i >= 0; i--) {
                sum += filters[i].touchForTest(noted[k]);
            }
        }
        notedCount = 0;
        return sum;
    }

    /** Loads the block {@link #add} will set for this id of an event at {@code t} (a prefetch); returns anything. */
    public long touchForAdd(byte[] id, int offset, int length, long t) {
        int i = skips(t) ? -1 : find(Math.floorDiv(t, span));
        return i < 0 ? 0 : filters[i].touchForAdd(LayeredBloomFilter.hash(id, offset, length));
    }

    /**
     * Whether {@link #add} skips an id of an event at {@code t}: the filter gave up, or the tier
     * forgets it now (spilled after a jump in time).
     */
    private boolean skips(long t) {
        return completeAfter == Long.MAX_VALUE || t <= forgetBoundary;
    }

    /** False when no id with these bytes is in the cold tier (one with a timestamp within the horizon). */
    public boolean mightContain(byte[] id, int offset, int length) {
        if (forgetBoundary < completeAfter) {
            return true;
        }
        long h = LayeredBloomFilter.hash(id, offset, length);
        for (int i = count - 1; i >= 0; i--) {
            if (filters[i].mightContainHash(h)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The cold tier holds the ids with timestamps after {@code boundary} only: the generations
     * entirely at or before it go. (The boundary moves back when the horizon grows: the ids it
     * then holds again are added anew.)
     */
    public void forgetBefore(long boundary) {
        forgetBoundary = boundary;
        // generation g holds [g * span, (g + 1) * span - 1]: gone when its end is at or before the boundary
        long firstLive = boundary == Long.MAX_VALUE ? Long.MAX_VALUE : Math.floorDiv(boundary + 1, span);
        int gone = 0;
        while (gone < count && numbers[gone] < firstLive) {
            gone++;
        }
        if (gone > 0) {
            for (int i = 0; i < gone; i++) {
                bytes -= filters[i].bytes();
                markDropped(numbers[i]);
            }
            System.arraycopy(numbers, gone, numbers, 0, count - gone);
            System.arraycopy(filters, gone, filters, 0, count - gone);
            System.arraycopy(dirty, gone, dirty, 0, count - gone);
            Arrays.fill(filters, count - gone, count, null);
            count -= gone;
        }
    }

    /** Whether the filter answers (else every lookup goes to RocksDB): complete, and has not given up. */
    public boolean answers() {
        return forgetBoundary >= completeAfter;
    }

    /** Heap bytes of the generations' bits. */
    public long bytes() {
        return bytes;
    }

    /** Live generations. */
    public int generations() {
        return count;
    }

    /** See {@link SavedColdIdFilter#save}. */
    public void save(ColdKeys cold, long mark) {
        SavedColdIdFilter.save(this, cold, mark);
    }

    /** Drops every generation (the cold tier is no longer active; its ids went back to memory). */
    public void clear() {
        for (int i = 0; i < count; i++) {
            markDropped(numbers[i]);
            filters[i] = null;
        }
        count = 0;
        bytes = 0;
    }

    /** Drops everything and says "maybe" for good (the store's RocksDB lookups carry on as before). */
    private void giveUp() {
        clear();
        completeAfter = Long.MAX_VALUE;
    }

    private void markDropped(long g) {
        if (droppedCount == dropped.length) {
            dropped = Arrays.copyOf(dropped, droppedCount * 2);
        }
        dropped[droppedCount++] = g;
    }

    /** The index of generation g, or -(insertion point) - 1. */
    private int find(long g) {
        // the newest generations are the likely ones: search from the end
        for (int i = count - 1; i >= 0; i--) {
            if (numbers[i] == g) {
                return i;
            }
            if (numbers[i] < g) {
                return -(i + 1) - 1;
            }
        }
        return -1;
    }

    /** Puts generation g's filter at index {@code at} (the numbers stay ascending); returns {@code at}. */
    private int insert(int at, long g, LayeredBloomFilter filter) {
        if (count == numbers.length) {
            numbers = Arrays.copyOf(numbers, count * 2);
            filters = Arrays.copyOf(filters, count * 2);
            dirty = Arrays.copyOf(dirty, count * 2);
        }
        System.arraycopy(numbers, at, numbers, at + 1, count - at);
        System.arraycopy(filters, at, filters, at + 1, count - at);
        System.arraycopy(dirty, at, dirty, at + 1, count - at);
        numbers[at] = g;
        filters[at] = filter;
        dirty[at] = true;
        count++;
        bytes += filter.bytes();
        return at;
    }

    // for SavedColdIdFilter: the generations, and what changed since the last save

    /** A buffer of at least {@code n} bytes, kept for the next save. */
    byte[] saveBuffer(int n) {
        if (saveBuffer.length < n) {
            saveBuffer = new byte[Math.max(n, saveBuffer.length * 2)];
        }
        return saveBuffer;
    }

    static ColdIdFilter withSpan(long span, long completeAfter) {
        return new ColdIdFilter(span, completeAfter);
    }

    long span() {
        return span;
    }

    long completeAfter() {
        return completeAfter;
    }

    long number(int i) {
        return numbers[i];
    }

    LayeredBloomFilter generation(int i) {
        return filters[i];
    }

    /** Whether generation i changed since the last save; clears the mark. */
    boolean takeDirty(int i) {
        boolean d = dirty[i];
        dirty[i] = false;
        return d;
    }

    int droppedCount() {
        return droppedCount;
    }

    long dropped(int i) {
        return dropped[i];
    }

    void clearDropped() {
        droppedCount = 0;
    }

    /** Generations to delete at the next save (a directory's that is not trusted). */
    void dropSaved(long[] numbers) {
        for (long g : numbers) {
            markDropped(g);
        }
    }

    /** Appends a generation read back (numbers ascending), unchanged since its save. */
    void addSaved(long g, LayeredBloomFilter filter) {
        int i = insert(count, g, filter);
        dirty[i] = false;
    }
}
