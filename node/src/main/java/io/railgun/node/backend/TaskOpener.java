package io.railgun.node.backend;

import io.railgun.engine.state.durable.StateMemory;
import io.railgun.node.NodeConfig;
import io.railgun.node.catalog.Catalog;
import io.railgun.node.catalog.StreamEntry;
import io.railgun.node.messaging.Topics;
import java.nio.file.Path;
import org.apache.kafka.common.TopicPartition;

/**
 * Where a task's files live and how it is opened: {@code tasks/<stream>.<generation>/<partitioner>-<partition>},
 * the partitioner as its topic names it (see {@link Topics}). The same layout on every node, so a
 * peer's copy lands where the task opens it. Opening restores the task's last checkpoint.
 *
 * <p>Reads the catalog (thread-safe); opens on the calling unit's thread.
 */
final class TaskOpener {
    private static final System.Logger LOG = System.getLogger(TaskOpener.class.getName());

    private final NodeConfig config;
    private final Catalog catalog;
    private final Path tasksDir;
    private final StateMemory stateMemory; // the node's, shared by every task of every unit; null: none

    TaskOpener(NodeConfig config, Catalog catalog, Path tasksDir, StateMemory stateMemory) {
        this.config = config;
        this.catalog = catalog;
        this.tasksDir = tasksDir;
        this.stateMemory = stateMemory;
    }

    /** The generation in a topic name {@code railgun.s.<stream>.<generation>.<partitioner>}. */
    static String generationOf(String topic) {
        int last = topic.lastIndexOf('.');
        return topic.substring(topic.lastIndexOf('.', last - 1) + 1, last);
    }

    /** Whether the stream of {@code topic} is (still) in the catalog. */
    boolean known(String topic) {
        return catalog.byGeneration().containsKey(generationOf(topic));
    }

    /** The task's directory, or null when its stream is unknown here (not yet, or deleted). */
    Path directory(TopicPartition tp) {
        String topic = tp.topic();
        String generation = generationOf(topic);
        StreamEntry stream = catalog.byGeneration().get(generation);
        if (stream == null) {
            return null;
        }
        String legalPartitioner = topic.substring(topic.lastIndexOf('.') + 1);
        return tasksDir.resolve(stream.name() + "." + generation).resolve(legalPartitioner + "-" + tp.partition());
    }

    /** Opens the task of {@code tp} from its directory, or returns null when its stream is unknown here. */
    TaskRunner open(TopicPartition tp, int unit) {
        String topic = tp.topic();
        StreamEntry stream = catalog.byGeneration().get(generationOf(topic));
        if (stream == null) {
            LOG.log(System.Logger.Level.WARNING, "unit {0}: partition {1} belongs to no known stream; not run", unit, tp);
            return null;
        }
        for (String p : stream.definition().partitioners()) {
            if (Topics.input(stream, p).equals(topic)) {
                return new TaskRunner(tp, stream, p, directory(tp), config, stateMemory);
            }
        }
        return null;
    }
}
