package io.railgun.engine.state.durable;

import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.rocksdb.LRUCache;
import org.rocksdb.RateLimiter;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBufferManager;

/**
 * The state memory budget of a node, shared by all its durable tasks ({@link DurableStateStore}s
 * opened with it): one setting split into fixed shares; the write buffers' divided by the number
 * of tasks open now, the hot tiers' split among them by what each wants ({@link Lease#hotBytes()}),
 * so a share grows and shrinks as tasks come and go.
 *
 * <pre>
 *   budget B
 *   ├─ 30% RocksDB, off-heap: ONE block cache for all tasks (data, index and filter blocks), to
 *   │      which ONE write-buffer manager charges every memtable, bloom filters included (at most
 *   │      45% of the 30%); past that limit each store that writes flushes its memtables (RocksDB
 *   │      does not stall writers: see the constructor); past half of the 30% held unevictable, a
 *   │      store's checkpoint writer flushes its memtables and waits for that before writing, so
 *   │      memtables do not pile up behind a slow disk. The bound is soft: the cache's limit is
 *   │      not strict, and memtables can pass it by the checkpoints being written meanwhile
 *   ├─ 10% hot dedup ids, on heap: the pool of ids of whole dedup horizons ({@link #hotIdPool()})
 *   ├─ 40% hot tiers, on heap: the key tables' hot keys; split among the tasks, and a task's part
 *   │      among its key tables, by what each wants ({@code Shares}), each table holding as many
 *   │      keys as their measured size fits its part ({@code HotTierSizing})
 *   └─ 20% write buffers, on heap: each task's changes since its last checkpoint plus the buffers
 *          of the checkpoint being taken and of the one being written (snapshots count)
 * </pre>
 *
 * <p>When a task's write buffers fill, it checkpoints early; when they reach its share with a
 * checkpoint still being written, the task's thread waits for it (back-pressure: it stops reading
 * its input, nothing is dropped, nothing exits). What the budget does not cover: the reservoirs' caches, the dedup ids
 * of tasks whose horizon is within their in-memory part ({@link DurableStateOptions#dedupHotMs()}: all
 * in memory, not in the pool), the JVM and Kafka clients.
 *
 * <p>Thread-safe: tasks {@link #attach()} and detach from their own threads and say what they want
 * through their {@link Lease} (a volatile write, and the version bumped when it changes); each
 * task's thread checks {@link #version()} (one atomic read) and recomputes its part from all the
 * leases' wants when it moved. Closed by the node after every store using it is closed.
 */
public final class StateMemory implements AutoCloseable {
    /** Smallest budget accepted: 64 MiB. */
    public static final long MIN_BYTES = 64L << 20;

    static {
        RocksDB.loadLibrary();
    }

    private final long budgetBytes;
    private final LRUCache cache;
    private final WriteBufferManager writeBuffers;
    private final RateLimiter rateLimiter;
    private final HotIdPool hotIds;
    private final CopyOnWriteArrayList<Lease> leases = new CopyOnWriteArrayList<>();
    // bumped when a task comes or goes or changes what it wants of the hot tiers: every task's
    // share may have moved
    private final AtomicInteger version = new AtomicInteger();

    /**
     * @param budgetBytes the node's state memory, at least {@link #MIN_BYTES}
     * @throws IllegalArgumentException when smaller
     */
    public StateMemory(long budgetBytes) {
        this(budgetBytes, 0);
    }

    /**
     * @param budgetBytes the node's state memory, at least {@link #MIN_BYTES}
     * @param backgroundWriteBytesPerSecond the most bytes per second RocksDB's flushes and
     *        compactions write, all stores together (0: no cap): for a disk shared with other
     *        writers, and for tests to stand for a slow disk
     * @throws IllegalArgumentException when the budget is smaller, or the cap negative
     */
    public StateMemory(long budgetBytes, long backgroundWriteBytesPerSecond) {
        if (backgroundWriteBytesPerSecond < 0) {
            throw new IllegalArgumentException("the background write cap must not be negative, not "
                    + backgroundWriteBytesPerSecond);
        }
        if (budgetBytes < MIN_BYTES) {
            throw new IllegalArgumentException("the state memory budget must be at least 64 MiB, not " + budgetBytes
                    + " bytes");
        }
        this.budgetBytes = budgetBytes;
        this.cache = new LRUCache(rocksDbBytes(), shardBits(rocksDbBytes()), false);
        // no write stall (allow_stall false): a stalled write waits for memtable memory to drop, but
        // only a write to a store flushes that store's memtables, so idle stores holding the memory
        // (tasks closing one by one, or simply idle) would keep it stalled for ever; the manager still
        // has every store that writes flush past the limit, and charges the memtables to the cache;
        // the checkpoint writers wait instead, for their own store's flush (memtableWaitBytes)
        this.writeBuffers = new WriteBufferManager(rocksDbBytes() * 9 / 20, cache, false);
        this.rateLimiter = backgroundWriteBytesPerSecond == 0 ? null : new RateLimiter(backgroundWriteBytesPerSecond);
        this.hotIds = new HotIdPool(budgetBytes / 10);
    }

    /**
     * A cache shard holds at least 32 MiB (at most 16 shards): each shard keeps its own part of the
     * capacity, and what it cannot evict (memtables' reservations, charged in large entries, and
     * pinned index and filter blocks) lands unevenly; 16 shards of a 26 MiB share overshot the
     * share by 3-5% quiet and 8% on a loaded machine, one or two by 1% (StateMemoryBudgetTest).
     * Contention stays low: a few tasks' threads, one cold read each at most per event.
     */
    static int shardBits(long capacityBytes) {
        int bits = 63 - Long.numberOfLeadingZeros(Math.max(1, capacityBytes >> 25));
        return Math.min(4, bits);
    }

    /**
     * What the tasks may spend keeping the dedup ids of their whole horizon in memory, a tenth of
     * the budget (taken from RocksDB's share, which was 40% before the pool counted in the budget):
     * past it, tasks move the ids older than their hot horizon to RocksDB.
     */
    public HotIdPool hotIdPool() {
        return hotIds;
    }

    public long budgetBytes() {
        return budgetBytes;
    }

    /** The RocksDB share, 30%: the shared block cache's capacity, memtables included. */
    public long rocksDbBytes() {
        return budgetBytes * 3 / 10;
    }

    /**
     * A store's state memtable size: an eighth of the RocksDB share, a sixteenth of a share under
     * 64 MiB; between 1 and 64 MiB. In a small share a few stores' memtables fill it: an eighth of
     * 30% of the smallest budget let twelve stores behind a slow disk hold 17-19 MiB of memtables in
     * a 19.2 MiB share (RocksDB at up to 117% of it, StateMemoryBudgetTest), a sixteenth 14 MiB
     * (101%). A large share keeps an eighth: fewer, larger flushes (38 MiB memtables at 1 GiB).
     */
    public long memtableBytes() {
        long share = rocksDbBytes();
        return Math.max(1L << 20, Math.min(64L << 20, share < 64L << 20 ? share / 16 : share / 8));
    }

    /**
     * Past this many unevictable bytes in the shared cache (memtables and pinned blocks: half the
     * RocksDB share, the manager's flush limit being 45%), a checkpoint writer flushes its store's
     * memtables and waits for the flush before it writes (see {@code CheckpointWriter}). With a
     * budget of 1 GiB (a 154 MiB limit; memtables of 38 MiB), two tasks' memtables rarely reach it.
     */
    public long memtableWaitBytes() {
        return rocksDbBytes() / 2;
    }

    /** Bytes RocksDB holds in the shared cache now: blocks, index and filter blocks, memtables. */
    public long rocksDbUsageBytes() {
        return cache.getUsage();
    }

    /** Bytes of the shared cache's usage that cannot be evicted now (pinned blocks, memtables). */
    public long rocksDbPinnedBytes() {
        return cache.getPinnedUsage();
    }

    /** Tasks attached now. */
    public int tasks() {
        return leases.size();
    }

    /** The hot tiers' share of the budget, for all tasks. */
    public long hotBytes() {
        return budgetBytes * 2 / 5;
    }

    /** An equal part of the hot tiers' share: what each task gets when all want more than that. */
    public long hotBytesPerTask() {
        return hotBytes() / Math.max(1, tasks());
    }

    /**
     * A task's part of the hot tiers' share ({@link Lease#hotBytes()}): split among the attached
     * tasks by what each wants ({@link Shares}); an equal part for a lease closed already.
     */
    private long hotBytes(Lease lease) {
        Lease[] all = leases.toArray(new Lease[0]);
        long[] wanted = new long[all.length];
        int self = -1;
        for (int i = 0; i < all.length; i++) {
            wanted[i] = all[i].wantedHotBytes;
            if (all[i] == lease) {
                self = i;
            }
        }
        return self < 0 ? hotBytesPerTask() : Shares.split(hotBytes(), wanted)[self];
    }

    /** Moves when a task comes or goes or changes its want: every task's hot part may have moved. */
    public int version() {
        return version.get();
    }

    /** A task's write-buffer share: its changes since the last checkpoint plus the checkpoints' buffers. */
    public long writeBufferBytesPerTask() {
        return budgetBytes / 5 / Math.max(1, tasks());
    }

    /** Counts one more task until the returned lease is closed (once). */
    public Lease attach() {
        Lease lease = new Lease(this);
        leases.add(lease);
        version.incrementAndGet();
        return lease;
    }

    /** A task's place in the budget, and what it wants of the hot tiers. */
    public static final class Lease implements AutoCloseable {
        private final StateMemory memory;
        private volatile long wantedHotBytes = Long.MAX_VALUE;
        private boolean closed;

        private Lease(StateMemory memory) {
            this.memory = memory;
        }

        /**
         * This task's part of the hot tiers' share, split among the attached tasks by what each
         * wants ({@link Shares}: one wanting less than an equal part gets its want, the others
         * equal parts of the rest). A task that has not said what it wants counts as wanting all.
         * Each task computes its own part from the wants as they are when it asks, and asks again
         * when {@link #version()} moves, so for a moment the parts may add up to more than the share.
         */
        public long hotBytes() {
            return memory.hotBytes(this);
        }

        /** {@link StateMemory#version()}. */
        public int version() {
            return memory.version();
        }

        /** Says what this task wants of the hot tiers now; a change moves {@link StateMemory#version()}. */
        public void wantHotBytes(long bytes) {
            if (bytes != wantedHotBytes) {
                wantedHotBytes = bytes;
                memory.version.incrementAndGet();
            }
        }

        @Override
        public synchronized void close() {
            if (!closed) {
                closed = true;
                memory.leases.remove(this);
                memory.version.incrementAndGet();
            }
        }
    }

    LRUCache cache() {
        return cache;
    }

    /** The cap on RocksDB's background writes, shared by all stores, or null. */
    RateLimiter rateLimiter() {
        return rateLimiter;
    }

    WriteBufferManager writeBufferManager() {
        return writeBuffers;
    }

    @Override
    public void close() {
        writeBuffers.close();
        cache.close();
        if (rateLimiter != null) {
            rateLimiter.close();
        }
    }
}
