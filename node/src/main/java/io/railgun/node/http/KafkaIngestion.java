package io.railgun.node.http;

import com.fasterxml.jackson.core.JsonGenerator;
import io.railgun.engine.event.EventTime;
import io.railgun.engine.reply.StreamReply;
import io.railgun.node.agent.Agent;
import io.railgun.node.agent.AgentRunner;
import io.railgun.node.catalog.Catalog;
import io.railgun.node.catalog.StreamEntry;
import io.railgun.node.frontend.ApiException;
import io.railgun.node.frontend.FrontEnd;
import io.railgun.node.messaging.KafkaSettings;
import io.railgun.node.messaging.Topics;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;

/**
 * Kafka-native ingestion (SPEC §3.3, docs/http-api.md § Kafka-native ingestion): clients that speak
 * Kafka produce one JSON event per record to {@code railgun.ingest.<stream>} and read the replies
 * from {@code railgun.ingest.<stream>.replies}, or from the topic named by their record's
 * {@value #REPLY_TO} header. Each event is handled as {@code POST /v1/streams/{stream}/events}
 * would handle it, and the reply is the same JSON (or the same {@code {"error": ...}}), keyed by
 * the input record's key, with the input record's headers copied (put a correlation id there).
 *
 * <p>The nodes' ingestion consumers share the group {@code railgun-ingest}. A poll's events are
 * sent together, their replies written, then the offsets committed: after a crash a record may be
 * handled again, and is then answered as a {@code duplicate}.
 */
public final class KafkaIngestion implements AutoCloseable {
    /** The header naming the topic to reply to. */
    public static final String REPLY_TO = "railgun.reply-to";
    private static final System.Logger LOG = System.getLogger(KafkaIngestion.class.getName());

    private final Catalog catalog;
    private final FrontEnd frontEnd;
    private final long timeoutMs;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final KafkaProducer<byte[], byte[]> producer;
    private final EventJson events = new EventJson();
    private final AgentRunner runner;
    private final AtomicLong refusedTimestamps = new AtomicLong();
    private long seenChanges = -1;
    private Set<String> subscribed = Set.of();

    public KafkaIngestion(Catalog catalog, FrontEnd frontEnd, KafkaSettings kafka, long requestTimeoutMs) {
        this.catalog = catalog;
        this.frontEnd = frontEnd;
        this.timeoutMs = requestTimeoutMs;
        this.consumer = new KafkaConsumer<>(kafka.ingestConsumer());
        Map<String, Object> props = kafka.producer("ingest");
        // a reply-to topic that does not exist must not hold up ingestion for a minute
        props.put(org.apache.kafka.clients.producer.ProducerConfig.MAX_BLOCK_MS_CONFIG, 5_000);
        this.producer = new KafkaProducer<>(props);
        this.runner = new AgentRunner(new Poller(), Duration.ofMillis(100), Duration.ofSeconds(10), true).start();
    }

    /** The topic a stream's Kafka clients produce events to. */
    public static String inputTopic(String stream) {
        return Topics.ingest(stream);
    }

    /** The topic replies go to when a record names none. */
    public static String replyTopic(String stream) {
        return Topics.ingest(stream) + ".replies";
    }

    /** The agent that polls the ingest topics, sends a poll's events together and answers them. */
    private final class Poller implements Agent {
        @Override
        public String roleName() {
            return "railgun-ingest";
        }

        @Override
        public int doWork() {
            if (catalog.changes() != seenChanges) {
                resubscribe();
            }
            if (subscribed.isEmpty()) {
                return 0; // the runner sleeps
            }
            ConsumerRecords<byte[], byte[]> records = consumer.poll(Duration.ofMillis(100));
            if (!records.isEmpty()) {
                handle(records);
                consumer.commitSync();
            }
            return Math.max(1, records.count()); // the poll waited already
        }

        @Override
        public void wake() {
            consumer.wakeup();
        }

        @Override
        public void onClose() {
            // short: its offsets are committed after each poll, and a lost commit only re-answers
            // records as duplicates
            consumer.close(org.apache.kafka.clients.consumer.CloseOptions.groupMembershipOperation(
                    org.apache.kafka.clients.consumer.CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
                    .withTimeout(Duration.ofSeconds(1)));
            producer.close(Duration.ofSeconds(5));
        }
    }

    private void resubscribe() {
        seenChanges = catalog.changes();
        Set<String> topics = new HashSet<>();
        for (StreamEntry s : catalog.streams()) {
            topics.add(inputTopic(s.name()));
        }
        if (!topics.equals(subscribed)) {
            subscribed = topics;
            if (topics.isEmpty()) {
                consumer.unsubscribe();
            } else {
                consumer.subscribe(topics);
            }
        }
    }

    private void handle(ConsumerRecords<byte[], byte[]> records) {
        List<ConsumerRecord<byte[], byte[]>> inputs = new ArrayList<>();
        List<CompletableFuture<byte[]>> replies = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> r : records) {
            inputs.add(r);
            replies.add(send(r));
        }
        for (int i = 0; i < inputs.size(); i++) {
            ConsumerRecord<byte[], byte[]> in = inputs.get(i);
            byte[] reply;
            try {
                reply = replies.get(i).get(timeoutMs + 1_000, TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                reply = error(ApiException.unavailable("timeout", "no reply in time; produce the event again (an event"
                        + " already counted is answered as a duplicate)", 1));
            }
            Header replyTo = in.headers().lastHeader(REPLY_TO);
            String topic = replyTo != null ? new String(replyTo.value(), StandardCharsets.UTF_8)
                    : replyTopic(streamOf(in.topic()));
            producer.send(new ProducerRecord<>(topic, null, null, in.key(), reply, new RecordHeaders(in.headers().toArray())));
        }
        producer.flush();
    }

    private CompletableFuture<byte[]> send(ConsumerRecord<byte[], byte[]> r) {
        try {
            StreamEntry s = catalog.stream(streamOf(r.topic()));
            if (s == null) {
                throw ApiException.notFound("unknown_stream", "the stream of topic " + r.topic() + " was deleted");
            }
            byte[] body = r.value() == null ? new byte[0] : r.value();
            int length = events.readEvent(s.definition(), body, body.length);
            byte[] row = Arrays.copyOf(events.writer().buffer(), length);
            boolean numericId = ReplyJson.numericEventId(s.definition());
            return frontEnd.send(s.definition(), row, length).handle((reply, e) -> e == null ? json(numericId, reply)
                    : error(e instanceof CompletionException && e.getCause() != null ? e.getCause() : e));
        } catch (ApiException e) {
            if (e.code().equals(EventTime.ERROR_CODE)) {
                refuseTimestamp(r, e);
            }
            return CompletableFuture.completedFuture(error(e));
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(error(e));
        }
    }

    /**
     * A record whose event time is outside {@link EventTime}'s range is skipped: never sent to a
     * task, so never counted; it is answered with the 400 error, counted in
     * {@link #refusedTimestamps()} and logged (the first, then every 1,000th, so a bad producer
     * cannot flood the log).
     */
    private void refuseTimestamp(ConsumerRecord<byte[], byte[]> r, ApiException e) {
        long n = refusedTimestamps.incrementAndGet();
        if (n == 1 || n % 1_000 == 0) {
            LOG.log(System.Logger.Level.WARNING, "skipped record {0}-{1}@{2} ({3} so far): {4}", r.topic(), r.partition(),
                    r.offset(), n, e.getMessage());
        }
    }

    /** Records skipped because their event time is outside the accepted range (since this node started). */
    public long refusedTimestamps() {
        return refusedTimestamps.get();
    }

    private static String streamOf(String ingestTopic) {
        return ingestTopic.substring(Topics.ingest("").length());
    }

    private static byte[] json(boolean numericId, StreamReply reply) {
        return write(g -> ReplyJson.writeReply(g, numericId, reply));
    }

    private static byte[] error(Throwable t) {
        ApiException e = t instanceof ApiException a ? a
                : new ApiException(500, "internal", "the event could not be handled: " + t);
        return write(g -> ReplyJson.writeError(g, e));
    }

    private interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    private static byte[] write(Body body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        try (JsonGenerator g = Json.FACTORY.createGenerator(out)) {
            body.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    @Override
    public void close() {
        runner.close();
    }
}
