package io.railgun.node.http;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.reply.StreamReply;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.node.frontend.ApiException;
import io.railgun.node.frontend.MetricInfo;
import io.railgun.node.frontend.PointRead;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/** A front-end stand-in: streams and metrics in maps, replies computed by functions the test sets. */
final class FakeBackend implements ApiBackend {
    final Map<String, StreamDefinition> streams = new LinkedHashMap<>();
    final Map<String, List<MetricInfo>> metrics = new LinkedHashMap<>();
    final List<byte[]> sentRows = new CopyOnWriteArrayList<>();
    final List<String> calls = new CopyOnWriteArrayList<>();
    volatile Function<EventRow, CompletableFuture<StreamReply>> onSend =
            row -> CompletableFuture.completedFuture(new StreamReply("?", false, false, Map.of()));
    volatile Function<byte[], CompletableFuture<PointRead>> onRead =
            key -> CompletableFuture.completedFuture(new PointRead("?", null, null));
    volatile RuntimeException failNext;

    @Override
    public synchronized boolean putStream(StreamDefinition definition) {
        calls.add("putStream " + definition.name());
        return streams.put(definition.name(), definition) == null;
    }

    @Override
    public synchronized List<StreamDefinition> streams() {
        calls.add("streams");
        maybeFail();
        return new ArrayList<>(streams.values());
    }

    @Override
    public synchronized StreamDefinition stream(String name) {
        calls.add("stream " + name);
        maybeFail();
        StreamDefinition d = streams.get(name);
        if (d == null) {
            throw ApiException.notFound("unknown_stream", "no stream " + name);
        }
        return d;
    }

    @Override
    public synchronized void deleteStream(String name) {
        calls.add("deleteStream " + name);
        if (streams.remove(name) == null) {
            throw ApiException.notFound("unknown_stream", "no stream " + name);
        }
    }

    @Override
    public synchronized List<String> addStatement(String stream, String query, boolean backfill) {
        calls.add("addStatement " + stream + " " + query + " " + backfill);
        if (query.contains("BAD")) {
            throw ApiException.badRequest("query_syntax", "at 1:8: unexpected BAD; write an aggregate");
        }
        List<String> names = List.of("n", "total");
        List<MetricInfo> list = metrics.computeIfAbsent(stream, s -> new ArrayList<>());
        for (String n : names) {
            list.add(new MetricInfo(n, query, "card", List.of("card")));
        }
        return names;
    }

    @Override
    public synchronized List<MetricInfo> metrics(String stream) {
        calls.add("metrics " + stream);
        return new ArrayList<>(metrics.getOrDefault(stream, List.of()));
    }

    @Override
    public synchronized void removeMetric(String stream, String metric) {
        calls.add("removeMetric " + stream + " " + metric);
        metrics.getOrDefault(stream, new ArrayList<>()).removeIf(m -> m.name().equals(metric));
    }

    @Override
    public CompletableFuture<StreamReply> send(StreamDefinition stream, byte[] row, int length) {
        calls.add("send " + stream.name());
        sentRows.add(Arrays.copyOf(row, length));
        // the reply function reads the caller's buffer itself, maybe later: a buffer reused too early shows
        return onSend.apply(new EventRow().wrap(row, 0));
    }

    @Override
    public CompletableFuture<List<StreamReply>> sendBatch(StreamDefinition stream, List<byte[]> rows) {
        calls.add("sendBatch " + stream.name() + " " + rows.size());
        List<CompletableFuture<StreamReply>> replies = new ArrayList<>();
        for (byte[] r : rows) {
            sentRows.add(r);
            replies.add(onSend.apply(new EventRow().wrap(r, 0)));
        }
        return CompletableFuture.allOf(replies.toArray(CompletableFuture[]::new))
                .thenApply(v -> replies.stream().map(CompletableFuture::join).toList());
    }

    @Override
    public CompletableFuture<PointRead> read(StreamDefinition stream, String metric, byte[] keyRow) {
        calls.add("read " + stream.name() + " " + metric);
        return onRead.apply(keyRow);
    }

    private void maybeFail() {
        RuntimeException e = failNext;
        if (e != null) {
            failNext = null;
            throw e;
        }
    }
}
