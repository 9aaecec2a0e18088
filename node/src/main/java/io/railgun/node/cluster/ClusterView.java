package io.railgun.node.cluster;

import io.railgun.node.agent.Agent;
import io.railgun.node.agent.AgentRunner;
import io.railgun.node.messaging.KafkaSettings;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;

/**
 * Every node's latest {@link NodeStatus}, read from the cluster topic from its beginning and then
 * followed, on a thread of its own ({@code railgun-cluster-view}, the map's one writer). A tombstone
 * removes a node; a record this node cannot decode is skipped (logged once per node).
 * {@link #report} may be called from any thread (the HTTP API's).
 */
public final class ClusterView implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ClusterView.class.getName());
    private static final TopicPartition PARTITION = new TopicPartition(ClusterTopic.NAME, 0);

    private final Map<String, NodeStatus> nodes = new ConcurrentHashMap<>();
    private final Set<String> undecodable = ConcurrentHashMap.newKeySet();
    private final KafkaConsumer<String, byte[]> consumer;
    private final AgentRunner reader;
    private final LongSupplier clockMs;
    private final long unreachableAfterMs;

    /**
     * @param unreachableAfterMs a node whose last status is older than this is shown unreachable
     */
    public ClusterView(KafkaSettings kafka, LongSupplier clockMs, long unreachableAfterMs) {
        this.clockMs = clockMs;
        this.unreachableAfterMs = unreachableAfterMs;
        this.consumer = new KafkaConsumer<>(kafka.assignedConsumer("cluster-view", true));
        consumer.assign(List.of(PARTITION));
        consumer.seekToBeginning(List.of(PARTITION));
        this.reader = new AgentRunner(new Reader(), Duration.ZERO, Duration.ofSeconds(5), true);
    }

    public ClusterView start() {
        reader.start();
        return this;
    }

    /** The cluster as the latest records describe it now. */
    public ClusterReport report() {
        return ClusterReport.of(nodes.values(), clockMs.getAsLong(), unreachableAfterMs);
    }

    /** Applies one record of the cluster topic (the reader's thread; tests). */
    void apply(String key, byte[] value) {
        if (key == null) {
            return;
        }
        if (value == null) {
            nodes.remove(key);
            return;
        }
        try {
            NodeStatus status = NodeStatusDescriptor.decode(value);
            nodes.put(key, status);
            undecodable.remove(key);
        } catch (IllegalArgumentException e) {
            if (undecodable.add(key)) {
                LOG.log(System.Logger.Level.WARNING, "status of node ''{0}'' ignored: {1}", key, e.getMessage());
            }
        }
    }

    private final class Reader implements Agent {
        @Override
        public String roleName() {
            return "railgun-cluster-view";
        }

        @Override
        public int doWork() {
            int n = 0;
            for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                apply(r.key(), r.value());
                n++;
            }
            return n;
        }

        @Override
        public void wake() {
            consumer.wakeup();
        }

        @Override
        public void onClose() {
            consumer.close();
        }
    }

    @Override
    public void close() {
        reader.close();
    }
}
