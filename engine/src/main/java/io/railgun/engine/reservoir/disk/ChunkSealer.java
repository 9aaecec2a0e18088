package io.railgun.engine.reservoir.disk;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.concurrent.locks.LockSupport;

/**
 * Seals a {@link DiskReservoir}'s final events into chunks and follows their writes: cuts the
 * front of the {@link OpenRegion} into closed chunks, indexes them, hands them to the background
 * {@link SegmentWriter} (kept in {@link PendingChunks}, readable from memory, until written), and
 * moves written ones to their place in the index and the {@link SegmentTable}, releasing those no
 * cursor is about to read. Knows the positions a checkpoint or restart needs: the end of the last
 * closed chunk ({@link #closedCount}, {@link #closedPosition}) and the last event on disk
 * ({@link #persistedPosition}).
 *
 * <p>Back-pressure: when the chunks waiting for their write take more than
 * {@link DiskReservoirOptions#pendingMaxBytes()}, closing one waits for the writer, so a writer that
 * falls behind (a slow disk, or starved of CPU while the JIT and the collector compete for the
 * machine's cores) slows the task rather than growing its heap; each waiting chunk's arrays would
 * otherwise be new ones, where the written chunks' go back to the {@link ChunkPool}.
 *
 * <p>Task's thread only; the writer publishes a chunk's location through its {@link PendingChunk}.
 */
final class ChunkSealer {
    private static final System.Logger LOG = System.getLogger(DiskReservoir.class.getName());
    private static final long WAIT_NANOS = 50_000;
    /**
     * Waits are logged, summed, at most this often, and once they add up to {@link #LOG_AFTER_NANOS}
     * (a JVM's first seconds, the JIT and the collector on every core, make E1 wait some 0.3 s).
     */
    private static final long LOG_EVERY_NANOS = 60_000_000_000L;
    private static final long LOG_AFTER_NANOS = 1_000_000_000L;
    private final SegmentFiles files;
    private final int chunkTargetBytes;
    private final long pendingMaxBytes;
    private final OpenRegion open;
    private final ChunkIndex index;
    private final SegmentTable segments;
    private final PendingChunks pending;
    private final SegmentWriter writer;
    private final CursorReads reads;

    /** Position (global event index) right after the last closed chunk. */
    private long closedCount;
    private long persistedTs = Long.MIN_VALUE;
    private long persistedSeq = -1;
    private long persistedMaxSeq = -1;
    // the last event of the last closed chunk, for checkpoints
    private PersistedPosition closedPosition = PersistedPosition.NONE;
    private long writeWaits;
    private long writeWaitNanos;
    private long loggedWaits; // the waits and their time at the last log
    private long loggedWaitNanos;
    private long loggedAt = System.nanoTime() - LOG_EVERY_NANOS;

    ChunkSealer(SegmentFiles files, int chunkTargetBytes, long pendingMaxBytes, OpenRegion open, ChunkIndex index,
                SegmentTable segments, PendingChunks pending, SegmentWriter writer, CursorReads reads) {
        this.files = files;
        this.chunkTargetBytes = chunkTargetBytes;
        this.pendingMaxBytes = pendingMaxBytes;
        this.open = open;
        this.index = index;
        this.segments = segments;
        this.pending = pending;
        this.writer = writer;
        this.reads = reads;
    }

    /** At open: the chunks recovery found on disk, in order, become the closed and persisted ones. */
    void recovered(Iterable<SegmentRecovery.RecoveredChunk> chunks) {
        for (SegmentRecovery.RecoveredChunk c : chunks) {
            long id = index.append(closedCount, c.firstTs(), c.lastTs(), c.firstSeq(), c.count());
            index.setLocation(id, c.segmentId(), c.offset(), c.frameLength());
            segments.chunkWritten(c.segmentId(), id, c.frameLength());
            closedCount += c.count();
            persistedTs = c.lastTs();
            persistedSeq = c.lastSeq();
            persistedMaxSeq = Math.max(persistedMaxSeq, c.maxSeq());
        }
        closedPosition = persistedPosition();
    }

    /** Position (global event index) right after the last closed chunk. */
    long closedCount() {
        return closedCount;
    }

    /** The last event of the last closed chunk (written or not). */
    PersistedPosition closedPosition() {
        return closedPosition;
    }

    /** The last event on disk (written, perhaps not yet synced). */
    PersistedPosition persistedPosition() {
        popWrittenChunks();
        if (persistedSeq < 0 && persistedTs == Long.MIN_VALUE) {
            return PersistedPosition.NONE;
        }
        return new PersistedPosition(persistedTs, persistedSeq, persistedMaxSeq);
    }

    /** Cuts the final events into chunks of the target size, or all of them ({@code force}), and queues their writes. */
    void closeChunks(boolean force) {
        int target = chunkTargetBytes;
        while (open.finalCount() > 0 && (force || open.hasCompleteChunk(target))) {
            int n = open.nextChunkLength(target);
            Chunk c = open.cut(index.nextId(), n);
            index.append(closedCount, c.firstTimestamp(), c.lastTimestamp(), c.firstSeq(), c.count);
            closedCount += n;
            closedPosition = new PersistedPosition(c.lastTimestamp(), c.lastSeq(), Math.max(closedPosition.maxSeq(), c.maxSeq));
            PendingChunk p = new PendingChunk(c);
            pending.push(p);
            writer.write(p);
            if (pending.bytes() > pendingMaxBytes) {
                awaitWrites();
            }
        }
    }

    /**
     * Waits until the chunks waiting for their write take at most the bound (or none is left).
     *
     * @throws ReservoirIoException when a background write failed
     */
    private void awaitWrites() {
        long at = System.nanoTime();
        writeWaits++;
        boolean interrupted = false;
        try {
            drainWrites();
            while (pending.bytes() > pendingMaxBytes && pending.count() > 0) {
                LockSupport.parkNanos(WAIT_NANOS);
                interrupted |= Thread.interrupted(); // (set, the flag would end every park at once: a spin)
                drainWrites();
                at = countWait(at); // (as it goes: a writer stuck for long is logged while the task waits)
            }
            countWait(at);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt(); // for the caller, once the writer caught up
            }
        }
    }

    /** Adds the time waited since {@code since} and logs the waits when due; returns now. */
    private long countWait(long since) {
        long now = System.nanoTime();
        writeWaitNanos += now - since;
        if (now - loggedAt >= LOG_EVERY_NANOS && writeWaitNanos - loggedWaitNanos >= LOG_AFTER_NANOS) {
            logWaits(now);
        }
        return now;
    }

    private void logWaits(long now) {
        long waits = writeWaits - loggedWaits;
        long ms = (writeWaitNanos - loggedWaitNanos) / 1_000_000;
        LOG.log(Level.WARNING, () -> String.format("reservoir %s: its writer is behind (the disk slower than the events,"
                + " or the writer short of CPU): the task waited for it %,d times, %,d ms in all, the chunks waiting"
                + " for their write over %,d bytes (pendingMaxBytes; at most one such message a minute)",
                files.directory(), waits, ms, pendingMaxBytes));
        loggedAt = now;
        loggedWaits = writeWaits;
        loggedWaitNanos = writeWaitNanos;
    }

    /** Times closing a chunk waited for the writer (back-pressure). */
    long writeWaits() {
        return writeWaits;
    }

    /** Nanoseconds those waits took in all. */
    long writeWaitNanos() {
        return writeWaitNanos;
    }

    /**
     * Moves written chunks from pending to the index (the writer completes them in order).
     *
     * @throws ReservoirIoException when a background write failed
     */
    void drainWrites() {
        Throwable failure = writer.failure();
        if (failure != null) {
            throw new ReservoirIoException("reservoir " + files.directory() + ": background write failed: " + failure,
                    failure instanceof IOException io ? io : new IOException(failure));
        }
        popWrittenChunks();
    }

    /** Moves written chunks from pending to the index, without checking for a failed write. */
    void popWrittenChunks() {
        while (pending.firstWritten()) {
            popWritten();
        }
    }

    private void popWritten() {
        PendingChunk p = pending.pop();
        Chunk c = p.chunk;
        if (!index.contains(c.id)) {
            return; // cannot happen: chunks are trimmed only once written
        }
        index.setLocation(c.id, p.segmentId, p.offset, p.frameLength);
        segments.chunkWritten(p.segmentId, c.id, p.frameLength);
        persistedTs = c.lastTimestamp(); // before the release: a reader thread may refill the arrays at once
        persistedSeq = c.lastSeq();
        persistedMaxSeq = Math.max(persistedMaxSeq, c.maxSeq);
        if (!reads.keepWritten(c)) {
            open.pool.release(c); // written, not cached, no cursor in it: nothing reads it any more
        }
    }
}
