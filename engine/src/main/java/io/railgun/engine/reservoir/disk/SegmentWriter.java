package io.railgun.engine.reservoir.disk;

import static io.railgun.engine.reservoir.disk.SegmentDescriptor.BODY_LENGTH_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.CHUNK_HEADER_LENGTH;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.CHUNK_HEADER_LENGTH_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.CODEC_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.COUNT_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.CRC_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.CRC_START;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.FILE_HEADER_LENGTH;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.FIRST_SEQ_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.FIRST_TIMESTAMP_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.FLAGS_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.FRAME_LENGTH_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.INT;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.LAST_SEQ_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.LAST_TIMESTAMP_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.LONG;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.MAX_SEQ_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.SCHEMA_ID_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.SHORT;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.zip.CRC32C;

/**
 * The background agent that compresses closed chunks and appends them to the segment files
 * (format in {@link SegmentDescriptor}), rolls to a new file at the size bound, deletes trimmed
 * files and syncs on request.
 *
 * <p>Threads: the task's thread only enqueues commands ({@link #write}, {@link #delete},
 * {@link #sync}, {@link #stop}; lock-free, never blocking). The commands run in order on the
 * injected executor, one run at a time (a run is scheduled when the queue goes from idle to busy),
 * so any executor works, even a shared pool; all file and compressor state below is confined to
 * those runs. Results go back through {@link PendingChunk}'s volatile location. After a failure the
 * agent stops writing (chunks stay pending in memory) and {@link #failure()} reports it.
 */
final class SegmentWriter {
    private static final System.Logger LOG = System.getLogger(SegmentWriter.class.getName());

    private record Delete(long segmentId) {}

    private record Sync(CompletableFuture<Void> done, boolean stop) {}

    private final SegmentFiles files;
    private final long segmentMaxBytes;
    private final ChunkCodec codec;
    private final int level;
    private final Executor executor;
    private final ConcurrentLinkedQueue<Object> commands = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean scheduled = new AtomicBoolean();
    private volatile Throwable failure;

    // confined to runs
    private ChunkCodec.Compressor compressor;
    private final CRC32C crc = new CRC32C();
    private byte[] frame = new byte[CHUNK_HEADER_LENGTH + 64 * 1024];
    private final byte[] fileHeader = new byte[FILE_HEADER_LENGTH];
    private FileChannel active;
    private long activeId;
    private long activeSize;
    private long resumeId;
    private long resumeSize;
    private long nextId;
    private boolean newFileSinceSync;
    private boolean stopped;

    /**
     * @param resumeSegmentId the last segment left by recovery, appended to while it has room; -1
     *                        for none
     * @param resumeSize      its valid length
     * @param nextSegmentId   the id of the next new segment
     */
    SegmentWriter(SegmentFiles files, long segmentMaxBytes, ChunkCodec codec, int level, Executor executor,
                  long resumeSegmentId, long resumeSize, long nextSegmentId) {
        this.files = files;
        this.segmentMaxBytes = segmentMaxBytes;
        this.codec = codec;
        this.level = level;
        this.executor = executor;
        this.resumeId = resumeSegmentId;
        this.resumeSize = resumeSize;
        this.nextId = nextSegmentId;
    }

    /** Enqueues a closed chunk; its location is published on it once written. */
    void write(PendingChunk chunk) {
        submit(chunk);
    }

    /** Enqueues the deletion of a segment (after the writes enqueued before it). */
    void delete(long segmentId) {
        submit(new Delete(segmentId));
    }

    /** Enqueues a barrier: completes once every earlier write is on disk and synced. */
    CompletableFuture<Void> sync() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        submit(new Sync(done, false));
        return done;
    }

    /** Enqueues the last command: finishes the earlier ones, syncs and releases files and native state. */
    CompletableFuture<Void> stop() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        submit(new Sync(done, true));
        return done;
    }

    /** The failure that stopped the writer, or null. */
    Throwable failure() {
        return failure;
    }

    private void submit(Object command) {
        commands.add(command);
        schedule();
    }

    private void schedule() {
        if (scheduled.compareAndSet(false, true)) {
            try {
                executor.execute(this::run);
            } catch (RejectedExecutionException e) {
                scheduled.set(false);
                failure = e;
                failAll();
            }
        }
    }

    private void run() {
        do {
            doWork();
            scheduled.set(false);
        } while (!commands.isEmpty() && scheduled.compareAndSet(false, true));
    }

    /** Runs every queued command; returns how many. */
    int doWork() {
        int n = 0;
        Object c;
        while ((c = commands.poll()) != null) {
            n++;
            if (c instanceof PendingChunk p) {
                if (failure == null && !stopped) {
                    try {
                        append(p);
                    } catch (Throwable e) { // an Error too (an OutOfMemoryError for a frame): else the task waits forever
                        failure = e;
                        LOG.log(Level.ERROR, "reservoir " + files.directory() + ": writing stopped", e);
                    }
                }
            } else if (c instanceof Delete d) {
                deleteSegment(d.segmentId());
            } else if (c instanceof Sync s) {
                sync(s);
            }
        }
        return n;
    }

    private void append(PendingChunk p) throws IOException {
        Chunk c = p.chunk;
        if (compressor == null) {
            compressor = codec.newCompressor(level);
        }
        int bodyLength = c.bodyLength;
        int max = CHUNK_HEADER_LENGTH + compressor.maxCompressedLength(bodyLength);
        if (frame.length < max) {
            frame = new byte[Math.max(max, frame.length * 2)];
        }
        int length = CHUNK_HEADER_LENGTH + compressor.compress(c.body, 0, bodyLength, frame, CHUNK_HEADER_LENGTH);
        INT.set(frame, FRAME_LENGTH_OFFSET, length);
        frame[CODEC_OFFSET] = (byte) codec.id();
        frame[FLAGS_OFFSET] = 0;
        SHORT.set(frame, CHUNK_HEADER_LENGTH_OFFSET, (short) CHUNK_HEADER_LENGTH);
        INT.set(frame, SCHEMA_ID_OFFSET, c.schemaId);
        INT.set(frame, COUNT_OFFSET, c.count);
        INT.set(frame, BODY_LENGTH_OFFSET, bodyLength);
        LONG.set(frame, FIRST_TIMESTAMP_OFFSET, c.firstTimestamp());
        LONG.set(frame, LAST_TIMESTAMP_OFFSET, c.lastTimestamp());
        LONG.set(frame, FIRST_SEQ_OFFSET, c.firstSeq());
        LONG.set(frame, LAST_SEQ_OFFSET, c.lastSeq());
        LONG.set(frame, MAX_SEQ_OFFSET, c.maxSeq);
        crc.reset();
        crc.update(frame, CRC_START, length - CRC_START);
        INT.set(frame, CRC_OFFSET, (int) crc.getValue());

        prepareActive(length);
        long offset = activeSize;
        writeFully(active, frame, length);
        activeSize += length;
        p.offset = offset;
        p.frameLength = length;
        p.segmentId = activeId; // publishes offset and frameLength
    }

    /** Makes {@link #active} a file with room for a frame of {@code length} (or an empty one). */
    private void prepareActive(int length) throws IOException {
        if (active == null && resumeId >= 0) {
            long id = resumeId;
            resumeId = -1;
            if (resumeSize + length <= segmentMaxBytes || resumeSize <= FILE_HEADER_LENGTH) {
                active = FileChannel.open(files.path(id), StandardOpenOption.WRITE);
                active.position(resumeSize);
                activeId = id;
                activeSize = resumeSize;
                return;
            }
            nextId = Math.max(nextId, id + 1);
        }
        if (active != null && activeSize + length > segmentMaxBytes && activeSize > FILE_HEADER_LENGTH) {
            active.force(false); // a sealed file is never synced again
            active.close();
            active = null;
            nextId = Math.max(nextId, activeId + 1);
        }
        if (active == null) {
            long id = nextId++;
            active = FileChannel.open(files.path(id), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            SegmentDescriptor.writeFileHeader(fileHeader, id);
            writeFully(active, fileHeader, FILE_HEADER_LENGTH);
            activeId = id;
            activeSize = FILE_HEADER_LENGTH;
            newFileSinceSync = true;
        }
    }

    private static void writeFully(FileChannel ch, byte[] b, int length) throws IOException {
        ByteBuffer buf = ByteBuffer.wrap(b, 0, length);
        while (buf.hasRemaining()) {
            ch.write(buf);
        }
    }

    private void deleteSegment(long segmentId) {
        files.forget(segmentId);
        try {
            Files.deleteIfExists(files.path(segmentId));
        } catch (IOException e) {
            // not fatal: the file only wastes disk; the next open recovers it as old events
            LOG.log(Level.WARNING, "reservoir " + files.directory() + ": could not delete segment " + segmentId, e);
        }
    }

    private void sync(Sync s) {
        try {
            if (failure == null && active != null) {
                active.force(false);
                if (newFileSinceSync) {
                    syncDirectory();
                    newFileSinceSync = false;
                }
            }
        } catch (IOException | RuntimeException e) {
            failure = e;
        }
        if (s.stop()) {
            stopped = true;
            closeQuietly();
            s.done().complete(null);
        } else if (failure != null) {
            s.done().completeExceptionally(failure);
        } else {
            s.done().complete(null);
        }
    }

    private void syncDirectory() throws IOException {
        try (FileChannel dir = FileChannel.open(files.directory(), StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException e) {
            // some file systems cannot open a directory; the file data itself is synced
            LOG.log(Level.DEBUG, "directory sync not supported", e);
        }
    }

    private void closeQuietly() {
        if (active != null) {
            try {
                active.close();
            } catch (IOException e) {
                LOG.log(Level.WARNING, "reservoir " + files.directory() + ": closing the active segment failed", e);
            }
            active = null;
        }
        if (compressor != null) {
            compressor.close();
            compressor = null;
        }
    }

    /** The executor refused work: complete every barrier so nobody waits forever. */
    private void failAll() {
        Object c;
        while ((c = commands.poll()) != null) {
            if (c instanceof Sync s) {
                s.done().completeExceptionally(failure);
            }
        }
    }
}
