package io.railgun.node.http;

import io.railgun.engine.schema.StreamDefinition;
import io.railgun.node.frontend.ApiException;
import io.railgun.node.frontend.MetricInfo;
import io.railgun.node.frontend.PointRead;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/** {@code /v1/streams/{stream}/metrics[/{name}]}: statements (SPEC §3.2) and point reads (§3.4). Thread-safe. */
final class MetricHandlers {
    private final ApiBackend backend;
    private final long timeoutMs;

    MetricHandlers(ApiBackend backend, long timeoutMs) {
        this.backend = backend;
        this.timeoutMs = timeoutMs;
    }

    /** 201 {@code {"metrics": [names]}}. */
    void add(ApiRequest req) throws IOException {
        GrowableBytes body = req.readBody();
        MetricJson.AddStatement add = MetricJson.parse(body.array(), body.length());
        StreamHandlers.checkExists(req.stream());
        List<String> names = backend.addStatement(req.stream(), add.query(), add.backfill());
        req.respondJson(201, g -> MetricJson.writeNames(g, names));
    }

    void list(ApiRequest req) throws IOException {
        StreamDefinition stream = StreamHandlers.lookup(backend, req.stream());
        List<MetricInfo> metrics = backend.metrics(stream.name());
        req.respondJson(200, g -> MetricJson.writeList(g, metrics));
    }

    /** 204. The name is resolved like a point read's (exact, else ignoring case). */
    void remove(ApiRequest req) throws IOException {
        StreamDefinition stream = StreamHandlers.lookup(backend, req.stream());
        MetricInfo metric = find(backend.metrics(stream.name()), stream.name(), req.metric());
        backend.removeMetric(stream.name(), metric.name());
        req.respondEmpty(204);
    }

    /** 200 {@code {"metric", "key", "value", "streamTime"}}. */
    void read(ApiRequest req) throws IOException {
        StreamDefinition stream = StreamHandlers.lookup(backend, req.stream());
        MetricInfo metric = find(backend.metrics(stream.name()), stream.name(), req.metric());
        PointReadKey key = PointReadKey.parse(stream, metric, req.rawQuery());
        PointRead read = Futures.await(backend.read(stream, metric.name(), key.row()), timeoutMs);
        req.respondJson(200, g -> ReplyJson.writePointRead(g, read, key));
    }

    /** The metric by exact name, else ignoring case. @throws ApiException 404 {@code unknown_metric} */
    static MetricInfo find(List<MetricInfo> metrics, String stream, String name) {
        MetricInfo loose = null;
        for (MetricInfo m : metrics) {
            if (m.name().equals(name)) {
                return m;
            }
            if (loose == null && m.name().equalsIgnoreCase(name)) {
                loose = m;
            }
        }
        if (loose != null) {
            return loose;
        }
        List<String> names = new ArrayList<>();
        metrics.forEach(m -> names.add(m.name()));
        String known = names.isEmpty() ? "it has no metrics yet (add some with POST /v1/streams/" + stream + "/metrics)"
                : Suggestions.didYouMean(name, names) + "its metrics are " + String.join(", ", names);
        throw ApiException.notFound("unknown_metric", "stream '" + stream + "' has no metric '" + name + "'; " + known);
    }
}
