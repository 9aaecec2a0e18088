package io.railgun.node.http;

import io.railgun.engine.reply.StreamReply;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.node.cluster.ClusterReport;
import io.railgun.node.frontend.ApiException;
import io.railgun.node.frontend.FrontEnd;
import io.railgun.node.frontend.MetricInfo;
import io.railgun.node.frontend.PointRead;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The front-end calls the HTTP layer makes, as an interface: the node passes its {@link FrontEnd}
 * ({@link #of}), tests a fake, so every endpoint can be tested through real HTTP. Same contracts as
 * {@link FrontEnd}: thread-safe; refusals are {@code ApiException}s, thrown or completing futures.
 */
interface ApiBackend {
    boolean putStream(StreamDefinition definition);

    List<StreamDefinition> streams();

    StreamDefinition stream(String name);

    void deleteStream(String name);

    List<String> addStatement(String stream, String query, boolean backfill);

    List<MetricInfo> metrics(String stream);

    void removeMetric(String stream, String metric);

    CompletableFuture<StreamReply> send(StreamDefinition stream, byte[] row, int length);

    CompletableFuture<List<StreamReply>> sendBatch(StreamDefinition stream, List<byte[]> rows);

    CompletableFuture<PointRead> read(StreamDefinition stream, String metric, byte[] keyRow);

    /**
     * Whether {@link #send} to this stream returns without blocking (its topics' Kafka metadata is
     * known), so the HTTP layer may call it on an event loop; false when unsure.
     */
    default boolean sendsWithoutBlocking(String stream) {
        return false;
    }

    /**
     * {@code GET /v1/cluster}: the nodes and every task's copies, from the cluster topic.
     *
     * @throws io.railgun.node.frontend.ApiException 503 {@code cluster_unavailable} when this node does not follow the
     *                                               cluster topic
     */
    default ClusterReport cluster() {
        throw ApiException.unavailable("cluster_unavailable", "this node does not follow the cluster topic; ask another"
                + " node", 1);
    }

    static ApiBackend of(FrontEnd f) {
        return of(f, null);
    }

    /** The front-end's calls, and {@code cluster}'s report for {@link #cluster()} (null: not followed). */
    static ApiBackend of(FrontEnd f, Supplier<ClusterReport> cluster) {
        return new ApiBackend() {
            @Override
            public ClusterReport cluster() {
                return cluster == null ? ApiBackend.super.cluster() : cluster.get();
            }

            @Override
            public boolean putStream(StreamDefinition definition) {
                return f.putStream(definition);
            }

            @Override
            public List<StreamDefinition> streams() {
                return f.streams();
            }

            @Override
            public StreamDefinition stream(String name) {
                return f.stream(name);
            }

            @Override
            public void deleteStream(String name) {
                f.deleteStream(name);
            }

            @Override
            public List<String> addStatement(String stream, String query, boolean backfill) {
                return f.addStatement(stream, query, backfill);
            }

            @Override
            public List<MetricInfo> metrics(String stream) {
                return f.metrics(stream);
            }

            @Override
            public void removeMetric(String stream, String metric) {
                f.removeMetric(stream, metric);
            }

            @Override
            public CompletableFuture<StreamReply> send(StreamDefinition stream, byte[] row, int length) {
                return f.send(stream, row, length);
            }

            @Override
            public CompletableFuture<List<StreamReply>> sendBatch(StreamDefinition stream, List<byte[]> rows) {
                return f.sendBatch(stream, rows);
            }

            @Override
            public boolean sendsWithoutBlocking(String stream) {
                return f.sendsWithoutBlocking(stream);
            }

            @Override
            public CompletableFuture<PointRead> read(StreamDefinition stream, String metric, byte[] keyRow) {
                return f.read(stream, metric, keyRow);
            }
        };
    }
}
