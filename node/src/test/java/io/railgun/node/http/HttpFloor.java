package io.railgun.node.http;

import io.railgun.engine.reply.StreamReply;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.node.NodeConfig;
import io.railgun.node.frontend.ApiException;
import io.railgun.node.frontend.MetricInfo;
import io.railgun.node.frontend.PointRead;
import io.railgun.node.ops.NodeMetrics;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The floor under the node's event path, for {@code bench/run e2e --node http-floor}: the node's own
 * HTTP layer (Netty, the event endpoints, JSON straight into the binary row, the reply's JSON) over a
 * backend with no Kafka and no engine, which answers every event with the same reply — at once, on
 * the event loop ({@code inline}), or from one other thread, as a processor unit does ({@code hop}:
 * the thread takes the waiting replies in batches and completes them, so the event loop is woken to
 * write them). What the node spends per event above this floor is its Kafka path and its engine.
 *
 * <p>Usage: {@code HttpFloor PORT inline|hop}; prints {@code serving http://...} when it listens.
 * Streams are kept in a map; metrics are not (a point read is refused).
 */
public final class HttpFloor implements ApiBackend {
    private static final StreamReply REPLY = new StreamReply("floor", false, false, Map.of("s", 1.0));

    private final Map<String, StreamDefinition> streams = new ConcurrentHashMap<>();
    private final LinkedBlockingQueue<CompletableFuture<StreamReply>> waiting;

    private HttpFloor(boolean hop) {
        this.waiting = hop ? new LinkedBlockingQueue<>() : null;
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2 || !(args[1].equals("inline") || args[1].equals("hop"))) {
            System.err.println("usage: HttpFloor PORT inline|hop");
            System.exit(2);
        }
        try (HttpApi api = start(Integer.parseInt(args[0]), args[1].equals("hop"))) {
            System.out.println("HTTP floor (" + args[1] + "), serving " + api.uri());
            Thread.sleep(Long.MAX_VALUE);
        }
    }

    /** Serves the floor on 127.0.0.1:{@code port} (0: a free one); with {@code hop}, starts its unit thread. */
    static HttpApi start(int port, boolean hop) throws java.io.IOException {
        HttpFloor floor = new HttpFloor(hop);
        if (hop) {
            Thread unit = new Thread(floor::completeInBatches, "floor-unit");
            unit.setDaemon(true);
            unit.start();
        }
        return HttpApi.start(NodeConfig.defaults().withHttp("127.0.0.1", port), floor, new NodeMetrics());
    }

    private void completeInBatches() {
        List<CompletableFuture<StreamReply>> batch = new ArrayList<>();
        try {
            while (true) {
                batch.add(waiting.take());
                waiting.drainTo(batch);
                for (CompletableFuture<StreamReply> reply : batch) {
                    reply.complete(REPLY);
                }
                batch.clear();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean sendsWithoutBlocking(String stream) {
        return true;
    }

    @Override
    public CompletableFuture<StreamReply> send(StreamDefinition stream, byte[] row, int length) {
        if (waiting == null) {
            return CompletableFuture.completedFuture(REPLY);
        }
        CompletableFuture<StreamReply> reply = new CompletableFuture<>();
        waiting.add(reply);
        return reply;
    }

    @Override
    public CompletableFuture<List<StreamReply>> sendBatch(StreamDefinition stream, List<byte[]> rows) {
        return send(stream, null, 0).thenApply(reply -> Collections.nCopies(rows.size(), reply));
    }

    @Override
    public boolean putStream(StreamDefinition definition) {
        return streams.put(definition.name(), definition) == null;
    }

    @Override
    public List<StreamDefinition> streams() {
        return List.copyOf(streams.values());
    }

    @Override
    public StreamDefinition stream(String name) {
        StreamDefinition d = streams.get(name);
        if (d == null) {
            throw ApiException.notFound("unknown_stream", "no stream " + name);
        }
        return d;
    }

    @Override
    public void deleteStream(String name) {
        streams.remove(name);
    }

    @Override
    public List<String> addStatement(String stream, String query, boolean backfill) {
        stream(stream);
        return List.of("s");
    }

    @Override
    public List<MetricInfo> metrics(String stream) {
        return List.of();
    }

    @Override
    public void removeMetric(String stream, String metric) {}

    @Override
    public CompletableFuture<PointRead> read(StreamDefinition stream, String metric, byte[] keyRow) {
        return CompletableFuture.failedFuture(ApiException.notFound("unknown_metric", "the HTTP floor keeps no metrics"));
    }
}
