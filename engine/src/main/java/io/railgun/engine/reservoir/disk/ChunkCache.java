package io.railgun.engine.reservoir.disk;

/**
 * The bounded cache of decoded chunks shared by a reservoir's cursors, bounded both in chunks and
 * in bytes. Each cursor <em>pins</em> the one chunk it will enter next (the one it prefetched);
 * eviction takes the least recently used unpinned chunk first, and a pinned one only when every
 * cached chunk is pinned. So with at least as many slots as cursors, a prefetched chunk stays
 * until its cursor gets there, however far apart the cursors are; plain LRU, under the cyclic
 * pattern of many cursors moving through different chunks, would evict it just before use as soon
 * as the chunks entered and prefetched outnumber the slots. A small array scanned linearly: it is consulted a few times per
 * chunk a cursor enters (hundreds of events), and holds at most a few hundred chunks. Owned by the
 * task's thread (prefetched chunks reach it through the reservoir's arrival queue).
 */
final class ChunkCache {
    /** Told of each chunk that leaves the cache (evicted, trimmed or cleared). */
    interface Departures {
        void left(Chunk c);
    }

    private final Departures departures;
    private final int maxChunks;
    private final long maxBytes;
    private final Chunk[] chunks;
    private final long[] lastUse;
    private final int[] pins;
    private int size;
    private long bytes;
    private long tick;

    ChunkCache(int maxChunks, long maxBytes, Departures departures) {
        this.departures = departures;
        this.maxChunks = maxChunks;
        this.maxBytes = maxBytes;
        this.chunks = new Chunk[maxChunks];
        this.lastUse = new long[maxChunks];
        this.pins = new int[maxChunks];
    }

    /** The cached chunk with that id (marked as just used), or null. */
    Chunk get(long id) {
        int i = find(id);
        if (i < 0) {
            return null;
        }
        lastUse[i] = ++tick;
        return chunks[i];
    }

    boolean contains(long id) {
        return find(id) >= 0;
    }

    /** Whether this very chunk object is cached. */
    boolean holds(Chunk c) {
        for (int i = 0; i < size; i++) {
            if (chunks[i] == c) {
                return true;
            }
        }
        return false;
    }

    /** Adds a chunk with {@code pinCount} pins (or marks it used), evicting beyond the bounds. */
    void put(Chunk c, int pinCount) {
        if (maxChunks == 0) {
            return;
        }
        int i = find(c.id);
        if (i >= 0) {
            lastUse[i] = ++tick;
            return;
        }
        while (size > 0 && (size == maxChunks || bytes + c.memoryBytes() > maxBytes)) {
            removeAt(victim());
        }
        chunks[size] = c;
        lastUse[size] = ++tick;
        pins[size] = pinCount;
        bytes += c.memoryBytes();
        size++;
    }

    void pin(long id) {
        int i = find(id);
        if (i >= 0) {
            pins[i]++;
        }
    }

    void unpin(long id) {
        int i = find(id);
        if (i >= 0 && pins[i] > 0) {
            pins[i]--;
        }
    }

    /** Drops every chunk with an id below {@code id} (deleted from disk). */
    void removeBelow(long id) {
        for (int i = size - 1; i >= 0; i--) {
            if (chunks[i].id < id) {
                removeAt(i);
            }
        }
    }

    void clear() {
        while (size > 0) {
            removeAt(size - 1);
        }
    }

    int size() {
        return size;
    }

    long bytes() {
        return bytes;
    }

    private int find(long id) {
        for (int i = 0; i < size; i++) {
            if (chunks[i].id == id) {
                return i;
            }
        }
        return -1;
    }

    /** The least recently used unpinned chunk, else the least recently used one. */
    private int victim() {
        int lruUnpinned = -1;
        int lru = 0;
        for (int i = 0; i < size; i++) {
            if (lastUse[i] < lastUse[lru]) {
                lru = i;
            }
            if (pins[i] == 0 && (lruUnpinned < 0 || lastUse[i] < lastUse[lruUnpinned])) {
                lruUnpinned = i;
            }
        }
        return lruUnpinned >= 0 ? lruUnpinned : lru;
    }

    private void removeAt(int i) {
        Chunk c = chunks[i];
        bytes -= c.memoryBytes();
        size--;
        chunks[i] = chunks[size];
        lastUse[i] = lastUse[size];
        pins[i] = pins[size];
        chunks[size] = null;
        departures.left(c);
    }
}
