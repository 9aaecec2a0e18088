package io.railgun.engine.reservoir.disk;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.reservoir.EventReservoir;
import io.railgun.engine.reservoir.ReservoirCursor;
import io.railgun.engine.thread.BackgroundThreads;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The on-disk {@link EventReservoir} of one task (paper §4.1.1): events live in compressed,
 * checksummed chunks appended to segment files in a directory the reservoir owns (format in
 * {@link SegmentDescriptor}); memory holds only the open region, the chunks waiting for their
 * write, a bounded chunk cache and about one chunk per cursor, whatever the window lengths.
 *
 * <p><b>Life of an event.</b> {@link #insert} puts it at its sorted place in the <em>open
 * region</em> (heap columns). When the watermark passes it ({@link #advanceWatermark}) it becomes
 * final; once the final events of the region's front reach {@code chunkTargetBytes} of rows (or a
 * schema change ends a chunk) they are cut into a closed chunk: serialised in memory, indexed, and
 * handed to the background {@link SegmentWriter}, which compresses it, adds its CRC32C and appends
 * it to the active segment. Until that write is done the chunk is read from memory; after it, from
 * the cache or the file. Chunk closure is thus delayed by exactly the lateness (through the
 * watermark), and closed chunks are immutable: inserts may only have timestamps at or above the
 * watermark. Each chunk holds rows of one schema id (the chunk is cut at a schema change);
 * rows keep their own field count, so old rows read fields added later as null.
 *
 * <p><b>Cursors</b> keep the in-memory reservoir's contract: a cursor has passed exactly the
 * events with a timestamp at or below its boundary, so an event inserted at or behind it counts as
 * passed and is never delivered by it. A cursor holds the chunk it is in; when it enters a chunk it
 * pins the next one in the shared {@link ChunkCache} and, when that one is not in memory, starts an
 * asynchronous read of it (prefetch); a chunk whose write completes while a cursor is about to
 * enter it stays cached the same way. Entering a chunk that is in neither memory nor the cache is
 * a stall: the task's thread reads it itself, or waits for the prefetch already running. Opening a
 * cursor is a binary search in the index and does no I/O (it prefetches its first chunk). Cursors
 * shared by aligned windows (the task plan does that) share chunks through the cache.
 *
 * <p><b>Retention.</b> {@link #trim()} deletes (in the background) whole segment files whose
 * events every cursor has passed, never the active one. Events in the open region are not dropped
 * by trim: they are released when their chunk is closed and written, so the files always hold a
 * gap-free prefix of the task's events, which is what {@link #persistedPosition()} describes.
 *
 * <p><b>Durability.</b> {@link #flush()} closes every final event into chunks, writes and syncs
 * them, and returns the position reached (for checkpoints). {@link #close()} only finishes the
 * writes of chunks already closed: the open region is lost on close or crash by design, and the
 * task replays it from Kafka after {@link #persistedPosition()}. Opening an existing directory
 * checks every chunk, rebuilds the index, cuts a torn or corrupt tail (logged), and sets the
 * watermark to the last persisted timestamp.
 *
 * <p><b>Threads.</b> Every method, and every method of its cursors, is called from the task's
 * thread only. Writes run on the injected writer executor (one command at a time, in order),
 * prefetches on the injected reader executor; results come back through lock-free queues drained
 * on the task's thread. {@link #insert} never waits for either executor; a cursor entering a
 * chunk whose prefetch has not arrived waits for it (a stall: its reader's own thread runs at the
 * task's priority for that reason); {@link #flush()} and {@link #close()} wait for the writer, and
 * so does {@link #advanceWatermark} when the chunks waiting for their write pass
 * {@link DiskReservoirOptions#pendingMaxBytes()} (back-pressure). A failed write makes the next call
 * throw {@link ReservoirIoException}.
 */
public final class DiskReservoir implements EventReservoir {
    private final DiskReservoirOptions options;
    private final SegmentFiles files;
    private final ChunkReader reader;
    private final SegmentWriter writer;
    private final List<ExecutorService> ownedExecutors;
    private final List<String> recoveryCuts;

    private final OpenRegion open = new OpenRegion();
    private final ChunkIndex index = new ChunkIndex();
    private final SegmentTable segments = new SegmentTable();
    private final PendingChunks pending = new PendingChunks();
    private final ChunkCache cache;
    private final CursorReads reads;
    private final ChunkSealer sealer;
    private final SegmentTrimmer trimmer;

    private long watermark = Long.MIN_VALUE;
    private boolean closed;

    private DiskReservoir(Path directory, DiskReservoirOptions options, Executor writeExecutor, Executor readExecutor,
                          List<ExecutorService> owned, PersistedPosition cutAfter) throws IOException {
        this.options = options;
        this.files = new SegmentFiles(directory);
        this.reader = new ChunkReader(files, open.pool);
        this.ownedExecutors = owned;
        this.cache = new ChunkCache(options.cacheMaxChunks(), options.cacheMaxBytes(), this::left);
        SegmentRecovery.Result recovered = SegmentRecovery.recover(directory, cutAfter);
        this.recoveryCuts = List.copyOf(recovered.cuts());
        long next = recovered.lastSegmentId() + 1;
        this.writer = new SegmentWriter(files, options.segmentMaxBytes(), options.codec(), options.compressionLevel(),
                writeExecutor, recovered.lastSegmentId(), recovered.lastSegmentSize(), next);
        this.reads = new CursorReads(files, reader, readExecutor, index, cache, pending);
        this.sealer = new ChunkSealer(files, options.chunkTargetBytes(), options.pendingMaxBytes(), open, index, segments,
                pending, writer, reads);
        this.trimmer = new SegmentTrimmer(index, segments, writer, cache);
        sealer.recovered(recovered.chunks());
        if (sealer.closedCount() > 0) {
            // nothing can be inserted before the last persisted event any more
            watermark = sealer.persistedPosition().timestamp();
            open.advanceWatermark(watermark);
        }
    }

    /**
     * Opens (creating or recovering) the reservoir in {@code directory}, which it owns: no other
     * reservoir or process may use it at the same time.
     *
     * @param writeExecutor runs the background writer (any executor: commands run one at a time)
     * @param readExecutor  runs prefetch reads (may be shared by several reservoirs)
     * @throws ReservoirIoException     when the directory cannot be read or repaired
     * @throws ReservoirFormatException when it holds files of a format this build cannot read
     */
    public static DiskReservoir open(Path directory, DiskReservoirOptions options, Executor writeExecutor,
                                     Executor readExecutor) {
        return open(directory, options, writeExecutor, readExecutor, List.of(), null);
    }

    /**
     * Opens the reservoir as a checkpoint left it: chunks after {@code checkpoint}'s closed
     * position are cut, its open region is inserted again, and no file is trimmed until
     * {@link #allowTrimBelow} says the cursors of a newer checkpoint no longer need it. Without a
     * checkpoint ({@code null}) every chunk is cut: the task replays its input from the start.
     * Runs its own writer and reader threads, stopped by {@link #close()}.
     */
    public static DiskReservoir restore(Path directory, DiskReservoirOptions options, ReservoirCheckpoint checkpoint) {
        DiskReservoir reservoir = openWithOwnThreads(directory, options,
                checkpoint == null ? PersistedPosition.NONE : checkpoint.closed());
        reservoir.trimmer.allowTrimBelow(0);
        if (checkpoint != null) {
            OpenRegionRows.restore(reservoir.open, checkpoint);
        }
        return reservoir;
    }

    /**
     * Opens the reservoir with its own two daemon threads (writer and reader), stopped by
     * {@link #close()}. Convenient for one task; a node with many tasks should share executors.
     */
    public static DiskReservoir open(Path directory, DiskReservoirOptions options) {
        return openWithOwnThreads(directory, options, null);
    }

    private static DiskReservoir openWithOwnThreads(Path directory, DiskReservoirOptions options,
                                                    PersistedPosition cutAfter) {
        String name = directory.getFileName() == null ? "reservoir" : directory.getFileName().toString();
        ExecutorService w = Executors.newSingleThreadExecutor(BackgroundThreads.factory("reservoir-writer-" + name));
        // the reader at the caller's priority: a cursor may wait for its reads
        ExecutorService r = Executors.newSingleThreadExecutor(BackgroundThreads.promptFactory("reservoir-reader-" + name));
        try {
            return open(directory, options, w, r, List.of(w, r), cutAfter);
        } catch (RuntimeException e) {
            w.shutdownNow();
            r.shutdownNow();
            throw e;
        }
    }

    private static DiskReservoir open(Path directory, DiskReservoirOptions options, Executor writeExecutor,
                                      Executor readExecutor, List<ExecutorService> owned, PersistedPosition cutAfter) {
        try {
            return new DiskReservoir(directory, options, writeExecutor, readExecutor, owned, cutAfter);
        } catch (IOException e) {
            throw new ReservoirIoException("cannot open the reservoir in " + directory + ": " + e.getMessage(), e);
        }
    }

    // ---------------------------------------------------------------- EventReservoir

    /**
     * Stores an event in the open region; no I/O.
     *
     * @throws IllegalArgumentException when {@code timestamp} is below the watermark (its chunk may be
     *                                  closed already; the task never does this)
     */
    @Override
    public void insert(long timestamp, long seq, EventRow row) {
        checkOpen();
        if (timestamp < watermark) {
            throw new IllegalArgumentException("event at " + timestamp + " is below the reservoir watermark " + watermark
                    + ": events below it are final (the task must drop or rewrite it first)");
        }
        open.insert(timestamp, seq, row);
    }

    /**
     * Makes events below {@code timestamp} final and closes the complete chunks among them; no I/O,
     * but a wait for the writer when the chunks waiting for it pass their bound.
     */
    @Override
    public void advanceWatermark(long timestamp) {
        checkOpen();
        sealer.drainWrites();
        if (timestamp <= watermark) {
            return;
        }
        watermark = timestamp;
        open.advanceWatermark(timestamp);
        if (open.hasCompleteChunk(options.chunkTargetBytes())) {
            sealer.closeChunks(false);
        }
    }

    @Override
    public ReservoirCursor openCursor(long boundary) {
        checkOpen();
        sealer.drainWrites();
        reads.drainArrivals();
        DiskCursor c = new DiskCursor(this, boundary);
        long id = index.firstIdWithLastAbove(boundary);
        if (id < index.nextId()) {
            c.position = index.startPos(id); // events of it at or below the boundary are skipped when read
            reads.lookAhead(c, id);
        } else {
            c.position = sealer.closedCount() + open.upperBound(boundary);
        }
        reads.add(c);
        return c;
    }

    /** Deletes, in the background, the sealed segment files whose events every cursor has passed. */
    @Override
    public void trim() {
        checkOpen();
        sealer.drainWrites();
        reads.drainArrivals();
        trimmer.trim(reads.minCursorPosition());
    }

    /** Nanoseconds closing chunks waited for the writer, the chunks pending over their bound ({@link ReservoirStats#writeWaitNanos()}). */
    @Override
    public long writeWaitNanos() {
        return sealer.writeWaitNanos();
    }

    /** Events held: in the files still kept, waiting for their write, and in the open region. */
    @Override
    public long size() {
        long closedCount = sealer.closedCount();
        long firstPos = index.size() > 0 ? index.startPos(index.firstId()) : closedCount;
        return closedCount - firstPos + open.size();
    }

    /** Heap bytes of event data: open region, chunks waiting for their write, cache, cursors' chunks. */
    @Override
    public long memoryBytes() {
        return open.memoryBytes() + pending.bytes() + cache.bytes() + reads.heldBytes();
    }

    /**
     * Finishes the writes of the chunks already closed and releases files and threads; waits for
     * the writer. The open region is dropped (replayed from Kafka after {@link #persistedPosition()}
     * on the next start); call {@link #flush()} first to keep the final events too.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            writer.stop().join();
        } finally {
            sealer.popWrittenChunks();
            files.closeAll();
            reader.close();
            cache.clear();
            reads.clear();
            open.clear();
            for (ExecutorService e : ownedExecutors) {
                e.shutdown();
            }
        }
    }

    // ---------------------------------------------------------------- beyond the interface

    /**
     * Closes every event below the watermark into chunks (the last one may be short), waits until
     * all closed chunks are written and synced to disk, and returns the position now persisted. For
     * checkpoints: with the state store's checkpoint at the same event, a restart replays only the
     * events after the returned position. Blocks the caller on disk I/O.
     *
     * @throws ReservoirIoException when a write or the sync failed
     */
    public PersistedPosition flush() {
        checkOpen();
        sealer.drainWrites();
        sealer.closeChunks(true);
        try {
            writer.sync().join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            throw new ReservoirIoException("reservoir " + files.directory() + ": flush failed: " + cause,
                    cause instanceof IOException io ? io : new IOException(cause));
        }
        sealer.drainWrites();
        return persistedPosition();
    }

    /**
     * Captures what a task checkpoint needs of the reservoir, without waiting for I/O: the position
     * of the last closed chunk, a copy of the open region (events not closed into chunks yet: at
     * most the lateness and one chunk's worth), the cursors' least position (files from there on
     * must survive until the checkpoint is complete, see {@link #allowTrimBelow}), and a future
     * completed once every chunk closed so far is written and synced.
     */
    public ReservoirCheckpoint checkpoint() {
        checkOpen();
        sealer.drainWrites();
        int n = open.size();
        byte[] openRows = OpenRegionRows.encode(open);
        return new ReservoirCheckpoint(sealer.closedPosition(), n, openRows, reads.minCursorPosition(), writer.sync());
    }

    /**
     * A checkpoint taken when the cursors' least position was {@code position} is complete: files
     * wholly before it may now be trimmed. Until the first call after {@link #restore}, none is.
     */
    public void allowTrimBelow(long position) {
        trimmer.allowTrimBelow(position);
    }

    /** The last event on disk (written, perhaps not yet synced: {@link #flush()} syncs). */
    public PersistedPosition persistedPosition() {
        return sealer.persistedPosition();
    }

    /** Timestamp below which no event may be inserted any more. */
    public long watermark() {
        return watermark;
    }

    public ReservoirStats stats() {
        if (!closed) {
            sealer.popWrittenChunks();
            reads.drainArrivals();
        }
        return new ReservoirStats(reads.chunkEntries(), reads.hits(), reads.misses(), reads.prefetches(), reads.stalls(),
                segments.totalBytes(), segments.size(), cache.bytes(), cache.size(), pending.count(), pending.bytes(),
                open.size(), sealer.writeWaits(), sealer.writeWaitNanos());
    }

    public DiskReservoirOptions options() {
        return options;
    }

    public Path directory() {
        return files.directory();
    }

    /** What the last open cut from a torn or corrupt tail, one line per cut (empty when nothing). */
    public List<String> recoveryCuts() {
        return recoveryCuts;
    }

    // ---------------------------------------------------------------- for cursors (task's thread)

    long closedCount() {
        return sealer.closedCount();
    }

    OpenRegion openRegion() {
        return open;
    }

    ChunkIndex index() {
        return index;
    }

    /** A cursor enters chunk {@code id}: returns it (stalling when not in memory) and prefetches the next. */
    Chunk enter(DiskCursor cursor, long id) {
        checkOpen();
        sealer.drainWrites();
        return reads.enter(cursor, id);
    }

    /** Unpins the chunk a cursor looked ahead to, if any (it skips: see {@link DiskCursor#skipTo}). */
    void releasePin(DiskCursor c) {
        reads.release(c);
    }

    /**
     * A chunk left the cache or a cursor: its arrays go back to the pool when nothing else reads it
     * (no cursor in it, not cached, not waiting for its write, which releases it then).
     */
    void left(Chunk c) {
        if (closed) {
            return; // its cursors are forgotten: whether another still holds the chunk is not known
        }
        if (pending.get(c.id) == null && !cache.holds(c) && !reads.anyCursorIn(c)) {
            open.pool.release(c);
        }
    }

    void removeCursor(DiskCursor c) {
        reads.remove(c);
    }

    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("reservoir " + files.directory() + " is closed");
        }
    }

    /** Waits for the writer to finish its queue (tests). */
    CompletableFuture<Void> writerIdle() {
        return writer.sync();
    }
}
