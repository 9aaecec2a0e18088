package io.railgun.node.cluster;

import io.railgun.node.messaging.KafkaSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * Writes this node's {@link NodeStatus} to the cluster topic every {@link #INTERVAL_MS} ms, from
 * the copies its {@link LocalCopies} report, and a tombstone when it stops cleanly (then the view
 * of every node drops it; a node that dies is shown unreachable instead). Runs on a daemon thread
 * of its own ({@code railgun-cluster-publisher}); {@link #start} and {@link #close} may be called
 * from any thread, once each.
 */
public final class ClusterPublisher implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ClusterPublisher.class.getName());
    /** How often a node writes its status. */
    public static final long INTERVAL_MS = 1_000;

    private final String nodeId;
    private final String apiUrl;
    private final int units;
    private final LocalCopies copies;
    private final LongSupplier clockMs;
    private final long startedMs;
    private final KafkaProducer<byte[], byte[]> producer;
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(
            r -> Thread.ofPlatform().name("railgun-cluster-publisher").daemon(true).unstarted(r));
    private volatile boolean failing;

    public ClusterPublisher(KafkaSettings kafka, String nodeId, String apiUrl, int units, LocalCopies copies,
            LongSupplier clockMs) {
        this.nodeId = nodeId;
        this.apiUrl = apiUrl;
        this.units = units;
        this.copies = copies;
        this.clockMs = clockMs;
        this.startedMs = clockMs.getAsLong();
        Map<String, Object> p = kafka.producer("cluster");
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        this.producer = new KafkaProducer<>(p);
    }

    /** Publishes now, then every {@link #INTERVAL_MS} ms. */
    public void start() {
        timer.scheduleAtFixedRate(this::publish, 0, INTERVAL_MS, TimeUnit.MILLISECONDS);
    }

    /** The status this node would publish now. */
    public NodeStatus status() {
        return new NodeStatus(nodeId, apiUrl, startedMs, clockMs.getAsLong(), units, copies.copies());
    }

    private void publish() {
        try {
            producer.send(new ProducerRecord<>(ClusterTopic.NAME, 0, key(), NodeStatusDescriptor.encode(status())),
                    (m, e) -> {
                        if (e != null && !failing) {
                            failing = true;
                            LOG.log(System.Logger.Level.WARNING, "node status not published to " + ClusterTopic.NAME
                                    + " (the cluster view shows this node unreachable until it is): " + e);
                        } else if (e == null && failing) {
                            failing = false;
                            LOG.log(System.Logger.Level.INFO, "node status published to {0} again", ClusterTopic.NAME);
                        }
                    });
        } catch (RuntimeException e) {
            // the next round tries again; a scheduled task that throws would never run again
            LOG.log(System.Logger.Level.WARNING, "node status not published: " + e);
        }
    }

    private byte[] key() {
        return nodeId.getBytes(StandardCharsets.UTF_8);
    }

    /** Stops publishing and writes the tombstone that removes this node from the view. */
    @Override
    public void close() {
        timer.shutdownNow();
        try {
            timer.awaitTermination(2, TimeUnit.SECONDS);
            producer.send(new ProducerRecord<>(ClusterTopic.NAME, 0, key(), null)).get(3, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (Exception e) {
            LOG.log(System.Logger.Level.WARNING, "tombstone not written to " + ClusterTopic.NAME + ": the other nodes show"
                    + " this node unreachable: " + e);
        } finally {
            producer.close(Duration.ofSeconds(2));
        }
    }
}
