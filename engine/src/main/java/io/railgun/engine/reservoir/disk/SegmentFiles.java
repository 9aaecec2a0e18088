package io.railgun.engine.reservoir.disk;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The segment files of one reservoir directory and the read channels open on them, shared by the
 * task's thread and the reader threads (positional reads on a {@link FileChannel} are
 * thread-safe). The writer closes a segment's read channel before deleting the file; a read racing
 * with that fails with an I/O error (only a prefetch can race, and its failure is dropped).
 */
final class SegmentFiles {
    private final Path directory;
    private final ConcurrentHashMap<Long, FileChannel> readers = new ConcurrentHashMap<>();
    // segments below this id are forgotten (trimmed, which goes oldest first): a reader thread that
    // opened one just after forget() closes it again, so no channel keeps a deleted file's space
    private volatile long forgottenBelow;
    private volatile boolean closed;

    SegmentFiles(Path directory) {
        this.directory = directory;
    }

    Path directory() {
        return directory;
    }

    Path path(long segmentId) {
        return directory.resolve(SegmentDescriptor.fileName(segmentId));
    }

    /** Reads exactly {@code length} bytes at {@code position} of a segment into {@code dst}[0, length). */
    void read(long segmentId, long position, byte[] dst, int length) throws IOException {
        FileChannel ch = reader(segmentId);
        ByteBuffer buf = ByteBuffer.wrap(dst, 0, length);
        long p = position;
        while (buf.hasRemaining()) {
            int n = ch.read(buf, p);
            if (n < 0) {
                throw new IOException("segment " + segmentId + " ends before " + (position + length));
            }
            p += n;
        }
    }

    /** Closes the read channel of a segment before it is deleted (trimming deletes the oldest first). Writer thread. */
    void forget(long segmentId) {
        forgottenBelow = Math.max(forgottenBelow, segmentId + 1); // the writer's thread only
        FileChannel ch = readers.remove(segmentId);
        if (ch != null) {
            closeQuietly(ch);
        }
    }

    void closeAll() {
        closed = true;
        for (Long id : readers.keySet()) {
            FileChannel ch = readers.remove(id);
            if (ch != null) {
                closeQuietly(ch);
            }
        }
    }

    private FileChannel reader(long segmentId) throws IOException {
        if (closed) {
            throw new IOException("reservoir closed");
        }
        FileChannel ch;
        try {
            ch = readers.computeIfAbsent(segmentId, id -> {
                try {
                    return FileChannel.open(path(id), StandardOpenOption.READ);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        if (closed || segmentId < forgottenBelow) {
            // closed or trimmed while this thread opened it: take it out again (closeAll/forget ran first)
            if (readers.remove(segmentId, ch)) {
                closeQuietly(ch);
            }
            throw new IOException(closed ? "reservoir closed" : "segment " + segmentId + " was trimmed");
        }
        return ch;
    }

    private static void closeQuietly(FileChannel ch) {
        try {
            ch.close();
        } catch (IOException ignored) {
            // nothing left to release
        }
    }
}
