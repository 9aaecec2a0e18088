package io.railgun.engine.reservoir.disk;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.reservoir.EventReservoir;
import io.railgun.engine.reservoir.ReservoirCursor;
import io.railgun.engine.state.StateReader;
import io.railgun.engine.state.StateWriter;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;

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
 * on the task's thread. {@link #insert} and cursor reads never wait for either executor;
 * {@link #flush()} and {@link #close()} do. A failed write makes the next call throw
 * {@link ReservoirIoException}.
 */
public final class DiskReservoir implements EventReservoir {
    private static final System.Logger LOG = System.getLogger(DiskReservoir.class.getName());
    /** Bytes of a checkpointed open-region event besides its row: timestamp, seq, length prefix. */
    private static final int OPEN_ROW_OVERHEAD_BYTES = 8 + 8 + 4;

    private final DiskReservoirOptions options;
    private final SegmentFiles files;
    private final ChunkReader reader;
    private final SegmentWriter writer;
    private final Executor readExecutor;
    private final List<ExecutorService> ownedExecutors;
    private final List<String> recoveryCuts;

    private final OpenRegion open = new OpenRegion();
    private final ChunkIndex index = new ChunkIndex();
    private final SegmentTable segments = new SegmentTable();
    private final ChunkCache cache;
    private final ConcurrentLinkedQueue<ChunkFetch> arrivals = new ConcurrentLinkedQueue<>();
    private final List<DiskCursor> cursors = new ArrayList<>();

    private final PendingChunks pending = new PendingChunks();
    private ChunkFetch[] inFlight = new ChunkFetch[16];
    private int inFlightCount;

    /** Position (global event index) right after the last closed chunk. */
    private long closedCount;
    private long watermark = Long.MIN_VALUE;
    private long persistedTs = Long.MIN_VALUE;
    private long persistedSeq = -1;
    private long persistedMaxSeq = -1;
    // the last event of the last closed chunk, for checkpoints
    private PersistedPosition closedPosition = PersistedPosition.NONE;
    // files holding events at or after this position are kept (a checkpoint's cursors may need them)
    private long trimLimit = Long.MAX_VALUE;
    private boolean closed;

    private long chunkEntries;
    private long hits;
    private long misses;
    private long prefetches;
    private long stalls;

    private DiskReservoir(Path directory, DiskReservoirOptions options, Executor writeExecutor, Executor readExecutor,
                          List<ExecutorService> owned, PersistedPosition cutAfter) throws IOException {
        this.options = options;
        this.files = new SegmentFiles(directory);
        this.reader = new ChunkReader(files);
        this.readExecutor = readExecutor;
        this.ownedExecutors = owned;
        this.cache = new ChunkCache(options.cacheMaxChunks(), options.cacheMaxBytes());
        SegmentRecovery.Result recovered = SegmentRecovery.recover(directory, cutAfter);
        this.recoveryCuts = List.copyOf(recovered.cuts());
        for (SegmentRecovery.RecoveredChunk c : recovered.chunks()) {
            long id = index.append(closedCount, c.firstTs(), c.lastTs(), c.firstSeq(), c.count());
            index.setLocation(id, c.segmentId(), c.offset(), c.frameLength());
            segments.chunkWritten(c.segmentId(), id, c.frameLength());
            closedCount += c.count();
            persistedTs = c.lastTs();
            persistedSeq = c.lastSeq();
            persistedMaxSeq = Math.max(persistedMaxSeq, c.maxSeq());
        }
        closedPosition = persistedPosition();
        if (closedCount > 0) {
            // nothing can be inserted before the last persisted event any more
            watermark = persistedTs;
            open.advanceWatermark(watermark);
        }
        long next = recovered.lastSegmentId() + 1;
        this.writer = new SegmentWriter(files, options.segmentMaxBytes(), options.codec(), options.compressionLevel(),
                writeExecutor, recovered.lastSegmentId(), recovered.lastSegmentSize(), next);
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
        String name = directory.getFileName() == null ? "reservoir" : directory.getFileName().toString();
        ExecutorService w = Executors.newSingleThreadExecutor(daemon("reservoir-writer-" + name));
        ExecutorService r = Executors.newSingleThreadExecutor(daemon("reservoir-reader-" + name));
        DiskReservoir reservoir;
        try {
            reservoir = open(directory, options, w, r, List.of(w, r),
                    checkpoint == null ? PersistedPosition.NONE : checkpoint.closed());
        } catch (RuntimeException e) {
            w.shutdownNow();
            r.shutdownNow();
            throw e;
        }
        reservoir.trimLimit = 0;
        if (checkpoint != null) {
            reservoir.restoreOpenRegion(checkpoint);
        }
        return reservoir;
    }

    /**
     * Opens the reservoir with its own two daemon threads (writer and reader), stopped by
     * {@link #close()}. Convenient for one task; a node with many tasks should share executors.
     */
    public static DiskReservoir open(Path directory, DiskReservoirOptions options) {
        String name = directory.getFileName() == null ? "reservoir" : directory.getFileName().toString();
        ExecutorService w = Executors.newSingleThreadExecutor(daemon("reservoir-writer-" + name));
        ExecutorService r = Executors.newSingleThreadExecutor(daemon("reservoir-reader-" + name));
        try {
            return open(directory, options, w, r, List.of(w, r), null);
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

    private static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
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

    /** Makes events below {@code timestamp} final and closes the complete chunks among them; no I/O. */
    @Override
    public void advanceWatermark(long timestamp) {
        checkOpen();
        drainWrites();
        if (timestamp <= watermark) {
            return;
        }
        watermark = timestamp;
        open.advanceWatermark(timestamp);
        if (open.hasCompleteChunk(options.chunkTargetBytes())) {
            closeChunks(false);
        }
    }

    @Override
    public ReservoirCursor openCursor(long boundary) {
        checkOpen();
        drainWrites();
        drainArrivals();
        DiskCursor c = new DiskCursor(this, boundary);
        long id = index.firstIdWithLastAbove(boundary);
        if (id < index.nextId()) {
            c.position = index.startPos(id); // events of it at or below the boundary are skipped when read
            lookAhead(c, id);
        } else {
            c.position = closedCount + open.upperBound(boundary);
        }
        cursors.add(c);
        return c;
    }

    /** Deletes, in the background, the sealed segment files whose events every cursor has passed. */
    @Override
    public void trim() {
        checkOpen();
        drainWrites();
        drainArrivals();
        long min = Math.min(trimLimit, minCursorPosition());
        boolean removed = false;
        while (segments.size() > 1 && index.endPos(segments.firstLastChunkId()) <= min) {
            index.removeThrough(segments.firstLastChunkId());
            writer.delete(segments.firstId());
            segments.removeFirst();
            removed = true;
        }
        if (removed) {
            cache.removeBelow(index.firstId());
        }
    }

    private long minCursorPosition() {
        long min = Long.MAX_VALUE;
        for (int i = 0, n = cursors.size(); i < n; i++) {
            min = Math.min(min, cursors.get(i).position);
        }
        return min;
    }

    /** Events held: in the files still kept, waiting for their write, and in the open region. */
    @Override
    public long size() {
        long firstPos = index.size() > 0 ? index.startPos(index.firstId()) : closedCount;
        return closedCount - firstPos + open.size();
    }

    /** Heap bytes of event data: open region, chunks waiting for their write, cache, cursors' chunks. */
    @Override
    public long memoryBytes() {
        long bytes = open.memoryBytes() + pending.bytes() + cache.bytes();
        for (int i = 0, n = cursors.size(); i < n; i++) {
            Chunk c = cursors.get(i).chunk();
            if (c != null && !cache.holds(c) && pending.get(c.id) == null) {
                bytes += c.memoryBytes();
            }
        }
        return bytes;
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
            popWrittenChunks();
            files.closeAll();
            reader.close();
            cache.clear();
            cursors.clear();
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
        drainWrites();
        closeChunks(true);
        try {
            writer.sync().join();
        } catch (CompletionException e) {
            Throwable cause = e.getCause();
            throw new ReservoirIoException("reservoir " + files.directory() + ": flush failed: " + cause,
                    cause instanceof IOException io ? io : new IOException(cause));
        }
        drainWrites();
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
        drainWrites();
        int n = open.size();
        // presized (timestamp, seq, length prefix, row): the open region can hold megabytes, which a
        // doubling buffer would allocate about three times over, as humongous arrays, every checkpoint
        StateWriter rows = new StateWriter(Math.toIntExact(open.liveBytes() + OPEN_ROW_OVERHEAD_BYTES * (long) n));
        EventRow row = new EventRow();
        for (int i = 0; i < n; i++) {
            open.wrap(row, i);
            rows.putLong(open.timestamp(i)).putLong(open.seq(i)).putBytes(row.buffer(), row.offset(), row.length());
        }
        byte[] openRows = rows.toArray();
        return new ReservoirCheckpoint(closedPosition, n, openRows, minCursorPosition(), writer.sync());
    }

    /**
     * A checkpoint taken when the cursors' least position was {@code position} is complete: files
     * wholly before it may now be trimmed. Until the first call after {@link #restore}, none is.
     */
    public void allowTrimBelow(long position) {
        trimLimit = position;
    }

    private void restoreOpenRegion(ReservoirCheckpoint checkpoint) {
        StateReader in = new StateReader().reset(checkpoint.openRows(), 0, checkpoint.openRows().length);
        EventRow row = new EventRow();
        for (int i = 0; i < checkpoint.openCount(); i++) {
            long ts = in.getLong();
            long seq = in.getLong();
            int len = in.getBytesLength();
            row.wrap(in.buffer(), in.position() - len);
            open.insert(ts, seq, row);
        }
    }

    /** The last event on disk (written, perhaps not yet synced: {@link #flush()} syncs). */
    public PersistedPosition persistedPosition() {
        popWrittenChunks();
        if (persistedSeq < 0 && persistedTs == Long.MIN_VALUE) {
            return PersistedPosition.NONE;
        }
        return new PersistedPosition(persistedTs, persistedSeq, persistedMaxSeq);
    }

    /** Timestamp below which no event may be inserted any more. */
    public long watermark() {
        return watermark;
    }

    public ReservoirStats stats() {
        if (!closed) {
            popWrittenChunks();
            drainArrivals();
        }
        return new ReservoirStats(chunkEntries, hits, misses, prefetches, stalls, segments.totalBytes(), segments.size(),
                cache.bytes(), cache.size(), pending.count(), pending.bytes(), open.size());
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
        return closedCount;
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
        drainWrites();
        drainArrivals();
        release(cursor);
        chunkEntries++;
        Chunk c;
        PendingChunk p = pending.get(id);
        if (p != null) {
            hits++;
            c = p.chunk;
        } else {
            c = cache.get(id);
            if (c != null) {
                hits++;
            } else {
                misses++;
                stalls++;
                ChunkFetch f = removeInFlight(id);
                if (f != null && !f.claim()) {
                    c = f.await(); // a reader is on it: wait for that rather than read it twice
                }
                if (c == null) {
                    c = readNow(id);
                }
                cache.put(c, 0); // the cursor holds it; cached unpinned for cursors close behind
            }
        }
        lookAhead(cursor, id + 1);
        return c;
    }

    void removeCursor(DiskCursor c) {
        release(c);
        cursors.remove(c);
    }

    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("reservoir " + files.directory() + " is closed");
        }
    }

    // ---------------------------------------------------------------- internals

    private void closeChunks(boolean force) {
        int target = options.chunkTargetBytes();
        while (open.finalCount() > 0 && (force || open.hasCompleteChunk(target))) {
            int n = open.nextChunkLength(target);
            Chunk c = open.cut(index.nextId(), n);
            index.append(closedCount, c.firstTimestamp(), c.lastTimestamp(), c.firstSeq(), c.count);
            closedCount += n;
            closedPosition = new PersistedPosition(c.lastTimestamp(), c.lastSeq(), Math.max(closedPosition.maxSeq(), c.maxSeq));
            PendingChunk p = new PendingChunk(c);
            pending.push(p);
            writer.write(p);
        }
    }

    /** Moves written chunks from pending to the index (the writer completes them in order). */
    private void drainWrites() {
        Throwable failure = writer.failure();
        if (failure != null) {
            throw new ReservoirIoException("reservoir " + files.directory() + ": background write failed: " + failure,
                    failure instanceof IOException io ? io : new IOException(failure));
        }
        popWrittenChunks();
    }

    private void popWrittenChunks() {
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
        if (!keepForCursorsAhead(c) && !anyCursorIn(c)) {
            open.pool.release(c); // written, not cached, no cursor in it: nothing reads it any more
        }
        persistedTs = c.lastTimestamp();
        persistedSeq = c.lastSeq();
        persistedMaxSeq = Math.max(persistedMaxSeq, c.maxSeq);
    }

    /**
     * A chunk leaves memory once written, but cursors about to enter it (it is the next one they
     * looked ahead to, or they stand inside it without having entered it yet, coming from the open
     * region) would stall on it: it goes to the cache pinned by them instead.
     */
    private boolean anyCursorIn(Chunk c) {
        for (int i = 0, n = cursors.size(); i < n; i++) {
            if (cursors.get(i).chunk() == c) {
                return true;
            }
        }
        return false;
    }

    /** Caches a written chunk for the cursors about to enter it; whether it did. */
    private boolean keepForCursorsAhead(Chunk c) {
        long start = index.startPos(c.id);
        long end = start + c.count;
        int pins = 0;
        for (int i = 0, n = cursors.size(); i < n; i++) {
            DiskCursor cursor = cursors.get(i);
            if (cursor.pinned < 0 && cursor.chunk() == null && cursor.position >= start && cursor.position < end) {
                cursor.pinned = c.id;
            }
            if (cursor.pinned == c.id) {
                pins++;
            }
        }
        if (pins > 0) {
            cache.put(c, pins);
        }
        return pins > 0;
    }

    private int pinsOf(long id) {
        int pins = 0;
        for (int i = 0, n = cursors.size(); i < n; i++) {
            if (cursors.get(i).pinned == id) {
                pins++;
            }
        }
        return pins;
    }

    private void release(DiskCursor cursor) {
        if (cursor.pinned >= 0) {
            cache.unpin(cursor.pinned);
            cursor.pinned = -1;
        }
    }

    /**
     * The cursor will enter chunk {@code id} next: pins it in the cache (when it is there, or when
     * it arrives or gets written) and starts an asynchronous read when it is in neither memory nor
     * the cache.
     */
    private void lookAhead(DiskCursor cursor, long id) {
        if (!index.contains(id)) {
            return; // not closed yet: the cursor will read it in the open region or pending
        }
        cursor.pinned = id;
        if (pending.get(id) != null) {
            return; // in memory; cached with this pin if its write completes first
        }
        if (cache.get(id) != null) {
            cache.pin(id);
            hits++;
            return;
        }
        for (int i = 0; i < inFlightCount; i++) {
            if (inFlight[i].chunkId == id) {
                return; // pinned when it arrives
            }
        }
        misses++;
        prefetches++;
        ChunkFetch f = new ChunkFetch(id, reader, index.segment(id), index.offset(id), index.frameLength(id),
                index.firstTimestamp(id), index.firstSeq(id), index.count(id), arrivals);
        if (inFlightCount == inFlight.length) {
            inFlight = Arrays.copyOf(inFlight, inFlight.length * 2);
        }
        inFlight[inFlightCount++] = f;
        try {
            readExecutor.execute(f);
        } catch (RejectedExecutionException e) {
            removeInFlight(id);
        }
    }

    private void drainArrivals() {
        ChunkFetch f;
        while ((f = arrivals.poll()) != null) {
            removeInFlight(f.chunkId);
            Chunk c = f.chunk();
            if (c != null) {
                if (index.contains(c.id)) {
                    cache.put(c, pinsOf(c.id));
                }
            } else {
                // a cursor that needs the chunk reads it itself and reports a real failure
                LOG.log(Level.DEBUG, "prefetch of chunk " + f.chunkId + " failed", f.failure());
            }
        }
    }

    /** Forgets the in-flight fetch of a chunk and returns it, or null. */
    private ChunkFetch removeInFlight(long id) {
        for (int i = 0; i < inFlightCount; i++) {
            ChunkFetch f = inFlight[i];
            if (f.chunkId == id) {
                inFlight[i] = inFlight[--inFlightCount];
                inFlight[inFlightCount] = null;
                return f;
            }
        }
        return null;
    }

    private Chunk readNow(long id) {
        try {
            return reader.read(id, index.segment(id), index.offset(id), index.frameLength(id), index.firstTimestamp(id),
                    index.firstSeq(id), index.count(id));
        } catch (IOException e) {
            throw new ReservoirIoException("reservoir " + files.directory() + ": cannot read chunk " + id + " of segment "
                    + index.segment(id) + ": " + e.getMessage(), e);
        }
    }

    /** Waits for the writer to finish its queue (tests). */
    CompletableFuture<Void> writerIdle() {
        return writer.sync();
    }
}
