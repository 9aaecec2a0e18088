package io.railgun.node.backend;

import io.railgun.engine.snapshot.TaskSnapshot;
import io.railgun.node.assignment.TaskId;
import io.railgun.node.catalog.Catalog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * The tasks open in one processor unit, active or replica, by partition: opening one (through the
 * {@link TaskOpener}; a failure is logged and the task left unopened), closing one with its final
 * checkpoint (its files stay as a stale copy, or go when its stream was deleted). Which role each
 * task has, and which offsets are committed, is its {@link UnitTasks}' business. Logs as
 * {@link UnitTasks}.
 *
 * <p>Not thread-safe: the unit's thread only.
 */
final class OpenTasks {
    private static final System.Logger LOG = System.getLogger(UnitTasks.class.getName());

    private final int index;
    private final Catalog catalog;
    private final ReplicaReader replicas;
    private final TaskOpener opener;
    private final StaleCopies stale;
    private final UnitStats stats;
    private final Map<TopicPartition, TaskRunner> runners = new HashMap<>();

    OpenTasks(int index, Catalog catalog, ReplicaReader replicas, TaskOpener opener, StaleCopies stale, UnitStats stats) {
        this.index = index;
        this.catalog = catalog;
        this.replicas = replicas;
        this.opener = opener;
        this.stale = stale;
        this.stats = stats;
    }

    /** The task open for {@code tp}, or null. */
    TaskRunner get(TopicPartition tp) {
        return runners.get(tp);
    }

    boolean isOpen(TopicPartition tp) {
        return runners.containsKey(tp);
    }

    Collection<TaskRunner> all() {
        return runners.values();
    }

    /** The partitions of the open tasks, copied (the caller may close some while going through them). */
    List<TopicPartition> partitions() {
        return new ArrayList<>(runners.keySet());
    }

    /** Opens the task of {@code tp}; null when its stream is unknown or it could not be opened (logged). */
    TaskRunner open(TopicPartition tp) {
        TaskRunner t;
        try {
            t = opener.open(tp, index);
        } catch (RuntimeException e) {
            // not run for now (retried when the plan or the catalog changes); the unit goes on with the others
            LOG.log(System.Logger.Level.ERROR, "unit " + index + ": task " + tp + " could not be opened", e);
            return null;
        }
        if (t != null) {
            runners.put(tp, t);
            stale.opened(taskId(tp));
            stats.opens++;
        }
        return t;
    }

    /** Closes the task with a final checkpoint; its files stay (a stale copy) unless its stream was deleted. */
    void close(TopicPartition tp) {
        TaskRunner t = runners.remove(tp);
        replicas.remove(tp);
        if (t == null) {
            return;
        }
        try {
            t.close();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.ERROR, "task " + tp + " did not close cleanly", e);
        }
        if (!catalog.byGeneration().containsKey(t.generation)) {
            deleteTree(t.directory);
            stale.deleted(taskId(tp));
        } else {
            stale.closed(taskId(tp), t.durableOffset());
        }
    }

    static TaskId taskId(TopicPartition tp) {
        return new TaskId(tp.topic(), tp.partition());
    }

    private static void deleteTree(Path dir) {
        try {
            TaskSnapshot.deleteTree(dir);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "could not delete " + dir + ": " + e);
        }
    }
}
