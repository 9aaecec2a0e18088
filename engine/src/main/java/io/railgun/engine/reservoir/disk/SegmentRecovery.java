package io.railgun.engine.reservoir.disk;

import static io.railgun.engine.reservoir.disk.SegmentDescriptor.BODY_LENGTH_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.CHUNK_HEADER_LENGTH;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.CHUNK_HEADER_LENGTH_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.CODEC_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.COUNT_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.CRC_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.CRC_START;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.FILE_CRC_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.FILE_HEADER_LENGTH;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.FILE_HEADER_LENGTH_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.FILE_MAGIC_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.FILE_SEGMENT_ID_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.FILE_VERSION_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.FIRST_SEQ_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.FIRST_TIMESTAMP_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.FLAGS_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.FORMAT_VERSION;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.FRAME_LENGTH_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.LAST_SEQ_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.LAST_TIMESTAMP_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.MAGIC;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.MAX_BODY_LENGTH;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.MAX_SEQ_OFFSET;
import static io.railgun.engine.reservoir.disk.SegmentDescriptor.SCHEMA_ID_OFFSET;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Scans a reservoir directory when it is opened: checks every segment header and chunk frame
 * (format in {@link SegmentDescriptor}), lists the valid chunks in order, and cuts the first
 * invalid frame and everything after it — truncating its file, deleting later files — logging what
 * it cut. Runs on the opening thread, before the reservoir exists.
 */
final class SegmentRecovery {
    private static final System.Logger LOG = System.getLogger(SegmentRecovery.class.getName());

    /** A valid chunk found on disk: its location and header fields. */
    record RecoveredChunk(long segmentId, long offset, int frameLength, int schemaId, int count,
                          long firstTs, long lastTs, long firstSeq, long lastSeq, long maxSeq) {}

    /**
     * What the scan found.
     *
     * @param chunks          valid chunks in order
     * @param lastSegmentId   the last segment kept (the writer appends to it), or -1
     * @param lastSegmentSize its length after any cut
     * @param cuts            one line per cut, for logs and tests
     */
    record Result(List<RecoveredChunk> chunks, long lastSegmentId, long lastSegmentSize, List<String> cuts) {}

    private static final String AFTER_CHECKPOINT = "written after the checkpoint being restored (replayed from the input)";

    private final Path directory;
    private final PersistedPosition cutAfter;
    private final List<RecoveredChunk> chunks = new ArrayList<>();
    private final List<String> cuts = new ArrayList<>();
    private final CRC32C crc = new CRC32C();
    private byte[] buffer = new byte[64 * 1024];
    private long prevTs = Long.MIN_VALUE;
    private boolean truncated;

    private SegmentRecovery(Path directory, PersistedPosition cutAfter) {
        this.directory = directory;
        this.cutAfter = cutAfter;
    }

    /**
     * Scans (creating the directory when missing).
     *
     * @throws ReservoirFormatException when a file has a valid header of another format version, or
     *                                  a valid chunk uses a codec, flag or header this build does not know
     */
    static Result recover(Path directory) throws IOException {
        return recover(directory, null);
    }

    /**
     * Scans, and also cuts every chunk after {@code cutAfter} (a checkpoint's position: the last
     * event of a chunk closed when it was taken; {@link PersistedPosition#NONE} cuts everything).
     * Chunks written after the checkpoint are dropped, so the files hold exactly what the
     * checkpoint saw; the task replays the rest. Null cuts nothing.
     */
    static Result recover(Path directory, PersistedPosition cutAfter) throws IOException {
        Files.createDirectories(directory);
        return new SegmentRecovery(directory, cutAfter).scan();
    }

    private Result scan() throws IOException {
        List<Long> ids = new ArrayList<>();
        try (DirectoryStream<Path> dir = Files.newDirectoryStream(directory)) {
            for (Path p : dir) {
                long id = SegmentDescriptor.segmentId(p.getFileName().toString());
                if (id >= 0) {
                    ids.add(id);
                }
            }
        }
        ids.sort(null);
        long lastId = -1;
        long lastSize = 0;
        for (int k = 0; k < ids.size(); k++) {
            long id = ids.get(k);
            truncated = false;
            long kept = scanSegment(id);
            if (kept < 0) {
                Files.delete(path(id));
                deleteLater(ids, k + 1);
                break;
            }
            lastId = id;
            lastSize = kept;
            if (truncated) {
                deleteLater(ids, k + 1);
                break;
            }
        }
        return new Result(chunks, lastId, lastSize, cuts);
    }

    /** Scans one segment, truncating it at the first invalid frame; returns its kept length, -1 to drop it. */
    private long scanSegment(long id) throws IOException {
        Path path = path(id);
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            long size = ch.size();
            String problem = checkFileHeader(ch, size, id);
            if (problem != null) {
                cut(id, 0, size, problem);
                return -1;
            }
            long p = FILE_HEADER_LENGTH;
            while (p < size) {
                problem = checkFrame(ch, id, p, size);
                if (problem != null) {
                    cut(id, p, size - p, problem);
                    ch.truncate(p);
                    ch.force(true);
                    truncated = true;
                    return p;
                }
                p += chunks.getLast().frameLength();
            }
            return p;
        }
    }

    private String checkFileHeader(FileChannel ch, long size, long id) throws IOException {
        if (size < FILE_HEADER_LENGTH) {
            return "torn file header (" + size + " bytes)";
        }
        readFully(ch, 0, FILE_HEADER_LENGTH);
        if (SegmentDescriptor.getInt(buffer, FILE_MAGIC_OFFSET) != MAGIC) {
            return "not a reservoir segment (bad magic)";
        }
        if (SegmentDescriptor.getInt(buffer, FILE_CRC_OFFSET) != SegmentDescriptor.crc(buffer, 0, FILE_CRC_OFFSET)) {
            return "file header checksum mismatch";
        }
        int version = SegmentDescriptor.getShort(buffer, FILE_VERSION_OFFSET);
        if (version != FORMAT_VERSION || SegmentDescriptor.getShort(buffer, FILE_HEADER_LENGTH_OFFSET) != FILE_HEADER_LENGTH) {
            throw new ReservoirFormatException("segment " + path(id) + " has format version " + version
                    + "; this build reads version " + FORMAT_VERSION
                    + ". Open it with the version that wrote it, or delete the directory to rebuild it from Kafka.");
        }
        if (SegmentDescriptor.getLong(buffer, FILE_SEGMENT_ID_OFFSET) != id) {
            return "file header names segment " + SegmentDescriptor.getLong(buffer, FILE_SEGMENT_ID_OFFSET);
        }
        return null;
    }

    /** Checks the frame at {@code p}; adds it to the chunks and returns null, or returns why it is invalid. */
    private String checkFrame(FileChannel ch, long id, long p, long size) throws IOException {
        long remaining = size - p;
        if (remaining < CHUNK_HEADER_LENGTH) {
            return "torn chunk header (" + remaining + " bytes)";
        }
        readFully(ch, p, CHUNK_HEADER_LENGTH);
        int length = SegmentDescriptor.getInt(buffer, FRAME_LENGTH_OFFSET);
        if (length <= CHUNK_HEADER_LENGTH || length - CHUNK_HEADER_LENGTH > MAX_BODY_LENGTH) {
            return "bad frame length " + length;
        }
        if (length > remaining) {
            return "torn chunk (frame of " + length + " bytes, " + remaining + " on disk)";
        }
        readFully(ch, p, length);
        crc.reset();
        crc.update(buffer, CRC_START, length - CRC_START);
        if ((int) crc.getValue() != SegmentDescriptor.getInt(buffer, CRC_OFFSET)) {
            return "chunk checksum mismatch";
        }
        // the checksum holds: anything unknown below was written by another version
        int codec = buffer[CODEC_OFFSET];
        if (ChunkCodec.byId(codec) == null || buffer[FLAGS_OFFSET] != 0
                || SegmentDescriptor.getShort(buffer, CHUNK_HEADER_LENGTH_OFFSET) != CHUNK_HEADER_LENGTH) {
            throw new ReservoirFormatException("segment " + path(id) + " offset " + p + ": chunk with codec " + codec
                    + ", flags " + buffer[FLAGS_OFFSET] + ", header length "
                    + SegmentDescriptor.getShort(buffer, CHUNK_HEADER_LENGTH_OFFSET)
                    + " is not readable by this build (format version " + FORMAT_VERSION + ")");
        }
        int count = SegmentDescriptor.getInt(buffer, COUNT_OFFSET);
        int bodyLength = SegmentDescriptor.getInt(buffer, BODY_LENGTH_OFFSET);
        long firstTs = SegmentDescriptor.getLong(buffer, FIRST_TIMESTAMP_OFFSET);
        long lastTs = SegmentDescriptor.getLong(buffer, LAST_TIMESTAMP_OFFSET);
        long firstSeq = SegmentDescriptor.getLong(buffer, FIRST_SEQ_OFFSET);
        long lastSeq = SegmentDescriptor.getLong(buffer, LAST_SEQ_OFFSET);
        if (count <= 0 || bodyLength <= 0 || bodyLength > MAX_BODY_LENGTH || lastTs < firstTs) {
            return "inconsistent chunk header";
        }
        if (firstTs < prevTs) {
            return "chunk out of order (first event before the previous chunk's last)";
        }
        if (cutAfter != null && !cutAfter.covers(lastTs, lastSeq)) {
            return AFTER_CHECKPOINT;
        }
        chunks.add(new RecoveredChunk(id, p, length, SegmentDescriptor.getInt(buffer, SCHEMA_ID_OFFSET), count,
                firstTs, lastTs, firstSeq, lastSeq, SegmentDescriptor.getLong(buffer, MAX_SEQ_OFFSET)));
        prevTs = lastTs;
        return null;
    }

    private void deleteLater(List<Long> ids, int from) throws IOException {
        for (int k = from; k < ids.size(); k++) {
            long id = ids.get(k);
            Path path = path(id);
            cut(id, 0, Files.size(path), "follows a cut: later events cannot be kept without a gap");
            Files.delete(path);
        }
    }

    private void cut(long id, long offset, long bytes, String reason) {
        String line = "segment " + id + ": cut " + bytes + " bytes at offset " + offset + ": " + reason;
        cuts.add(line);
        // cutting what a checkpoint does not cover is the normal restart path, not damage
        LOG.log(reason.equals(AFTER_CHECKPOINT) || cutAfter != null && reason.startsWith("follows a cut") ? Level.DEBUG
                : Level.WARNING, "reservoir " + directory + ": " + line);
    }

    private void readFully(FileChannel ch, long position, int length) throws IOException {
        if (buffer.length < length) {
            buffer = new byte[Math.max(length, buffer.length * 2)];
        }
        ByteBuffer buf = ByteBuffer.wrap(buffer, 0, length);
        long p = position;
        while (buf.hasRemaining()) {
            int n = ch.read(buf, p);
            if (n < 0) {
                throw new IOException("unexpected end of " + directory + " segment at " + p);
            }
            p += n;
        }
    }

    private Path path(long id) {
        return directory.resolve(SegmentDescriptor.fileName(id));
    }
}
