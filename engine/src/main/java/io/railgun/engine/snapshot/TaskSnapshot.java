package io.railgun.engine.snapshot;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * A consistent, immutable copy of a durable task's last complete checkpoint, in a directory of its
 * own laid out like a task directory ({@code state/}: a RocksDB checkpoint holding the key states
 * and the checkpoint record; {@code reservoir/}: the segment files the checkpoint needs), plus the
 * {@link SnapshotManifest} naming every file with its size and CRC32C. Copying those files into an
 * empty directory and opening a task there restores exactly the state the snapshot saw.
 *
 * <p>Made by {@code TaskProcessor.trySnapshot} (see there for how it is kept consistent with a
 * running task). Its files are hard links where the file system allows, so it costs little disk
 * until the task's own files move on. A file may be longer than the manifest says (the reservoir
 * segment the task still appends to): readers take the manifest's size, whose bytes never change.
 * Read-only and thread-safe; {@link #delete} releases it.
 */
public record TaskSnapshot(Path directory, SnapshotManifest manifest) {

    /** The path of a manifest file inside the snapshot. */
    public Path path(SnapshotFile file) {
        return directory.resolve(file.name());
    }

    /** Deletes the snapshot's directory (the task's own files are not touched: links are removed). */
    public void delete() throws IOException {
        deleteTree(directory);
    }

    /** Deletes {@code dir} and everything under it; nothing when it does not exist. */
    public static void deleteTree(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
