package io.railgun.node.backend;

import io.railgun.node.assignment.CopyRole;
import io.railgun.node.assignment.HeldCopy;
import io.railgun.node.assignment.TaskId;
import io.railgun.node.messaging.Topics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * The node's stale task copies: task directories on its disk that no unit runs (a task this node
 * ran before a restart, or that moved away). The assignment prefers a processor that holds a copy,
 * the most recent checkpoint first, so units advertise them ({@link CopyRole#STALE}). One per node,
 * shared by its units; each unit advertises those that hash to it, so a copy is advertised once.
 *
 * <p>The checkpoint offset of a copy is known when a unit of this node closed it since the start
 * (its final checkpoint); for directories found at start it is -1 (unknown: reading it would open
 * the task's RocksDB).
 *
 * <p>Thread-safe: units call {@link #opened}, {@link #closed} and {@link #advertised} from their
 * threads.
 */
public final class StaleCopies {
    private static final System.Logger LOG = System.getLogger(StaleCopies.class.getName());

    private final Map<TaskId, Long> stale = new ConcurrentHashMap<>();

    /** Finds the task directories under {@code tasksDir} ({@code <stream>.<generation>/<partitioner>-<partition>}). */
    public StaleCopies(Path tasksDir) {
        if (!Files.isDirectory(tasksDir)) {
            return;
        }
        try (Stream<Path> streams = Files.list(tasksDir)) {
            for (Path stream : streams.toList()) {
                try (Stream<Path> tasks = Files.list(stream)) {
                    for (Path task : tasks.toList()) {
                        TaskId id = taskOf(stream.getFileName().toString(), task.getFileName().toString());
                        if (id != null) {
                            stale.put(id, -1L);
                        }
                    }
                }
            }
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "task copies in " + tasksDir + " could not be listed: " + e);
        }
    }

    /** The task of directory {@code <streamDir>/<taskDir>}, or null when the names are not a task's. */
    static TaskId taskOf(String streamDir, String taskDir) {
        int dash = taskDir.lastIndexOf('-');
        if (dash <= 0 || streamDir.indexOf('.') <= 0) {
            return null;
        }
        try {
            int partition = Integer.parseInt(taskDir.substring(dash + 1));
            return new TaskId(Topics.STREAM_PREFIX + streamDir + "." + taskDir.substring(0, dash), partition);
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /** A unit opened the task: it is no longer a stale copy. */
    void opened(TaskId task) {
        stale.remove(task);
    }

    /** A unit closed the task with a final checkpoint resuming at {@code checkpointOffset}; its files stay. */
    void closed(TaskId task, long checkpointOffset) {
        stale.put(task, checkpointOffset);
    }

    /** The task's files were deleted (its stream was). */
    void deleted(TaskId task) {
        stale.remove(task);
    }

    /** Every stale copy now, with its checkpoint offset (-1 when unknown), for the cluster view. Any thread. */
    public Map<TaskId, Long> snapshot() {
        return Map.copyOf(stale);
    }

    /** The stale copies unit {@code unit} of {@code units} advertises: those of live streams that hash to it. */
    List<HeldCopy> advertised(int unit, int units, Predicate<String> liveTopic) {
        List<HeldCopy> held = new ArrayList<>();
        stale.forEach((task, offset) -> {
            if (Math.floorMod(task.hashCode(), units) == unit && liveTopic.test(task.topic())) {
                held.add(new HeldCopy(task, CopyRole.STALE, offset));
            }
        });
        return held;
    }
}
