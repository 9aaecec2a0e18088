package io.railgun.engine.state.durable;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The memory a node's durable tasks may spend keeping the dedup ids of their whole horizon in
 * memory ({@link StateMemory#hotIdPool()}: a tenth of the state budget, one of its shares). A task whose horizon is
 * longer than the hot horizon keeps every id in memory while the node's tasks together hold less
 * than the pool; the first to find the pool passed while holding more than an even part of it
 * moves its ids older than the hot horizon to its cold tier (RocksDB), for good. So a task of a
 * few million ids over 180 days (FRAUD's card task: about a million, 62 MB) writes no id to
 * RocksDB, and a node of many such tasks holds about the pool: a task still past it with its tier
 * active narrows the part of its ids it keeps in memory (down to its lateness's; see
 * {@code task/HotIdHorizon}).
 *
 * <p>Thread-safe: each task reports through its own {@link Share} (an atomic add when its bytes
 * change, a read otherwise).
 */
public final class HotIdPool {
    private final long limitBytes;
    private final AtomicLong heldBytes = new AtomicLong();
    private final AtomicInteger shares = new AtomicInteger();

    public HotIdPool(long limitBytes) {
        if (limitBytes < 0) {
            throw new IllegalArgumentException("the hot id pool must not be negative, not " + limitBytes);
        }
        this.limitBytes = limitBytes;
    }

    public long limitBytes() {
        return limitBytes;
    }

    /** Bytes the tasks' ids take in memory, as last reported. */
    public long heldBytes() {
        return heldBytes.get();
    }

    /** A task's part, counted until it is closed. */
    public Share join() {
        shares.incrementAndGet();
        return new Share();
    }

    /** One task's ids in the pool. Owned by the task's thread. */
    public final class Share implements AutoCloseable {
        private long reported;
        private boolean closed;

        private Share() {}

        /**
         * Reports the bytes the task's ids take in memory now; true when the node's ids passed the
         * pool and this task holds more than an even part of it: it should move its older ids to
         * its cold tier (when the pool is passed, some task holds more than an even part).
         */
        public boolean report(long bytes) {
            if (bytes != reported && !closed) {
                heldBytes.addAndGet(bytes - reported);
                reported = bytes;
            }
            return heldBytes.get() > limitBytes && reported > limitBytes / Math.max(1, shares.get());
        }

        /** The node's pool: {@link HotIdPool#limitBytes()}. */
        public long limitBytes() {
            return limitBytes;
        }

        /** What the node's tasks hold: {@link HotIdPool#heldBytes()}. */
        public long heldBytes() {
            return heldBytes.get();
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                heldBytes.addAndGet(-reported);
                reported = 0;
                shares.decrementAndGet();
            }
        }
    }
}
