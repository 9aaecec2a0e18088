package io.railgun.node;

import io.railgun.node.catalog.Catalog;
import io.railgun.node.catalog.StreamEntry;
import io.railgun.node.security.OwnerOnly;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A node's data directory ({@code --data-dir}) at start-up: made owner-only and locked against a
 * second node, and rid of the task directories of streams deleted while the node was down.
 * Stateless; called by {@link Node} on the thread that starts it.
 */
final class NodeDataDir {
    /** Logs under Node's name, as these lines did before they moved here. */
    private static final System.Logger LOG = System.getLogger(Node.class.getName());

    private NodeDataDir() {}

    /**
     * Makes {@code data} owner-only ({@link OwnerOnly#prepareDataDir}) and takes its lock file, so
     * that no other node uses it; closing the result releases the lock.
     *
     * @throws IllegalStateException when another node holds it
     */
    static AutoCloseable lock(Path data) {
        try {
            OwnerOnly.prepareDataDir(data);
            Path lockFile = data.resolve(".lock");
            FileChannel channel = FileChannel.open(lockFile, Set.of(StandardOpenOption.CREATE, StandardOpenOption.WRITE),
                    OwnerOnly.fileAttributes(lockFile));
            FileLock lock = channel.tryLock();
            if (lock == null) {
                channel.close();
                throw new IllegalStateException("data directory " + data + " is in use by another Railgun node; give each"
                        + " node its own --data-dir");
            }
            return () -> {
                lock.release();
                channel.close();
            };
        } catch (IOException e) {
            throw new UncheckedIOException("data directory " + data + " cannot be used: " + e.getMessage(), e);
        }
    }

    /** Task directories are {@code tasks/<stream>.<generation>/...}: those of streams no longer in the catalog go. */
    static void deleteTasksOfDeletedStreams(Path tasks, Catalog catalog) {
        if (!Files.isDirectory(tasks)) {
            return;
        }
        Set<String> live = new HashSet<>();
        for (StreamEntry s : catalog.streams()) {
            live.add(s.name() + "." + s.generation());
        }
        try (Stream<Path> dirs = Files.list(tasks)) {
            for (Path dir : dirs.toList()) {
                if (!live.contains(dir.getFileName().toString())) {
                    LOG.log(System.Logger.Level.INFO, "deleting {0}: its stream was deleted", dir);
                    try (Stream<Path> walk = Files.walk(dir)) {
                        for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                            Files.deleteIfExists(p);
                        }
                    }
                }
            }
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "could not clean " + tasks + ": " + e);
        }
    }
}
