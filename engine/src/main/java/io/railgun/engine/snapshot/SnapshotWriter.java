package io.railgun.engine.snapshot;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * Builds a {@link TaskSnapshot} directory off the task's thread, from what the task's thread fixed
 * when it was asked (see {@code TaskProcessor.trySnapshot}): the reservoir's segment files with
 * their lengths at that moment, and a way to make a RocksDB checkpoint of the state store. Segment
 * files are hard-linked (copied up to their fixed length where links cannot be made): sealed ones
 * are immutable, and the one still being written is only ever appended to while the task runs, so
 * its first {@code length} bytes, which the manifest describes, do not change. The manifest is
 * written last, fsynced: a directory without it is not a snapshot. One call per snapshot, on an I/O
 * thread.
 */
public final class SnapshotWriter {

    /** A reservoir segment file as the task's thread saw it: its name and the length to keep. */
    public record SegmentLength(String name, long length) {}

    private SnapshotWriter() {}

    /**
     * Writes the snapshot into {@code target} (which must not exist).
     *
     * @param reservoirDir    the task's reservoir directory
     * @param segments        its segment files in order, with the lengths to keep; a file gone
     *                        since (trimmed: the checkpoint no longer needed it) is left out
     * @param stateCheckpoint makes a RocksDB checkpoint of the task's state into the given (new) directory
     */
    public static TaskSnapshot write(Path target, long snapshotId, long checkpointOffset, Path reservoirDir,
                                     List<SegmentLength> segments, Consumer<Path> stateCheckpoint) {
        try {
            Files.createDirectories(target.getParent());
            Files.createDirectory(target);
            Path reservoir = Files.createDirectory(target.resolve("reservoir"));
            List<SnapshotFile> files = new ArrayList<>();
            for (int i = 0; i < segments.size(); i++) {
                SegmentLength s = segments.get(i);
                Path from = reservoirDir.resolve(s.name());
                Path to = reservoir.resolve(s.name());
                try {
                    if (!link(from, to)) {
                        copyPrefix(from, to, s.length());
                    }
                } catch (NoSuchFileException gone) {
                    continue; // trimmed meanwhile: only files the checkpoint no longer needs are trimmed
                }
                files.add(new SnapshotFile("reservoir/" + s.name(), s.length(), FileChecksum.of(to, s.length())));
            }
            Path state = target.resolve("state");
            stateCheckpoint.accept(state);
            try (Stream<Path> list = Files.list(state)) {
                for (Path p : list.sorted().toList()) {
                    long size = Files.size(p);
                    files.add(new SnapshotFile("state/" + p.getFileName(), size, FileChecksum.of(p, size)));
                }
            }
            SnapshotManifest manifest = new SnapshotManifest(snapshotId, checkpointOffset, System.currentTimeMillis(), files);
            writeDurably(target.resolve(SnapshotManifest.FILE_NAME), manifest.encode());
            return new TaskSnapshot(target, manifest);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write a task snapshot in " + target + ": " + e.getMessage(), e);
        }
    }

    /** Hard-links {@code from} as {@code to}; false when the file system cannot. */
    private static boolean link(Path from, Path to) throws IOException {
        try {
            Files.createLink(to, from);
            return true;
        } catch (NoSuchFileException gone) {
            throw gone;
        } catch (IOException | UnsupportedOperationException e) {
            return false; // another file system, or links not allowed: copy
        }
    }

    private static void copyPrefix(Path from, Path to, long length) throws IOException {
        try (FileChannel in = FileChannel.open(from, StandardOpenOption.READ);
             FileChannel out = FileChannel.open(to, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            long p = 0;
            while (p < length) {
                long n = in.transferTo(p, length - p, out);
                if (n <= 0) {
                    throw new IOException(from + " ends at " + p + ", before " + length);
                }
                p += n;
            }
        }
    }

    /** Writes a small file and fsyncs it. */
    public static void writeDurably(Path file, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            ByteBuffer b = ByteBuffer.wrap(bytes);
            while (b.hasRemaining()) {
                ch.write(b);
            }
            ch.force(true);
        }
    }
}
