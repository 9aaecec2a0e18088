package io.railgun.node.http;

import io.railgun.engine.reply.StreamReply;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.node.frontend.MetricInfo;
import io.railgun.node.frontend.PointRead;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A front-end for requests that must be refused before reaching it: any call is a fault (a 500),
 * except looking a stream up (a read, which the event endpoints do before parsing the body in one
 * pass): every name is a stream of string fields {@code id} and {@code card}.
 */
final class UnreachableBackend implements ApiBackend {

    private static UnsupportedOperationException reached(String call) {
        return new UnsupportedOperationException("the front-end was reached: " + call);
    }

    @Override
    public boolean putStream(StreamDefinition definition) {
        throw reached("putStream");
    }

    @Override
    public List<StreamDefinition> streams() {
        throw reached("streams");
    }

    @Override
    public StreamDefinition stream(String name) {
        return StreamJsonTest.parse(name, "{\"fields\": {\"id\": \"string\", \"card\": \"string\"}, \"eventId\": \"id\","
                + " \"partitioners\": [\"card\"]}");
    }

    @Override
    public void deleteStream(String name) {
        throw reached("deleteStream");
    }

    @Override
    public List<String> addStatement(String stream, String query, boolean backfill) {
        throw reached("addStatement");
    }

    @Override
    public List<MetricInfo> metrics(String stream) {
        throw reached("metrics");
    }

    @Override
    public void removeMetric(String stream, String metric) {
        throw reached("removeMetric");
    }

    @Override
    public CompletableFuture<StreamReply> send(StreamDefinition stream, byte[] row, int length) {
        throw reached("send");
    }

    @Override
    public CompletableFuture<List<StreamReply>> sendBatch(StreamDefinition stream, List<byte[]> rows) {
        throw reached("sendBatch");
    }

    @Override
    public CompletableFuture<PointRead> read(StreamDefinition stream, String metric, byte[] keyRow) {
        throw reached("read");
    }
}
