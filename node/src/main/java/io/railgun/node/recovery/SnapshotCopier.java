package io.railgun.node.recovery;

import io.railgun.engine.snapshot.FileChecksum;
import io.railgun.engine.snapshot.SnapshotFile;
import io.railgun.engine.snapshot.SnapshotManifest;
import io.railgun.engine.snapshot.SnapshotWriter;
import io.railgun.engine.snapshot.TaskSnapshot;
import io.railgun.node.assignment.MemberAssignment.PeerCopy;
import io.railgun.node.assignment.TaskId;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.HashSet;
import java.util.Set;

/**
 * One copy of a peer's snapshot into a task directory, on a recovery thread.
 *
 * <p>Files are gathered in a staging directory next to the task's ({@code <task>.recovering}): a
 * file staged by an earlier attempt, or held by the task's own (stale) copy, with the manifest's
 * name, size and CRC32C is kept (hard-linked from the stale copy); the others are fetched a piece at
 * a time into {@code <name>.part}, throttled, resumed from the part's length after a broken
 * transfer, checked against the manifest's CRC32C (refetched whole on a mismatch), fsynced and
 * renamed. The manifest is written last; then the task directory is swapped for the staging one (two
 * renames, the first moving the old copy aside as {@code <task>.old}). A crash leaves the old copy,
 * or a complete staged one that the next recovery of the task moves in ({@link #finishSwap}), or
 * nothing, never a mix. Not thread-safe: one copier per recovery.
 */
final class SnapshotCopier {
    private static final System.Logger LOG = System.getLogger(SnapshotCopier.class.getName());
    private static final int MAX_ATTEMPTS_PER_FILE = 4;
    private static final long LOG_EVERY_NS = 5_000_000_000L;

    private final PeerTransport transport;
    private final RecoveryThrottle throttle;
    private final RecoveryMetrics metrics;
    private final int pieceBytes;
    private long lastLogNs = System.nanoTime();

    SnapshotCopier(PeerTransport transport, RecoveryThrottle throttle, RecoveryMetrics metrics, int pieceBytes) {
        this.transport = transport;
        this.throttle = throttle;
        this.metrics = metrics;
        this.pieceBytes = pieceBytes;
    }

    /** What one copy moved. */
    record Copied(SnapshotManifest manifest, long bytesFetched, long bytesKept) {}

    Copied copy(TaskId task, Path taskDir, PeerCopy source) throws IOException, InterruptedException {
        SnapshotManifest m = SnapshotManifest.decode(transport.manifest(source.nodeUrl(), task));
        Path staging = sibling(taskDir, ".recovering");
        Files.deleteIfExists(staging.resolve(SnapshotManifest.FILE_NAME));
        for (String dir : SnapshotManifest.DIRECTORIES) {
            Files.createDirectories(staging.resolve(dir));
        }
        removeStrays(staging, m);
        RecoveryMetrics.Progress progress = metrics.begin(task, source.nodeId(), m.totalBytes());
        long fetched = 0;
        long kept = 0;
        long startNs = System.nanoTime();
        try {
            for (SnapshotFile f : m.files()) {
                Path dest = staging.resolve(f.name());
                if (matches(dest, f)) {
                    progress.doneBytes.addAndGet(f.size());
                    continue;
                }
                Files.deleteIfExists(dest);
                Path held = taskDir.resolve(f.name());
                if (matches(held, f)) {
                    linkOrCopy(held, dest);
                    kept += f.size();
                    metrics.bytesReused.addAndGet(f.size());
                    progress.doneBytes.addAndGet(f.size());
                    continue;
                }
                fetched += fetch(source, task, m, f, dest, progress, startNs);
            }
            SnapshotWriter.writeDurably(staging.resolve(SnapshotManifest.FILE_NAME), m.encode());
            for (String dir : SnapshotManifest.DIRECTORIES) {
                fsyncDirectory(staging.resolve(dir));
            }
            fsyncDirectory(staging);
            swap(taskDir, staging);
            Files.deleteIfExists(taskDir.resolve(SnapshotManifest.FILE_NAME));
        } finally {
            metrics.end(task);
        }
        return new Copied(m, fetched, kept);
    }

    /** Fetches one file into {@code dest}; returns the bytes fetched (more than its size after retries). */
    private long fetch(PeerCopy source, TaskId task, SnapshotManifest m, SnapshotFile f, Path dest,
                       RecoveryMetrics.Progress progress, long startNs) throws IOException, InterruptedException {
        Path part = dest.resolveSibling(dest.getFileName() + ".part");
        long fetched = 0;
        for (int attempt = 1; ; attempt++) {
            long have = Files.exists(part) ? Files.size(part) : 0;
            if (have > f.size()) {
                Files.delete(part);
                have = 0;
            }
            if (have > 0) {
                LOG.log(System.Logger.Level.INFO, "task {0}: resuming {1} at byte {2} of {3}", task, f.name(),
                        Long.toString(have), Long.toString(f.size()));
            }
            progress.doneBytes.addAndGet(have);
            try (FileChannel out = FileChannel.open(part, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                out.truncate(have);
                while (have < f.size()) {
                    int n = (int) Math.min(pieceBytes, f.size() - have);
                    throttle.acquire(n);
                    byte[] piece = transport.range(source.nodeUrl(), task, m.snapshotId(), f.name(), have, n);
                    ByteBuffer b = ByteBuffer.wrap(piece);
                    while (b.hasRemaining()) {
                        out.write(b, have + b.position());
                    }
                    have += n;
                    fetched += n;
                    metrics.bytesCopied.addAndGet(n);
                    progress.doneBytes.addAndGet(n);
                    logProgress(progress, startNs);
                }
                out.force(true);
            } catch (IOException e) {
                progress.doneBytes.addAndGet(-have);
                if (e instanceof PeerTransport.PeerException p && p.status < 500 || attempt >= MAX_ATTEMPTS_PER_FILE) {
                    throw e;
                }
                LOG.log(System.Logger.Level.WARNING, "task {0}: transfer of {1} broke at byte {2} ({3}); resuming",
                        task, f.name(), Long.toString(have), e.toString());
                continue;
            }
            if (FileChecksum.of(part, f.size()) == f.crc32c()) {
                Files.move(part, dest, StandardCopyOption.ATOMIC_MOVE);
                return fetched;
            }
            progress.doneBytes.addAndGet(-f.size());
            Files.delete(part);
            if (attempt >= MAX_ATTEMPTS_PER_FILE) {
                throw new IOException("file " + f.name() + " from " + source.nodeId() + " fails its CRC32C check "
                        + attempt + " times");
            }
            LOG.log(System.Logger.Level.WARNING, "task {0}: {1} from {2} failed its CRC32C check; fetching it again",
                    task, f.name(), source.nodeId());
        }
    }

    private void logProgress(RecoveryMetrics.Progress p, long startNs) {
        long now = System.nanoTime();
        if (now - lastLogNs < LOG_EVERY_NS) {
            return;
        }
        lastLogNs = now;
        double seconds = (now - startNs) / 1e9;
        LOG.log(System.Logger.Level.INFO, String.format("task %s: recovering from %s: %,d of %,d bytes (%.0f%%), %.1f MiB/s",
                p.task, p.fromNode, p.doneBytes(), p.totalBytes, 100.0 * p.doneBytes() / Math.max(1, p.totalBytes),
                metrics.bytesCopied() / 1048576.0 / Math.max(seconds, 1e-3)));
    }

    /** Whether {@code file} exists with the manifest entry's size and CRC32C. */
    private static boolean matches(Path file, SnapshotFile f) throws IOException {
        return Files.isRegularFile(file) && Files.size(file) == f.size() && FileChecksum.of(file, f.size()) == f.crc32c();
    }

    /** Deletes staged files the manifest does not name (keeping the parts of those it names). */
    private static void removeStrays(Path staging, SnapshotManifest m) throws IOException {
        Set<String> keep = new HashSet<>();
        for (SnapshotFile f : m.files()) {
            keep.add(f.name());
            keep.add(f.name() + ".part");
        }
        for (String dir : SnapshotManifest.DIRECTORIES) {
            try (DirectoryStream<Path> files = Files.newDirectoryStream(staging.resolve(dir))) {
                for (Path p : files) {
                    if (!keep.contains(dir + "/" + p.getFileName())) {
                        TaskSnapshot.deleteTree(p);
                    }
                }
            }
        }
    }

    private static void linkOrCopy(Path from, Path to) throws IOException {
        try {
            Files.createLink(to, from);
        } catch (IOException | UnsupportedOperationException e) {
            Files.copy(from, to);
        }
    }

    /** Moves the staged copy in place of the task directory (the old one aside, then deleted). */
    private static void swap(Path taskDir, Path staging) throws IOException {
        Path old = sibling(taskDir, ".old");
        TaskSnapshot.deleteTree(old);
        if (Files.exists(taskDir)) {
            Files.move(taskDir, old, StandardCopyOption.ATOMIC_MOVE);
        }
        Files.move(staging, taskDir, StandardCopyOption.ATOMIC_MOVE);
        fsyncDirectory(taskDir.getParent());
        TaskSnapshot.deleteTree(old);
    }

    /**
     * Completes a swap a crash interrupted: a complete staged copy (its manifest written) and no
     * task directory are moved in. Leftovers of the old copy are deleted.
     */
    static void finishSwap(Path taskDir) throws IOException {
        Path staging = sibling(taskDir, ".recovering");
        if (!Files.exists(taskDir) && Files.exists(staging.resolve(SnapshotManifest.FILE_NAME))) {
            Files.move(staging, taskDir, StandardCopyOption.ATOMIC_MOVE);
            fsyncDirectory(taskDir.getParent());
            Files.deleteIfExists(taskDir.resolve(SnapshotManifest.FILE_NAME));
            LOG.log(System.Logger.Level.INFO, "{0}: completed a recovery interrupted before its last rename", taskDir);
        }
        TaskSnapshot.deleteTree(sibling(taskDir, ".old"));
    }

    static Path sibling(Path taskDir, String suffix) {
        return taskDir.resolveSibling(taskDir.getFileName() + suffix);
    }

    private static void fsyncDirectory(Path dir) throws IOException {
        try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
            ch.force(true);
        } catch (IOException e) {
            // some file systems cannot sync a directory; the renames are still atomic
            LOG.log(System.Logger.Level.DEBUG, "cannot fsync " + dir + ": " + e);
        }
    }
}
