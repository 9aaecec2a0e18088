package io.railgun.engine.state.durable;

import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The key tables of a {@link DurableStateStore} and their shares of the hot tier: each table's
 * hot-key limit from {@link HotTierSizing}, recomputed when a table comes or goes, a key size is
 * measured anew or the node's tasks change; and what the hot keys' checkpoint copies may take.
 * Task's thread.
 */
final class StoreTables {
    private final Map<String, StoreTable> tables = new HashMap<>();
    private final HotTierSizing sizing;
    private final DurableStateOptions options;

    StoreTables(HotTierSizing sizing, DurableStateOptions options) {
        this.sizing = sizing;
        this.options = options;
    }

    /** The table of this name, made by {@code create} (which then shares the task's hot share) when none. */
    StoreTable get(String name, Supplier<StoreTable> create) {
        StoreTable t = tables.get(name);
        if (t == null) {
            t = create.get();
            tables.put(name, t);
            resizeAll(); // one more table shares the task's hot share
        }
        return t;
    }

    /** Removes a table (its share goes to the others); the removed one, or null. */
    StoreTable remove(String name) {
        StoreTable t = tables.remove(name);
        resizeAll();
        return t;
    }

    /**
     * The largest hot-key limit of the key tables now (the option's with none): the option, or
     * the keys the largest part of a shared budget's share holds ({@link HotTierSizing}).
     */
    int hotKeyLimit() {
        if (sizingStale()) {
            resizeAll();
        }
        if (tables.isEmpty()) {
            return options.hotKeys();
        }
        int max = 0;
        for (StoreTable t : tables.values()) {
            max = Math.max(max, t.hotLimit());
        }
        return max;
    }

    /** The task's part of the node's hot share now ({@link Long#MAX_VALUE} without a budget). */
    long hotShareBytes() {
        if (sizingStale()) {
            resizeAll();
        }
        return sizing.taskShareBytes();
    }

    /** Heap bytes a hot key of the key tables costs now, as measured (the largest over the tables; 0 with none). */
    long hotBytesPerKey() {
        long max = 0;
        for (StoreTable t : tables.values()) {
            max = Math.max(max, t.bytesPerKey());
        }
        return max;
    }

    /**
     * The most bytes the hot keys' copies in one checkpoint can take: every hot key of every table
     * changed. A buffer keeps arrays that size (see {@link WriteBuffer#clear}): the hot share
     * reserves it anyway, and giving it back made every checkpoint allocate its copies' pages anew.
     */
    long copyBound() {
        long bytes = 0;
        for (StoreTable t : tables.values()) {
            // the keys there can be: the limit, or (a large limit without a budget) those present with room to grow
            bytes += (long) Math.min(t.hotLimit(), t.size() * 2L + 1024) * t.copyBytesPerKey();
        }
        return bytes;
    }

    /**
     * How many keys this checkpoint's copies may hold: every hot key now (not a quarter more: the
     * index's buckets are a power of two, and a quarter more doubled them for E1's 550k keys; keys
     * that come during the snapshot grow it as before).
     */
    int expectedCopies() {
        long keys = 0;
        for (StoreTable t : tables.values()) {
            keys += t.size();
        }
        return (int) Math.min(1 << 28, keys);
    }

    /** The bytes of those keys in the copies: each under its table's prefix. */
    long expectedCopyKeyBytes() {
        long bytes = 0;
        for (StoreTable t : tables.values()) {
            bytes += t.hot.keyBytes() + (long) t.size() * t.prefix.length;
        }
        return bytes;
    }

    boolean sizingStale() {
        return sizing.stale();
    }

    /**
     * Recomputes every table's limit: the task or table count changed, a table's key size was
     * measured anew, a table outgrew what it wanted, or another task's want changed. The task says
     * what its tables want in all, takes its part of the node's hot share ({@link StateMemory}),
     * and splits it by what each table wants ({@link HotTierSizing#split}).
     */
    void resizeAll() {
        StoreTable[] all = tables.values().toArray(new StoreTable[0]);
        long[] wanted = new long[all.length];
        long wantedInAll = 0;
        for (int i = 0; i < all.length; i++) {
            wanted[i] = all[i].wantedBytes();
            wantedInAll += wanted[i];
        }
        sizing.share(wantedInAll);
        long[] parts = sizing.split(wanted);
        for (int i = 0; i < all.length; i++) {
            all[i].resize(sizing, parts[i], wanted[i]);
        }
    }

}
