package io.railgun.node.frontend;

import io.railgun.engine.local.StreamReply;
import io.railgun.engine.schema.StreamDefinition;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The node's front-end (paper §3): what the HTTP API (and Kafka-native ingestion) calls. DDL is
 * validated against the catalog and published on the control topic; events are published to every
 * partitioner topic of their stream and answered with the merged replies of the tasks.
 *
 * <p>Every method is thread-safe. Refusals are {@link ApiException}s (thrown, or completing the
 * future exceptionally).
 */
public final class FrontEnd {

    /**
     * Creates a stream, or changes an existing one's schema compatibly (new fields appended).
     *
     * @return true when the stream was created, false when an existing stream was changed or left as it was
     * @throws ApiException 409 on an incompatible change (a field's type changed or removed, other
     *                      attributes changed)
     */
    public boolean putStream(StreamDefinition definition) {
        throw new UnsupportedOperationException("not yet");
    }

    /** The streams, by name. */
    public List<StreamDefinition> streams() {
        throw new UnsupportedOperationException("not yet");
    }

    /** @throws ApiException 404 when there is no such stream */
    public StreamDefinition stream(String name) {
        throw new UnsupportedOperationException("not yet");
    }

    /** @throws ApiException 404 when there is no such stream */
    public void deleteStream(String name) {
        throw new UnsupportedOperationException("not yet");
    }

    /**
     * Adds a statement's metrics.
     *
     * @return the new metric names in SELECT order
     * @throws ApiException 400 with position and hint on a syntax or semantic error, 404 for an unknown stream
     */
    public List<String> addStatement(String stream, String query, boolean backfill) {
        throw new UnsupportedOperationException("not yet");
    }

    /** The stream's metrics in creation order; @throws ApiException 404 */
    public List<MetricInfo> metrics(String stream) {
        throw new UnsupportedOperationException("not yet");
    }

    /** @throws ApiException 404 for an unknown stream or metric */
    public void removeMetric(String stream, String metric) {
        throw new UnsupportedOperationException("not yet");
    }

    /**
     * Sends one event, a binary row written with {@code stream}'s schema (or an older one) whose
     * event id and timestamp (when the stream has one) are not null, and completes with the merged
     * reply; or exceptionally with an {@link ApiException} (503 on timeout).
     */
    public CompletableFuture<StreamReply> send(StreamDefinition stream, byte[] row, int length) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Sends events in order; completes with their replies in the same order. */
    public CompletableFuture<List<StreamReply>> sendBatch(StreamDefinition stream, List<byte[]> rows) {
        throw new UnsupportedOperationException("not yet");
    }

    /**
     * Point read: {@code keyRow} holds the metric's GROUP BY fields (other fields null), written
     * with the stream's schema.
     *
     * @throws ApiException 404 for an unknown metric; 409 while it is being backfilled
     */
    public CompletableFuture<PointRead> read(StreamDefinition stream, String metric, byte[] keyRow) {
        throw new UnsupportedOperationException("not yet");
    }
}
