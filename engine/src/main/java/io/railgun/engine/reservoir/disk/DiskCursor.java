package io.railgun.engine.reservoir.disk;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.reservoir.EventSink;
import io.railgun.engine.reservoir.ReservoirCursor;

/**
 * A cursor of a {@link DiskReservoir}: a boundary and a position, the global index (in the
 * reservoir's (timestamp, seq) order) of the first event it may still have to deliver. Positions
 * of closed chunks never change; an insert into the open region shifts the positions after it,
 * so the stored position may lag the true one (the first event above the boundary) by the events
 * inserted behind the cursor since. That is harmless: reading skips events at or below the old
 * boundary, which is exactly "inserted behind the cursor counts as passed". A lagging position is
 * also a safe lower bound for trimming. {@link #skipTo} lags the same way, by up to the rest of the
 * chunk it stops in or the whole open region: still only events at or below the boundary, so
 * reading skips them and trimming keeps more, never less.
 *
 * <p>Holds the chunk it is iterating (released at its end); entering a chunk whose first event is
 * still ahead of the boundary is deferred, so an idle tail cursor holds nothing extra. Task's
 * thread only.
 */
final class DiskCursor implements ReservoirCursor {
    private final DiskReservoir reservoir;
    private final EventRow row = new EventRow();
    private long boundary;
    long position;
    /** Id of the chunk this cursor will enter next and has pinned in the cache, or -1. */
    long pinned = -1;
    private Chunk chunk;
    private long chunkStart;
    /** Id of the chunk last looked up by position, or -1: the next lookup tries it and its successor first. */
    private long lastId = -1;

    DiskCursor(DiskReservoir reservoir, long boundary) {
        this.reservoir = reservoir;
        this.boundary = boundary;
    }

    @Override
    public long boundary() {
        return boundary;
    }

    /** The chunk held, or null. */
    Chunk chunk() {
        return chunk;
    }

    @Override
    public void advanceTo(long newBoundary, EventSink sink) {
        if (newBoundary <= boundary) {
            return;
        }
        reservoir.checkOpen();
        long old = boundary;
        boundary = newBoundary;
        ChunkIndex index = reservoir.index();
        while (true) {
            long closedEnd = reservoir.closedCount();
            if (position >= closedEnd) {
                readOpenRegion(closedEnd, old, newBoundary, sink);
                return;
            }
            if (chunk == null || position >= chunkStart + chunk.count) {
                leaveChunk();
                long id = idAt(index, position);
                long start = index.startPos(id);
                if (position == start && index.firstTimestamp(id) > newBoundary) {
                    return; // nothing to pass in it yet: do not load it
                }
                if (index.lastTimestamp(id) <= old) {
                    position = index.endPos(id); // passed already (inserted behind us, or opened past it)
                    continue;
                }
                chunk = reservoir.enter(this, id);
                chunkStart = start;
            }
            Chunk c = chunk;
            long[] timestamps = c.timestamps;
            int n = c.count;
            int i = (int) (position - chunkStart);
            while (i < n) {
                long t = timestamps[i];
                if (t > newBoundary) {
                    position = chunkStart + i;
                    return;
                }
                if (t > old) {
                    sink.accept(t, c.seqs[i], row.wrap(c.body, c.rowOffsets[i]));
                    if (chunk != c) {
                        return; // the sink closed this cursor: the chunk may be another's already
                    }
                }
                i++;
            }
            position = chunkStart + n;
            leaveChunk();
        }
    }

    /** Lets go of the chunk held: its arrays may go back to the pool. */
    private void leaveChunk() {
        Chunk c = chunk;
        if (c != null) {
            chunk = null;
            reservoir.left(c);
        }
    }

    /**
     * Moves the boundary without reading: the closed chunks whose last event is at or below it are
     * passed by their index entries, never entered, so this cursor neither reads nor decodes them
     * (a prefetch it started for one before still completes). The position stops at the first
     * chunk that ends above the boundary, or at the open region, and lags the boundary there (see
     * the class comment). The cursor keeps the pin of the chunk it looked ahead to only when it
     * stops before that chunk.
     */
    @Override
    public void skipTo(long newBoundary) {
        if (newBoundary <= boundary) {
            return;
        }
        reservoir.checkOpen();
        boundary = newBoundary;
        if (chunk != null) {
            // entered by an earlier advanceTo: pass what is left of it only when all of it is passed
            if (chunk.timestamps[chunk.count - 1] > newBoundary) {
                return;
            }
            position = chunkStart + chunk.count;
            leaveChunk();
        }
        ChunkIndex index = reservoir.index();
        long closedEnd = reservoir.closedCount();
        long next = -1; // the closed chunk the position stops in, or -1 (the open region)
        while (position < closedEnd) {
            long id = idAt(index, position);
            if (index.lastTimestamp(id) > newBoundary) {
                next = id;
                break;
            }
            position = index.endPos(id);
        }
        if (pinned >= 0 && pinned != next) {
            reservoir.releasePin(this); // it passed the chunk it looked ahead to: that chunk may leave the cache
        }
    }

    /** Id of the closed chunk holding {@code pos}: usually the last one looked up or the next, else a binary search. */
    private long idAt(ChunkIndex index, long pos) {
        long id = lastId;
        if (id >= 0 && index.contains(id) && index.startPos(id) <= pos) {
            if (pos < index.endPos(id)) {
                return id;
            }
            long next = id + 1;
            if (index.contains(next) && pos < index.endPos(next)) {
                lastId = next;
                return next;
            }
        }
        id = index.idAt(pos);
        lastId = id;
        return id;
    }

    private void readOpenRegion(long closedEnd, long old, long newBoundary, EventSink sink) {
        OpenRegion open = reservoir.openRegion();
        int j = (int) (position - closedEnd);
        int n = open.size();
        while (j < n) {
            long t = open.timestamp(j);
            if (t > newBoundary) {
                break;
            }
            if (t > old) {
                sink.accept(t, open.seq(j), open.wrap(row, j));
            }
            j++;
        }
        position = closedEnd + j;
    }

    @Override
    public void close() {
        Chunk c = chunk;
        chunk = null;
        reservoir.removeCursor(this);
        if (c != null) {
            reservoir.left(c);
        }
    }
}
