package io.railgun.node.ddl;

import io.railgun.node.catalog.Catalog;
import io.railgun.node.catalog.ControlLog;
import io.railgun.node.catalog.DdlCodec;
import io.railgun.node.catalog.DdlCodec.Marker;
import io.railgun.node.catalog.DdlLedger.Pending;
import io.railgun.node.catalog.StreamEntry;
import io.railgun.node.frontend.ApiException;
import io.railgun.node.messaging.KafkaSettings;
import io.railgun.node.messaging.Topics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Writes DDL changes so that none stays half done ({@link io.railgun.node.catalog.DdlLedger} has
 * the protocol): the stream's record with the change's markers, the markers into every partition
 * of the partitioner's topic, then the completion; and finishes a pending change of another (dead)
 * writer under a claim. Refusals are {@link ApiException}s (503 with Retry-After).
 *
 * <p>Thread-safe; the front-end calls it under its DDL lock, the {@link DdlReconciler} from its
 * own thread: two calls for one stream on one node may overlap, the ledger's claims keep one writer.
 */
public final class DdlWriter implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(DdlWriter.class.getName());

    /** Fault injection for tests: called before each marker is sent; a throw leaves the change half done. */
    @FunctionalInterface
    public interface Faults {
        Faults NONE = (topic, partition) -> {};

        void beforeMarker(String topic, int partition);
    }

    /** Tests only: where a marker write fails on purpose. {@link Faults#NONE} in production. */
    public static volatile Faults faults = Faults.NONE;

    private final Catalog catalog;
    private final ControlLog control;
    private final KafkaProducer<byte[], byte[]> producer;
    private final String nodeId;
    private final long timeoutMs;
    private final long graceMs;
    private final LongSupplier clockMs;

    /**
     * @param graceMs how old a pending change of another writer (or of this node's own current run)
     *                must be before this node may finish it: longer than a writer may take to deliver
     *                a marker (its wait for the control record, plus its producer's delivery timeout)
     */
    public DdlWriter(Catalog catalog, ControlLog control, KafkaSettings kafka, String nodeId, long timeoutMs, long graceMs,
            LongSupplier clockMs) {
        this.catalog = catalog;
        this.control = control;
        this.producer = new KafkaProducer<>(kafka.producer("ddl"));
        this.nodeId = nodeId;
        this.timeoutMs = timeoutMs;
        this.graceMs = graceMs;
        this.clockMs = clockMs;
    }

    /**
     * Publishes a change of {@code stream} ({@code value}: its new record, {@code CatalogCodec}) with
     * its markers, writes them, then the completion.
     *
     * @return false when another node's change to the stream came first (nothing was written)
     * @throws ApiException 503 {@code change_pending} while the stream's previous change is still being
     *                      delivered by another node; 503 when Kafka fails (the change is then pending, and
     *                      finished by a node later)
     */
    public boolean change(StreamEntry stream, byte[] value, List<Marker> markers) {
        requireSettled(stream.name());
        byte[] record = markers.isEmpty() ? value
                : DdlCodec.withMarkers(value, new DdlCodec.Markers(nodeId, clockMs.getAsLong(), markers));
        if (!publishStream(stream.name(), record)) {
            return false;
        }
        if (!markers.isEmpty()) {
            writeMarkers(stream, markers);
            complete(stream.name(), stream.generation(), stream.version());
        }
        return true;
    }

    /**
     * Makes sure the stream's last change is settled before another is published: finishes it when
     * this node may, else refuses.
     *
     * @throws ApiException 503 {@code change_pending}, with the seconds until this node may finish it
     */
    public void requireSettled(String stream) {
        Pending p = catalog.ddl().pending(stream);
        if (p == null) {
            return;
        }
        long waitMs = p.atMs() + graceMs - clockMs.getAsLong();
        if (waitMs <= 0 && finish(p)) {
            return;
        }
        if (catalog.ddl().pending(stream) == null) {
            return; // finished by another node meanwhile
        }
        throw ApiException.unavailable("change_pending", "the previous change to stream '" + stream + "' (version "
                + p.version() + ") is still being delivered to its tasks by node '" + p.owner() + "'; retry later (a node"
                + " finishes it within " + Math.max(1, graceMs / 1000) + " s if its writer died)",
                (int) Math.max(1, Math.min(3600, (Math.max(waitMs, 0) + 999) / 1000)));
    }

    /** Whether this node may finish {@code p} now: its grace period is over, or {@code atStart} and it owns it. */
    boolean mayFinish(Pending p, boolean atStart) {
        return atStart && p.owner().equals(nodeId) || clockMs.getAsLong() - p.atMs() >= graceMs;
    }

    /**
     * Claims a pending change and writes its markers and completion.
     *
     * @return true when this node finished it; false when another node's claim or completion came first
     *         (or the stream changed meanwhile)
     */
    boolean finish(Pending p) {
        StreamEntry stream = catalog.stream(p.stream());
        if (stream == null || !stream.generation().equals(p.generation()) || stream.version() != p.version()) {
            return false;
        }
        boolean claimed;
        try {
            claimed = control.publishLedger(p.stream(), DdlCodec.claimed(p.generation(), p.version(), nodeId,
                    clockMs.getAsLong(), p.attempt() + 1), timeoutMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiException.unavailable("interrupted", "the node is shutting down", 1);
        } catch (TimeoutException | ExecutionException e) {
            throw ApiException.unavailable("control_unavailable", "the control topic could not be written in time ("
                    + e.getMessage() + "); retry the request", 1);
        }
        if (!claimed) {
            return false;
        }
        LOG.log(System.Logger.Level.WARNING, "stream ''{0}'': finishing its change to version {1}, left half done by node"
                + " ''{2}'': writing its DDL markers", p.stream(), p.version(), p.owner());
        writeMarkers(stream, p.markers());
        complete(p.stream(), p.generation(), p.version());
        LOG.log(System.Logger.Level.INFO, "stream ''{0}'': change to version {1} finished", p.stream(), p.version());
        return true;
    }

    private void writeMarkers(StreamEntry stream, List<Marker> markers) {
        List<CompletableFuture<?>> acks = new ArrayList<>();
        for (Marker m : markers) {
            String topic = Topics.input(stream, m.partitioner());
            for (int p = 0; p < stream.definition().partitions(); p++) {
                faults.beforeMarker(topic, p);
                CompletableFuture<Object> ack = new CompletableFuture<>();
                producer.send(new ProducerRecord<>(topic, p, null, m.value()), (meta, e) -> {
                    if (e != null) {
                        ack.completeExceptionally(e);
                    } else {
                        ack.complete(meta);
                    }
                });
                acks.add(ack);
            }
        }
        try {
            CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new)).get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiException.unavailable("interrupted", "the node is shutting down", 1);
        } catch (ExecutionException | TimeoutException e) {
            throw ApiException.unavailable("kafka_unavailable", "the change is recorded but could not be delivered to every"
                    + " task (" + e.getMessage() + "); a node finishes it later", 1);
        }
    }

    /** The completion; when it cannot be written the change stays pending and is finished again later (idempotent). */
    private void complete(String stream, String generation, long version) {
        try {
            control.publishLedger(stream, DdlCodec.done(generation, version, nodeId, clockMs.getAsLong()), timeoutMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (TimeoutException | ExecutionException e) {
            LOG.log(System.Logger.Level.WARNING, "stream ''{0}'': the completion of version {1} was not written ({2}); the"
                    + " change is finished again later", stream, version, e.getMessage());
        }
    }

    private boolean publishStream(String stream, byte[] value) {
        try {
            return control.publish(stream, value, timeoutMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiException.unavailable("interrupted", "the node is shutting down; retry on another node", 1);
        } catch (TimeoutException | ExecutionException e) {
            throw ApiException.unavailable("control_unavailable", "the change could not be written to the control topic"
                    + " in time (" + e.getMessage() + "); retry the request", 1);
        }
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
    }
}
