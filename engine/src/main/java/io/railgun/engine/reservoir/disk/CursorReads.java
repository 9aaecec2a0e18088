package io.railgun.engine.reservoir.disk;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Where a {@link DiskReservoir}'s cursors get their closed chunks: from memory while a chunk waits
 * for its write, else from the shared {@link ChunkCache}, else from the file. Holds the reservoir's
 * open cursors; each pins in the cache the chunk it will enter next, which is read ahead on the
 * reader executor (a {@link ChunkFetch}) when it is in neither memory nor the cache. Entering a
 * chunk that is in neither is a stall: the task's thread reads it itself, or waits for the fetch
 * already running. Counts chunk entries, hits, misses, prefetches and stalls for
 * {@link ReservoirStats}.
 *
 * <p>Task's thread only; prefetched chunks come back through a lock-free queue drained here
 * ({@link #drainArrivals}). Logs as {@link DiskReservoir}.
 */
final class CursorReads {
    private static final System.Logger LOG = System.getLogger(DiskReservoir.class.getName());

    private final SegmentFiles files;
    private final ChunkReader reader;
    private final Executor readExecutor;
    private final ChunkIndex index;
    private final ChunkCache cache;
    private final PendingChunks pending;
    private final List<DiskCursor> cursors = new ArrayList<>();
    private final ConcurrentLinkedQueue<ChunkFetch> arrivals = new ConcurrentLinkedQueue<>();
    private ChunkFetch[] inFlight = new ChunkFetch[16];
    private int inFlightCount;

    private long chunkEntries;
    private long hits;
    private long misses;
    private long prefetches;
    private long stalls;

    CursorReads(SegmentFiles files, ChunkReader reader, Executor readExecutor, ChunkIndex index, ChunkCache cache,
                PendingChunks pending) {
        this.files = files;
        this.reader = reader;
        this.readExecutor = readExecutor;
        this.index = index;
        this.cache = cache;
        this.pending = pending;
    }

    long chunkEntries() {
        return chunkEntries;
    }

    long hits() {
        return hits;
    }

    long misses() {
        return misses;
    }

    long prefetches() {
        return prefetches;
    }

    long stalls() {
        return stalls;
    }

    /** A cursor opened: it counts for pins and trimming until {@link #remove}d. */
    void add(DiskCursor c) {
        cursors.add(c);
    }

    void remove(DiskCursor c) {
        release(c);
        cursors.remove(c);
    }

    /** Forgets every cursor (the reservoir is closed). */
    void clear() {
        cursors.clear();
    }

    /** The least position of the open cursors, or Long.MAX_VALUE without any: files from there on are needed. */
    long minCursorPosition() {
        long min = Long.MAX_VALUE;
        for (int i = 0, n = cursors.size(); i < n; i++) {
            min = Math.min(min, cursors.get(i).position);
        }
        return min;
    }

    /** Heap bytes of the chunks cursors hold that neither the cache nor the pending chunks count. */
    long heldBytes() {
        long bytes = 0;
        for (int i = 0, n = cursors.size(); i < n; i++) {
            Chunk c = cursors.get(i).chunk();
            if (c != null && !cache.holds(c) && pending.get(c.id) == null) {
                bytes += c.memoryBytes();
            }
        }
        return bytes;
    }

    /** A cursor enters chunk {@code id}: returns it (stalling when not in memory) and prefetches the next. */
    Chunk enter(DiskCursor cursor, long id) {
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

    /**
     * A chunk just written leaves memory unless cursors are about to enter it (it is the next one
     * they looked ahead to: it goes to the cache pinned by them) or stand inside it without having
     * entered it yet, coming from the open region (they would stall on it). Whether it is kept.
     */
    boolean keepWritten(Chunk c) {
        return keepForCursorsAhead(c) || anyCursorIn(c);
    }

    boolean anyCursorIn(Chunk c) {
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

    /** Unpins the chunk {@code cursor} looked ahead to, if any. */
    void release(DiskCursor cursor) {
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
    void lookAhead(DiskCursor cursor, long id) {
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

    /** Caches the chunks prefetched since the last call, pinned by the cursors waiting for them. */
    void drainArrivals() {
        ChunkFetch f;
        while ((f = arrivals.poll()) != null) {
            if (!removeFetch(f)) {
                // a stalled cursor waited for it and took its chunk (cached then, and perhaps since
                // gone back to the pool: caching it again would hand out arrays being reused)
                continue;
            }
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

    /** Forgets this in-flight fetch; false when it was no longer in flight. */
    private boolean removeFetch(ChunkFetch f) {
        for (int i = 0; i < inFlightCount; i++) {
            if (inFlight[i] == f) {
                inFlight[i] = inFlight[--inFlightCount];
                inFlight[inFlightCount] = null;
                return true;
            }
        }
        return false;
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
}
