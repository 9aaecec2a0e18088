package io.railgun.node.cluster;

import io.railgun.node.assignment.CopyRole;
import io.railgun.node.catalog.Catalog;
import io.railgun.node.catalog.StreamEntry;
import io.railgun.node.messaging.Topics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The copies a node runs ({@code running}), and as stale copies the task directories on its disk
 * ({@code <tasks>/<stream>.<generation>/<partitioner>-<partition>}, of streams in the catalog) that
 * none of them is: what it could resume from without copying. Their checkpoint offset is not read
 * (that would open the task's state): -1. Thread-safe as {@code running} is; lists one directory per
 * stream at each call.
 */
public final class DiskCopies implements LocalCopies {
    private final Path tasksDir;
    private final Catalog catalog;
    private final LocalCopies running;

    public DiskCopies(Path tasksDir, Catalog catalog, LocalCopies running) {
        this.tasksDir = tasksDir;
        this.catalog = catalog;
        this.running = running;
    }

    @Override
    public List<CopyStatus> copies() {
        List<CopyStatus> copies = new ArrayList<>(running.copies());
        Set<String> held = new HashSet<>();
        copies.forEach(c -> held.add(c.task()));
        for (StreamEntry s : catalog.streams()) {
            Path streamDir = tasksDir.resolve(s.name() + "." + s.generation());
            if (!Files.isDirectory(streamDir)) {
                continue;
            }
            for (String p : s.definition().partitioners()) {
                String topic = Topics.input(s, p);
                String legal = topic.substring(topic.lastIndexOf('.') + 1); // as the units name task directories
                for (int i = 0; i < s.definition().partitions(); i++) {
                    CopyStatus stale = CopyStatus.running(s.name(), p, i, CopyRole.STALE, -1, -1, -1);
                    if (!held.contains(stale.task()) && Files.isDirectory(streamDir.resolve(legal + "-" + i))) {
                        copies.add(stale);
                    }
                }
            }
        }
        return copies;
    }
}
