package io.railgun.node.messaging;

import io.railgun.node.NodeConfig;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * How many copies the node gives the topics it creates (input, control, replies, ingestion), and how
 * many of them must have a write before it is acknowledged: {@code --topic-replication} copies, by
 * default ({@code auto}) min(3, brokers in the cluster); {@code min.insync.replicas=2} with three
 * copies or more, else 1. Producers write with {@code acks=all}, so an acknowledged write is on two
 * brokers of a three-broker cluster, and writes go on while one broker is down.
 */
public final class TopicReplication {
    private static final int MAX_AUTO = 3;

    private TopicReplication() {
    }

    /**
     * The replication factor for {@code setting} ({@link NodeConfig#topicReplication()}) in a cluster of
     * {@code brokers}.
     *
     * @throws IllegalStateException when the setting asks for more copies than there are brokers
     */
    public static short factor(int setting, int brokers) {
        if (setting == NodeConfig.AUTO_TOPIC_REPLICATION) {
            return (short) Math.max(1, Math.min(MAX_AUTO, brokers));
        }
        if (setting > brokers) {
            throw new IllegalStateException("--topic-replication " + setting + " asks for more copies than the " + brokers
                    + " broker(s) of the Kafka cluster; use at most " + brokers + ", or auto (min(3, brokers))");
        }
        return (short) setting;
    }

    /** {@code min.insync.replicas} for a topic with {@code factor} copies: 2 from 3 copies on, else 1. */
    public static int minInsync(short factor) {
        return factor >= 3 ? 2 : 1;
    }

    /** {@code configs} with the {@code min.insync.replicas} of {@code factor} copies added. */
    public static Map<String, String> configs(short factor, Map<String, String> configs) {
        Map<String, String> all = new LinkedHashMap<>(configs);
        all.put("min.insync.replicas", Integer.toString(minInsync(factor)));
        return all;
    }
}
