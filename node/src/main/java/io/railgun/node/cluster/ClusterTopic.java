package io.railgun.node.cluster;

import io.railgun.node.messaging.Topics;
import java.util.Map;

/**
 * The cluster topic: one partition, compacted, each node's latest {@link NodeStatus} under its id
 * ({@link NodeStatusDescriptor}), a tombstone when it stops cleanly.
 */
public final class ClusterTopic {
    public static final String NAME = Topics.PREFIX + "cluster";

    private ClusterTopic() {}

    /**
     * Compacted (a node's last status is all that matters), segments rolled every 10 minutes so
     * compaction keeps the topic small although every node writes a record a second, and
     * tombstones kept a day (a node stopped cleanly disappears from the view).
     */
    public static Map<String, String> config() {
        return Map.of("cleanup.policy", "compact", "segment.ms", "600000", "min.cleanable.dirty.ratio", "0.1",
                "delete.retention.ms", "86400000");
    }
}
