package io.railgun.node.cluster;

import io.railgun.node.assignment.CopyRole;
import io.railgun.node.assignment.TaskId;
import io.railgun.node.catalog.Catalog;
import io.railgun.node.catalog.StreamEntry;
import io.railgun.node.messaging.Topics;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The copies a node runs ({@code running}), then its stale copies: task directories on its disk that
 * no unit runs ({@code stale}, the node's {@code StaleCopies}: task → the offset its checkpoint
 * resumes at, -1 when unknown), of streams in the catalog, with their stream and partitioner names.
 * Thread-safe as {@code running} and {@code stale} are.
 */
public final class DiskCopies implements LocalCopies {
    private final Catalog catalog;
    private final Supplier<Map<TaskId, Long>> stale;
    private final LocalCopies running;

    public DiskCopies(Catalog catalog, Supplier<Map<TaskId, Long>> stale, LocalCopies running) {
        this.catalog = catalog;
        this.stale = stale;
        this.running = running;
    }

    @Override
    public List<CopyStatus> copies() {
        List<CopyStatus> copies = new ArrayList<>(running.copies());
        Set<String> held = new HashSet<>();
        copies.forEach(c -> held.add(c.task()));
        Map<String, String[]> byTopic = new HashMap<>(); // input topic -> stream, partitioner
        for (StreamEntry s : catalog.streams()) {
            for (String p : s.definition().partitioners()) {
                byTopic.put(Topics.input(s, p), new String[] {s.name(), p});
            }
        }
        stale.get().entrySet().stream().sorted(Map.Entry.comparingByKey()).forEach(e -> {
            String[] names = byTopic.get(e.getKey().topic());
            if (names != null) {
                CopyStatus c = CopyStatus.running(names[0], names[1], e.getKey().partition(), CopyRole.STALE, -1,
                        e.getValue(), -1);
                if (!held.contains(c.task())) {
                    copies.add(c);
                }
            }
        });
        return copies;
    }
}
