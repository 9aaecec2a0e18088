package io.railgun.engine.reservoir.disk;

import java.util.Queue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One asynchronous chunk read (a prefetch), run by a reader thread, which then posts it to the
 * reservoir's arrival queue. When a cursor needs the chunk before it arrived, the task's thread
 * either claims a fetch no reader has started yet (and reads the chunk itself: a reader thread
 * that gets to it later does nothing) or waits for the one already running, so a chunk is never
 * read twice and the task never waits for a read that has not started (the reader executor may be
 * busy or, in tests, never run).
 */
final class ChunkFetch implements Runnable {
    private static final int QUEUED = 0;
    private static final int RUNNING = 1;
    private static final int DONE = 2;
    private static final int CLAIMED = 3;

    final long chunkId;
    private final ChunkReader reader;
    private final long segmentId;
    private final long offset;
    private final int frameLength;
    private final long firstTs;
    private final long firstSeq;
    private final int count;
    private final Queue<ChunkFetch> arrivals;
    private final AtomicInteger state = new AtomicInteger(QUEUED);
    private final CountDownLatch done = new CountDownLatch(1);
    // written by the reader before DONE is set, read after it is seen
    private Chunk chunk;
    private Throwable failure;

    ChunkFetch(long chunkId, ChunkReader reader, long segmentId, long offset, int frameLength, long firstTs, long firstSeq,
               int count, Queue<ChunkFetch> arrivals) {
        this.chunkId = chunkId;
        this.reader = reader;
        this.segmentId = segmentId;
        this.offset = offset;
        this.frameLength = frameLength;
        this.firstTs = firstTs;
        this.firstSeq = firstSeq;
        this.count = count;
        this.arrivals = arrivals;
    }

    @Override
    public void run() {
        if (!state.compareAndSet(QUEUED, RUNNING)) {
            return; // claimed by the task's thread
        }
        try {
            chunk = reader.read(chunkId, segmentId, offset, frameLength, firstTs, firstSeq, count);
        } catch (Throwable t) {
            failure = t;
        }
        state.set(DONE);
        done.countDown();
        arrivals.add(this);
    }

    /** Task's thread: takes over a fetch no reader has started; false when one has. */
    boolean claim() {
        return state.compareAndSet(QUEUED, CLAIMED);
    }

    /** Task's thread: waits for a started fetch to end; its chunk, or null when it failed. */
    Chunk await() {
        boolean interrupted = false;
        while (true) {
            try {
                done.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        return chunk;
    }

    /** After arrival: the chunk read, or null. */
    Chunk chunk() {
        return chunk;
    }

    /** After arrival: why the read failed, or null. */
    Throwable failure() {
        return failure;
    }
}
