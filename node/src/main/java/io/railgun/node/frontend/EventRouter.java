package io.railgun.node.frontend;

import io.railgun.engine.event.EventRow;
import io.railgun.engine.local.LocalStream;
import io.railgun.engine.plan.MetricDefinition;
import io.railgun.engine.reply.StreamReply;
import io.railgun.engine.reply.TaskAnswer;
import io.railgun.engine.routing.Partitioning;
import io.railgun.engine.schema.Field;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.node.catalog.Catalog;
import io.railgun.node.catalog.StreamEntry;
import io.railgun.node.messaging.KafkaSettings;
import io.railgun.node.messaging.TaskInput;
import io.railgun.node.messaging.Topics;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.RecordTooLargeException;

/**
 * The front-end's event routing (paper §3): an event goes, as a binary row, to one topic per
 * partitioner of its stream, keyed and partitioned by that partitioner's value, and is answered
 * with the merged answers of the tasks it reached; a point read goes to its metric's task. Sizes
 * are checked against Kafka's record size before anything is sent. Thread-safe: called from the
 * HTTP layer's threads and the Kafka-native ingestion; answers arrive on processor units' threads
 * and the reply collector's.
 */
final class EventRouter {
    /** How long after an acknowledged event the producer is sure to hold the topics' metadata. */
    private static final long WARM_NANOS = 60_000_000_000L;

    private final Catalog catalog;
    private final KafkaProducer<byte[], byte[]> producer;
    private final ReplyCollector replies;
    private final byte[] replyTopic;
    private final long timeoutMs;
    /** Per stream generation, when an event to it was last acknowledged by Kafka (System.nanoTime). */
    private final ConcurrentHashMap<String, Long> lastAcked = new ConcurrentHashMap<>();

    EventRouter(Catalog catalog, KafkaProducer<byte[], byte[]> producer, ReplyCollector replies, byte[] replyTopic,
            long timeoutMs) {
        this.catalog = catalog;
        this.producer = producer;
        this.replies = replies;
        this.replyTopic = replyTopic;
        this.timeoutMs = timeoutMs;
    }

    /** A stream generation was deleted: forget that events to it were acknowledged. */
    void forget(String generation) {
        lastAcked.remove(generation);
    }


    /**
     * Sends one event, a binary row written with {@code stream}'s schema (or an older one) whose
     * event id and timestamp (when the stream has one) are not null, and completes with the merged
     * reply; or exceptionally with an {@link ApiException}: 413 when the event is larger than a
     * Kafka record may be (nothing is sent), 503 on timeout.
     */
    public CompletableFuture<StreamReply> send(StreamDefinition stream, byte[] row, int length) {
        StreamEntry entry = catalog.stream(stream.name());
        if (entry == null) {
            return CompletableFuture.failedFuture(FrontEnd.unknownStream(stream.name()));
        }
        byte[][] keys = keys(entry, row);
        ApiException tooLarge = checkSize(length, keys, "");
        return tooLarge != null ? CompletableFuture.failedFuture(tooLarge) : publish(entry, row, length, keys);
    }

    /**
     * Sends events in order; completes with their replies in the same order. The sizes of all are
     * checked before any is sent: one too large refuses the whole batch (413 naming its index).
     */
    public CompletableFuture<List<StreamReply>> sendBatch(StreamDefinition stream, List<byte[]> rows) {
        StreamEntry entry = catalog.stream(stream.name());
        if (entry == null) {
            return CompletableFuture.failedFuture(FrontEnd.unknownStream(stream.name()));
        }
        List<byte[][]> keys = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            byte[][] k = keys(entry, rows.get(i));
            ApiException tooLarge = checkSize(rows.get(i).length, k, "events[" + i + "]: ");
            if (tooLarge != null) {
                return CompletableFuture.failedFuture(tooLarge);
            }
            keys.add(k);
        }
        List<CompletableFuture<StreamReply>> each = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            each.add(publish(entry, rows.get(i), rows.get(i).length, keys.get(i)));
        }
        return CompletableFuture.allOf(each.toArray(CompletableFuture[]::new)).thenApply(v -> {
            List<StreamReply> list = new ArrayList<>(each.size());
            each.forEach(f -> list.add(f.join()));
            return list;
        });
    }

    /**
     * Whether {@link #send} returns without blocking for this stream: an event to it was acknowledged
     * less than a minute ago, so the producer holds its topics' metadata (its first send waits for
     * them, up to {@code max.block.ms}). Any thread.
     */
    public boolean sendsWithoutBlocking(String stream) {
        StreamEntry entry = catalog.stream(stream);
        if (entry == null) {
            return false;
        }
        Long at = lastAcked.get(entry.generation());
        return at != null && System.nanoTime() - at < WARM_NANOS;
    }

    private void noteAcked(String generation) {
        long now = System.nanoTime();
        Long at = lastAcked.get(generation);
        if (at == null || now - at > 1_000_000_000L) { // one write a second at most
            lastAcked.put(generation, now);
        }
    }

    /** The record key of the event for each partitioner of its stream, in the stream's order. */
    private static byte[][] keys(StreamEntry entry, byte[] row) {
        StreamDefinition def = entry.definition();
        EventRow r = new EventRow().wrap(row, 0);
        byte[][] keys = new byte[def.partitioners().size()][];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = Partitioning.keyBytes(r, def.schema().field(def.partitioners().get(i)));
        }
        return keys;
    }

    /** A 413 when a record of this event would pass Kafka's record size, else null. */
    private static ApiException checkSize(int rowLength, byte[][] keys, String path) {
        long largest = 0;
        for (byte[] key : keys) {
            largest = Math.max(largest, TaskInput.eventRecordBytes(rowLength, key));
        }
        if (largest <= KafkaSettings.MAX_RECORD_BYTES) {
            return null;
        }
        return new ApiException(413, "event_too_large", path + "the event takes " + largest + " bytes as a Kafka record, "
                + "over the limit of " + KafkaSettings.MAX_RECORD_BYTES + " bytes (Kafka's record size); shorten its "
                + "fields");
    }

    /** Writes the event to every partitioner topic of its stream and waits for the tasks' answers. */
    private CompletableFuture<StreamReply> publish(StreamEntry entry, byte[] row, int length, byte[][] keys) {
        StreamDefinition def = entry.definition();
        EventRow r = new EventRow().wrap(row, 0);
        EventMerge merge = new EventMerge(replies, timeoutMs, catalog, entry, keys.length,
                LocalStream.idText(r, def.schema().field(def.eventIdField())));
        long correlation = merge.register();
        byte[] value = TaskInput.event(row, length);
        long now = System.currentTimeMillis();
        for (int i = 0; i < keys.length; i++) {
            ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(Topics.input(entry, def.partitioners().get(i)),
                    Partitioning.partitionOfKey(keys[i], def.partitions()), now, keys[i], value,
                    TaskInput.replyHeaders(replyTopic, correlation));
            producer.send(record, (m, e) -> {
                if (e == null) {
                    noteAcked(entry.generation());
                } else {
                    merge.failWrite(e instanceof RecordTooLargeException
                            ? new ApiException(413, "event_too_large", "the event is larger than the Kafka broker takes ("
                                    + e.getMessage() + "); shorten its fields")
                            : ApiException.unavailable("kafka_unavailable",
                                    "the event could not be written to Kafka (" + e.getMessage() + "); retry it", 1));
                }
            });
        }
        return merge.future;
    }

    /**
     * Point read: {@code keyRow} holds the metric's GROUP BY fields (other fields null), written
     * with the stream's schema. It is answered by the metric's task in order with the events sent
     * before it.
     *
     * @throws ApiException 404 for an unknown metric; 409 while it is being backfilled
     */
    public CompletableFuture<PointRead> read(StreamDefinition stream, String metric, byte[] keyRow) {
        StreamEntry entry = catalog.stream(stream.name());
        if (entry == null) {
            return CompletableFuture.failedFuture(FrontEnd.unknownStream(stream.name()));
        }
        MetricDefinition d = entry.metrics().get(metric);
        if (d == null) {
            return CompletableFuture.failedFuture(ApiException.notFound("unknown_metric", "stream '" + stream.name()
                    + "' has no metric '" + metric + "'; GET /v1/streams/" + stream.name() + "/metrics lists them"));
        }
        PendingRequest<PointRead> pending = new PendingRequest<>(replies, "the point read's reply", timeoutMs) {
            @Override
            public void accept(int part, TaskAnswer answer) {
                // the first answer wins: a task's replicas answer too, with the same value
                switch (answer) {
                    case TaskAnswer.Read p -> succeed(new PointRead(metric, p.value(), p.hasStreamTime() ? p.streamTime() : null));
                    case TaskAnswer.Error e -> fail(new ApiException(e.status(), e.code(), e.message()));
                    case TaskAnswer.Event e -> fail(new IllegalStateException("an event's reply to a read"));
                }
            }
        };
        long correlation = pending.register();
        Field f = entry.definition().schema().field(d.partitioner());
        EventRow r = new EventRow().wrap(keyRow, 0);
        producer.send(new ProducerRecord<>(Topics.input(entry, d.partitioner()),
                Partitioning.partitionOf(r, f, entry.definition().partitions()), System.currentTimeMillis(),
                Partitioning.keyBytes(r, f), TaskInput.read(metric, keyRow, r.length()),
                TaskInput.replyHeaders(replyTopic, correlation)), (m, e) -> {
                    if (e != null) {
                        pending.fail(ApiException.unavailable("kafka_unavailable",
                                "the read could not be written to Kafka (" + e.getMessage() + "); retry it", 1));
                    }
                });
        return pending.future;
    }
}
