package io.railgun.node.messaging;

import io.railgun.node.assignment.AssignmentHolder;
import io.railgun.node.assignment.kafka.RailgunAssignor;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.CooperativeStickyAssignor;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The settings of every Kafka client the node creates, tuned for latency (docs/node.md § Kafka
 * settings). The user's Kafka properties (TLS, SASL ...) are applied to every client, after these,
 * so they can also override a tuning.
 */
public final class KafkaSettings {
    /** The consumer group of all processor units of all nodes. */
    public static final String TASK_GROUP = "railgun-tasks";
    /** The consumer group of the Kafka-native ingestion consumers. */
    public static final String INGEST_GROUP = "railgun-ingest";
    /** The unit consumer's configuration key of the task copies wanted (an Integer), for the group's assignor. */
    public static final String REPLICATION_CONFIG = RailgunAssignor.REPLICATION_CONFIG;
    /**
     * The largest record the node writes (the producers' {@code max.request.size}, 1 MiB, Kafka's
     * default and below its brokers' default {@code message.max.bytes}): a larger event is refused
     * with 413 before anything of it is sent.
     */
    public static final int MAX_RECORD_BYTES = 1 << 20;

    private final String bootstrap;
    private final Map<String, String> user;
    private final String nodeId;

    public KafkaSettings(String bootstrap, Map<String, String> userProperties, String nodeId) {
        this.bootstrap = bootstrap;
        this.user = Map.copyOf(userProperties);
        this.nodeId = nodeId;
    }

    public String bootstrap() {
        return bootstrap;
    }

    private Map<String, Object> base(String clientId) {
        Map<String, Object> p = new HashMap<>();
        p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(CommonClientConfigs.CLIENT_ID_CONFIG, "railgun-" + nodeId + "-" + clientId);
        return p;
    }

    private Map<String, Object> withUser(Map<String, Object> p) {
        p.putAll(user);
        return p;
    }

    public Map<String, Object> admin() {
        return withUser(base("admin"));
    }

    /**
     * Producers of events, replies and DDL: {@code acks=all} with idempotence (an acknowledged event
     * is durable and written once per send, in order), {@code linger.ms=2} (the events of 2 ms go in
     * one produce request, so the broker and the units' fetches handle batches instead of single
     * records: at 5,000 ev/s through HTTP the node's CPU per event fell from 220 to 159 µs against
     * no linger, the broker's threads from 34% to 17% of a core, p50 2.8 → 2.5 ms and p99.9 27 → 22
     * ms; docs/benchmarks.md), no compression (rows are small and already compact).
     *
     * <p>One request in flight per broker: with more, a request to a just-created partition that
     * reaches the broker before it leads the partition is retried after a later request was already
     * accepted, and brokers before 4.5 then refuse it for ever (out-of-order sequence, KAFKA-15591):
     * the first events sent to a new stream were never answered. What accumulates meanwhile, for
     * every partition, goes in the next request: at 5,000 ev/s this measured the same CPU per event
     * as five in flight (docs/node.md § Kafka settings).
     */
    public Map<String, Object> producer(String clientId) {
        Map<String, Object> p = base(clientId);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        p.put(ProducerConfig.LINGER_MS_CONFIG, 2);
        p.put(ProducerConfig.BATCH_SIZE_CONFIG, 64 * 1024);
        p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, MAX_RECORD_BYTES);
        p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
        p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000);
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        return withUser(p);
    }

    /** The control topic's producer: string keys. */
    public Map<String, Object> controlProducer() {
        Map<String, Object> p = producer("control");
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return p;
    }

    /**
     * A processor unit's consumer: a member of {@link #TASK_GROUP} with a static id (a restarted
     * node takes its tasks back at once, without waiting for the session to time out), the
     * paper's sticky, cooperative assignment ({@link RailgunAssignor}: a rebalance moves only the
     * partitions that must move; replicas and peers to copy from travel in its assignment data),
     * no auto-commit (the unit commits what its tasks' checkpoints cover), reads from the earliest
     * offset (a task with no checkpoint replays its whole input), and answers a fetch as soon as one
     * record is there. The unit ({@code holder}) and the task copies wanted ({@code replication})
     * are in the configuration for the group's assignor.
     */
    public Map<String, Object> unitConsumer(int unit, AssignmentHolder holder, int replication) {
        Map<String, Object> p = base("unit-" + unit);
        // for the task group's assignor: the unit's copies and the plan's replicas go through it
        p.put(AssignmentHolder.CONFIG_KEY, holder);
        p.put(REPLICATION_CONFIG, replication);
        p.put(ConsumerConfig.GROUP_ID_CONFIG, TASK_GROUP);
        p.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, nodeId + "-unit-" + unit);
        // the classic protocol: only there does a client (the group leader) run the assignor, with
        // every member's subscription data (held copies) in hand (RailgunAssignor says more)
        p.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        p.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, RailgunAssignor.class.getName());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, 1);
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1000);
        p.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, 10_000);
        p.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, 2_000);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return withUser(p);
    }

    /**
     * A processor unit's replica consumer: no group, partitions assigned by the unit and read from
     * the offsets its replica tasks resume at, never reset to another; at most 500 records a poll, so the unit's round
     * spends a bounded time on replicas after its active tasks.
     */
    public Map<String, Object> replicaConsumer(int unit) {
        Map<String, Object> p = assignedConsumer("unit-" + unit + "-replicas", false);
        // never skip records: a replica whose offset is gone from Kafka stops instead (ReplicaReader)
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 500);
        return p;
    }

    /** A consumer without a group (assigned partitions): the reply collector and the control log. */
    public Map<String, Object> assignedConsumer(String clientId, boolean stringKeys) {
        Map<String, Object> p = base(clientId);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, 1);
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2000);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG,
                stringKeys ? StringDeserializer.class.getName() : ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return withUser(p);
    }

    /** The Kafka-native ingestion consumer: a member of {@link #INGEST_GROUP}. */
    public Map<String, Object> ingestConsumer() {
        Map<String, Object> p = base("ingest");
        p.put(ConsumerConfig.GROUP_ID_CONFIG, INGEST_GROUP);
        p.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, CooperativeStickyAssignor.class.getName());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        p.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, 1);
        p.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        return withUser(p);
    }
}
