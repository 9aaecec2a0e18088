package io.railgun.node.catalog;

import io.railgun.node.agent.Agent;
import io.railgun.node.agent.AgentRunner;
import io.railgun.node.messaging.KafkaSettings;
import io.railgun.node.messaging.Topics;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * The control topic, read and written: a thread reads it from the beginning into the
 * {@link Catalog} (every node does, so all converge to the same catalog), and
 * {@link #publish} writes a stream's new state and waits until this node has applied it.
 *
 * <p>Records: key {@code stream/<name>}, a stream's whole state ({@link CatalogCodec}), with the
 * markers of its last change ({@link DdlCodec}); key {@code ddl/<name>}, the stream's DDL ledger
 * (claims and completion of those markers, {@link DdlLedger}), so that a node that dies between a
 * change and its markers leaves nothing half done: starting nodes finish it.
 */
public final class ControlLog implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(ControlLog.class.getName());
    private static final TopicPartition PARTITION = new TopicPartition(Topics.CONTROL, 0);
    private volatile long lag = -1;

    private final Catalog catalog;
    private final KafkaConsumer<String, byte[]> consumer;
    private final KafkaProducer<String, byte[]> producer;
    private final AgentRunner reader;

    public ControlLog(Catalog catalog, KafkaSettings kafka) {
        this.catalog = catalog;
        this.consumer = new KafkaConsumer<>(kafka.assignedConsumer("control", true));
        this.producer = new KafkaProducer<>(kafka.controlProducer());
        consumer.assign(List.of(PARTITION));
        consumer.seekToBeginning(List.of(PARTITION));
        this.reader = new AgentRunner(new Reader(), Duration.ZERO, Duration.ofSeconds(5), true);
    }

    /** Reads the control topic to its current end (the catalog is then complete), then follows it. */
    public void start(long timeoutMs) throws TimeoutException, InterruptedException {
        long end = consumer.endOffsets(List.of(PARTITION), Duration.ofMillis(timeoutMs)).get(PARTITION);
        reader.start();
        if (end > 0) {
            catalog.awaitApplied(end - 1, timeoutMs);
        }
        LOG.log(System.Logger.Level.INFO, "catalog loaded from {0}: {1} stream(s)", Topics.CONTROL, catalog.streams().size());
    }

    /** The agent that follows the control topic into the catalog (the catalog's one writer). */
    private final class Reader implements Agent {
        @Override
        public String roleName() {
            return "railgun-control";
        }

        @Override
        public int doWork() {
            int n = 0;
            for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                try {
                    catalog.apply(r.key(), r.value(), r.offset());
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.ERROR, "control record at offset " + r.offset() + " ignored: it does not decode", e);
                    catalog.apply(null, null, r.offset());
                }
                n++;
            }
            lag = consumer.currentLag(PARTITION).orElse(lag);
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

    /**
     * Writes a stream's new state (or its deletion, with {@code value} null) and waits until this
     * node's catalog has applied it.
     *
     * @return true when it applied, false when another node's change to the stream came first
     */
    public boolean publish(String stream, byte[] value, long timeoutMs)
            throws InterruptedException, TimeoutException, ExecutionException {
        RecordMetadata m = producer.send(new ProducerRecord<>(Topics.CONTROL, 0, CatalogCodec.key(stream), value))
                .get(timeoutMs, TimeUnit.MILLISECONDS);
        return catalog.awaitApplied(m.offset(), timeoutMs);
    }

    /**
     * Writes a record of the stream's DDL ledger ({@link DdlLedger}) and waits until this node has
     * applied it.
     *
     * @return true when it changed the ledger, false when another node's record came first
     */
    public boolean publishLedger(String stream, byte[] value, long timeoutMs)
            throws InterruptedException, TimeoutException, ExecutionException {
        RecordMetadata m = producer.send(new ProducerRecord<>(Topics.CONTROL, 0, DdlCodec.ledgerKey(stream), value))
                .get(timeoutMs, TimeUnit.MILLISECONDS);
        return catalog.awaitApplied(m.offset(), timeoutMs);
    }

    /** Records of the control topic not applied yet, as of the reader's last poll; -1 before it knows. */
    public long lag() {
        return lag;
    }

    /** The topic's settings: compacted, so it keeps each stream's last state. */
    public static Map<String, String> topicConfig() {
        return Map.of("cleanup.policy", "compact", "min.compaction.lag.ms", "3600000");
    }

    @Override
    public void close() {
        reader.close();
        producer.close(Duration.ofSeconds(5));
    }
}
