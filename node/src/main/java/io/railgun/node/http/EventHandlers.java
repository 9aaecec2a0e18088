package io.railgun.node.http;

import com.fasterxml.jackson.core.JsonGenerator;
import io.railgun.engine.reply.StreamReply;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.node.ops.NodeMetrics;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * {@code POST /v1/streams/{stream}/events} and {@code .../events:batch} (SPEC §3.3): the hot path.
 * Each request borrows an {@link IngestScratch}: body read into its buffer, checked, converted to a
 * row by its codec, sent, the reply written into its output buffer. Thread-safe.
 */
final class EventHandlers {
    private final ApiBackend backend;
    private final NodeMetrics metrics;
    private final long timeoutMs;
    private final int maxBatchEvents;
    private final IngestScratch.Pool pool = new IngestScratch.Pool(256);

    EventHandlers(ApiBackend backend, NodeMetrics metrics, long timeoutMs, int maxBatchEvents) {
        this.backend = backend;
        this.metrics = metrics;
        this.timeoutMs = timeoutMs;
        this.maxBatchEvents = maxBatchEvents;
    }

    void send(ApiRequest req) throws IOException {
        IngestScratch s = pool.acquire();
        CompletableFuture<StreamReply> pending = null;
        try {
            GrowableBytes body = req.readBody(s.body);
            StreamDefinition stream = StreamHandlers.lookup(backend, req.stream());
            int length = s.events.readEvent(stream, body.array(), body.length());
            metrics.eventsIn(stream.name(), 1);
            pending = backend.send(stream, s.events.writer().buffer(), length);
            StreamReply reply = Futures.await(pending, timeoutMs);
            try (JsonGenerator g = Json.FACTORY.createGenerator(s.out.reset())) {
                ReplyJson.writeReply(g, ReplyJson.numericEventId(stream), reply);
            }
            req.respond(200, ApiRequest.JSON_TYPE, s.out);
            metrics.repliesOut(stream.name(), 1);
        } finally {
            pool.release(s, pending);
        }
    }

    /**
     * {@code POST .../events} without blocking, for the event loop: parses, sends, and answers from
     * the thread that completes the reply (a processor unit's, usually), then runs {@code done}.
     * Refusals found before sending are thrown, as by {@link #send}; {@code done} then does not run.
     * Call only when the backend {@linkplain ApiBackend#sendsWithoutBlocking sends without blocking}.
     */
    void sendInline(ApiRequest req, StreamDefinition stream, Runnable done) {
        IngestScratch s = pool.acquire();
        CompletableFuture<StreamReply> pending;
        try {
            GrowableBytes body = req.readBody(s.body);
            int length = s.events.readEvent(stream, body.array(), body.length());
            metrics.eventsIn(stream.name(), 1);
            pending = backend.send(stream, s.events.writer().buffer(), length);
        } catch (RuntimeException e) {
            pool.release(s, null);
            throw e;
        }
        answerWhenDone(req, stream, s, pending, ReplyJson::writeReply, reply -> 1, done);
    }

    /**
     * {@code POST .../events:batch} without blocking, for the event loop: as {@link #sendInline},
     * the replies written in order by the thread that completes the last of them.
     */
    void sendBatchInline(ApiRequest req, StreamDefinition stream, Runnable done) {
        IngestScratch s = pool.acquire();
        CompletableFuture<List<StreamReply>> pending;
        try {
            GrowableBytes body = req.readBody(s.body);
            List<byte[]> rows = s.events.readBatch(stream, body.array(), body.length(), maxBatchEvents);
            if (!rows.isEmpty()) {
                metrics.eventsIn(stream.name(), rows.size());
            }
            pending = rows.isEmpty() ? CompletableFuture.completedFuture(List.of()) : backend.sendBatch(stream, rows);
        } catch (RuntimeException e) {
            pool.release(s, null);
            throw e;
        }
        answerWhenDone(req, stream, s, pending, ReplyJson::writeReplies, List::size, done);
    }

    /** How a completed send is written: one reply, or a batch's array of them. */
    @FunctionalInterface
    private interface ReplyWriter<T> {
        void write(JsonGenerator g, boolean numericId, T replies) throws IOException;
    }

    /**
     * When {@code pending} completes (on whichever thread completes it): answers the request with its
     * replies, or the failure, then returns the scratch and runs {@code done}.
     */
    private <T> void answerWhenDone(ApiRequest req, StreamDefinition stream, IngestScratch s, CompletableFuture<T> pending,
            ReplyWriter<T> writer, java.util.function.ToIntFunction<T> count, Runnable done) {
        boolean numericId = ReplyJson.numericEventId(stream);
        pending.whenComplete((replies, failure) -> {
            try {
                if (failure == null) {
                    try (JsonGenerator g = Json.FACTORY.createGenerator(s.out.reset())) {
                        writer.write(g, numericId, replies);
                    }
                    req.respond(200, ApiRequest.JSON_TYPE, s.out);
                    metrics.repliesOut(stream.name(), count.applyAsInt(replies));
                } else {
                    ApiDispatcher.failed(req, failure);
                }
            } catch (IOException e) {
                // the client went away: nothing more can be sent
            } catch (RuntimeException e) {
                ApiDispatcher.failed(req, e);
            } finally {
                pool.release(s, null);
                done.run();
            }
        });
    }

    void sendBatch(ApiRequest req) throws IOException {
        IngestScratch s = pool.acquire();
        try {
            GrowableBytes body = req.readBody(s.body);
            StreamDefinition stream = StreamHandlers.lookup(backend, req.stream());
            List<byte[]> rows = s.events.readBatch(stream, body.array(), body.length(), maxBatchEvents);
            List<StreamReply> replies = List.of();
            if (!rows.isEmpty()) {
                metrics.eventsIn(stream.name(), rows.size());
                replies = Futures.await(backend.sendBatch(stream, rows), timeoutMs);
            }
            try (JsonGenerator g = Json.FACTORY.createGenerator(s.out.reset())) {
                ReplyJson.writeReplies(g, ReplyJson.numericEventId(stream), replies);
            }
            req.respond(200, ApiRequest.JSON_TYPE, s.out);
            metrics.repliesOut(stream.name(), replies.size());
        } finally {
            pool.release(s, null); // the rows sent are copies: nothing of the scratch is still in use
        }
    }
}
