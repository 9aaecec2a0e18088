package io.railgun.node.frontend;

import io.railgun.engine.reply.TaskAnswer;
import io.railgun.engine.reply.StreamReply;
import io.railgun.engine.plan.MetricDefinition;
import io.railgun.engine.plan.StatementBinder;
import io.railgun.engine.query.QueryException;
import io.railgun.engine.query.QueryParser;
import io.railgun.engine.schema.Field;
import io.railgun.engine.schema.Schema;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.node.catalog.Catalog;
import io.railgun.node.catalog.CatalogCodec;
import io.railgun.node.catalog.ControlLog;
import io.railgun.node.catalog.DdlCodec;
import io.railgun.node.catalog.StatementEntry;
import io.railgun.node.catalog.StreamEntry;
import io.railgun.node.ddl.DdlWriter;
import io.railgun.node.messaging.KafkaSettings;
import io.railgun.node.messaging.TaskInput;
import io.railgun.node.messaging.Topics;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * The node's front-end (paper §3): what the HTTP API (and Kafka-native ingestion) calls. DDL is
 * validated against the catalog, published on the control topic, then marked in the input
 * partitions it concerns, so every task applies it at one point of its input ({@link DdlWriter}:
 * a change left half done by a node that died is finished by another; this class: stream and
 * metric admin, with {@link StreamCompatibility} deciding what a stream may become and
 * {@link StreamTopics} creating and deleting its topics); events and point reads go through its
 * {@link EventRouter}, to every partitioner topic of their stream, and are answered with the merged
 * replies of the tasks.
 *
 * <p>Every method is thread-safe; DDL is serialised on this node. Refusals are
 * {@link ApiException}s (thrown, or completing the future exceptionally).
 */
public final class FrontEnd implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(FrontEnd.class.getName());
    private static final SecureRandom RANDOM = new SecureRandom();

    private final Catalog catalog;
    private final ControlLog control;
    private final Admin admin;
    private final StreamTopics topics;
    private final long defaultInputRetentionMs;
    private final long timeoutMs;
    private final KafkaProducer<byte[], byte[]> producer;
    private final ReplyCollector replies;
    private final byte[] replyTopic;
    private final Object ddl = new Object();
    private final EventRouter events;
    private final DdlWriter ddlWriter;

    public FrontEnd(Catalog catalog, ControlLog control, Admin admin, KafkaSettings kafka, String replyTopic,
            short topicReplication, long requestTimeoutMs, DdlWriter ddlWriter, long defaultInputRetentionMs) {
        this.catalog = catalog;
        this.ddlWriter = ddlWriter;
        this.defaultInputRetentionMs = defaultInputRetentionMs;
        this.control = control;
        this.admin = admin;
        this.topics = new StreamTopics(admin, topicReplication, requestTimeoutMs);
        this.timeoutMs = requestTimeoutMs;
        this.producer = new KafkaProducer<>(kafka.producer("frontend"));
        this.replies = new ReplyCollector(kafka, replyTopic, requestTimeoutMs);
        this.replyTopic = replyTopic.getBytes(StandardCharsets.UTF_8);
        this.events = new EventRouter(catalog, producer, replies, this.replyTopic, requestTimeoutMs);
    }

    // ---------------------------------------------------------------- streams

    /**
     * Creates a stream, or changes an existing one's schema compatibly (new fields appended) or its
     * input retention ({@link InputRetention}: a definition without one leaves it as it is).
     *
     * @return true when the stream was created, false when an existing stream was changed or left as it was
     * @throws ApiException 409 on an incompatible change (a field's type changed or removed, other
     *                      attributes changed), or for a new stream whose topics Kafka would confuse with
     *                      existing ones ({@link TopicNameClash})
     */
    public boolean putStream(StreamDefinition definition) {
        synchronized (ddl) {
            for (int attempt = 0; attempt < 3; attempt++) {
                StreamEntry current = catalog.stream(definition.name());
                if (current == null) {
                    StreamDefinition resolved = InputRetention.resolve(definition, defaultInputRetentionMs);
                    StreamEntry created = new StreamEntry(resolved, newGeneration(), 1, List.of());
                    TopicNameClash.refuse(created, catalog.streams(), admin, timeoutMs);
                    topics.create(created);
                    if (publish(created.name(), CatalogCodec.encode(created, 0))) {
                        List<String> inputs = new ArrayList<>();
                        definition.partitioners().forEach(p -> inputs.add(Topics.input(created, p)));
                        LOG.log(System.Logger.Level.INFO, "stream ''{0}'' created: topics {1}, {2} partition(s) each",
                                definition.name(), inputs, definition.partitions());
                        return true;
                    }
                    continue;
                }
                StreamDefinition old = current.definition();
                StreamCompatibility.checkSameAttributes(old, definition);
                if (!old.schema().isEvolvedInto(definition.schema())) {
                    throw ApiException.conflict("incompatible_schema_change", StreamCompatibility.incompatibility(old.schema(), definition.schema()));
                }
                long inputRetention = definition.inputRetentionMs();
                boolean retentionChanged = inputRetention != StreamDefinition.INPUT_RETENTION_NODE_DEFAULT
                        && inputRetention != old.inputRetentionMs();
                if (definition.schema().size() == old.schema().size() && !retentionChanged) {
                    return false;
                }
                Schema evolved = old.schema();
                for (int i = old.schema().size(); i < definition.schema().size(); i++) {
                    Field f = definition.schema().field(i);
                    evolved = evolved.withField(f.name(), f.type());
                }
                StreamDefinition target = old.withSchema(evolved);
                if (retentionChanged) {
                    ddlWriter.requireSettled(definition.name()); // before Kafka is changed, not after
                    InputRetention.apply(admin, current, inputRetention, timeoutMs);
                    target = target.withInputRetention(inputRetention);
                }
                StreamEntry changed = current.with(target, current.statements());
                byte[] value = CatalogCodec.encode(changed, current.version());
                List<DdlCodec.Marker> markers = new ArrayList<>();
                if (evolved.size() > old.schema().size()) {
                    byte[] marker = TaskInput.schema(value);
                    for (String p : old.partitioners()) {
                        markers.add(new DdlCodec.Marker(p, marker));
                    }
                }
                if (ddlWriter.change(changed, value, markers)) {
                    if (!markers.isEmpty()) {
                        LOG.log(System.Logger.Level.INFO, "stream ''{0}'': schema {1}", definition.name(), evolved);
                    }
                    if (retentionChanged) {
                        LOG.log(System.Logger.Level.INFO, "stream ''{0}'': input topics keep events for {1} ms (-1: forever)",
                                definition.name(), inputRetention);
                    }
                    return false;
                }
            }
            throw ApiException.unavailable("concurrent_change", "the stream was being changed by another node at the same"
                    + " time; retry the request", 1);
        }
    }

    /** The streams, by name. */
    public List<StreamDefinition> streams() {
        List<StreamDefinition> list = new ArrayList<>();
        for (StreamEntry e : catalog.streams()) {
            list.add(e.definition());
        }
        return list;
    }

    /** @throws ApiException 404 when there is no such stream */
    public StreamDefinition stream(String name) {
        return entry(name).definition();
    }

    /** @throws ApiException 404 when there is no such stream */
    public void deleteStream(String name) {
        synchronized (ddl) {
            StreamEntry current = entry(name);
            publish(name, null);
            events.forget(current.generation());
            topics.deleteLater(current);
            LOG.log(System.Logger.Level.INFO, "stream ''{0}'' deleted", name);
        }
    }

    // ---------------------------------------------------------------- metrics

    /**
     * Adds a statement's metrics.
     *
     * @return the new metric names in SELECT order
     * @throws ApiException 400 with position and hint on a syntax or semantic error, 404 for an unknown stream
     */
    public List<String> addStatement(String stream, String query, boolean backfill) {
        synchronized (ddl) {
            for (int attempt = 0; attempt < 3; attempt++) {
                StreamEntry current = entry(stream);
                List<MetricDefinition> defs;
                try {
                    defs = StatementBinder.bind(current.definition(), QueryParser.parse(query), current.metrics().keySet());
                } catch (QueryException e) {
                    throw ApiException.badRequest(e.code(), e.getMessage());
                }
                List<String> names = new ArrayList<>();
                defs.forEach(d -> names.add(d.name()));
                String partitioner = defs.getFirst().partitioner();
                StatementEntry added = new StatementEntry(current.version() + 1, query, names, partitioner, backfill, List.of());
                List<StatementEntry> statements = new ArrayList<>(current.statements());
                statements.add(added);
                StreamEntry changed = current.with(current.definition(), statements);
                if (ddlWriter.change(changed, CatalogCodec.encode(changed, current.version()), List.of(new DdlCodec.Marker(
                        partitioner, TaskInput.statement(added.id(), backfill, names, query))))) {
                    LOG.log(System.Logger.Level.INFO, "stream ''{0}'': metrics {1} added{2}", stream, names,
                            backfill ? " with backfill" : "");
                    return names;
                }
            }
            throw ApiException.unavailable("concurrent_change", "the stream was being changed by another node at the same"
                    + " time; retry the request", 1);
        }
    }

    /** The stream's metrics in creation order; @throws ApiException 404 */
    public List<MetricInfo> metrics(String stream) {
        StreamEntry e = entry(stream);
        List<MetricInfo> list = new ArrayList<>();
        for (MetricDefinition d : e.metrics().values()) {
            list.add(new MetricInfo(d.name(), d.statement().text(), d.partitioner(), d.statement().groupBy()));
        }
        return list;
    }

    /** @throws ApiException 404 for an unknown stream or metric */
    public void removeMetric(String stream, String metric) {
        synchronized (ddl) {
            for (int attempt = 0; attempt < 3; attempt++) {
                StreamEntry current = entry(stream);
                StatementEntry owner = current.statementOf(metric);
                if (owner == null) {
                    throw ApiException.notFound("unknown_metric", "stream '" + stream + "' has no metric '" + metric
                            + "'; GET /v1/streams/" + stream + "/metrics lists them");
                }
                List<StatementEntry> statements = new ArrayList<>();
                for (StatementEntry s : current.statements()) {
                    StatementEntry next = s == owner ? s.withRemoved(metric) : s;
                    if (!next.allRemoved()) {
                        statements.add(next);
                    }
                }
                StreamEntry changed = current.with(current.definition(), statements);
                if (ddlWriter.change(changed, CatalogCodec.encode(changed, current.version()), List.of(new DdlCodec.Marker(
                        owner.partitioner(), TaskInput.remove(metric))))) {
                    LOG.log(System.Logger.Level.INFO, "stream ''{0}'': metric {1} removed", stream, metric);
                    return;
                }
            }
            throw ApiException.unavailable("concurrent_change", "the stream was being changed by another node at the same"
                    + " time; retry the request", 1);
        }
    }

    // ---------------------------------------------------------------- events and reads

    /**
     * Sends one event, a binary row written with {@code stream}'s schema (or an older one) whose
     * event id and timestamp (when the stream has one) are not null, and completes with the merged
     * reply; or exceptionally with an {@link ApiException}: 413 when the event is larger than a
     * Kafka record may be (nothing is sent), 503 on timeout. See {@link EventRouter}.
     */
    public CompletableFuture<StreamReply> send(StreamDefinition stream, byte[] row, int length) {
        return events.send(stream, row, length);
    }

    /** Sends events in order, all size-checked first; completes with their replies in the same order. */
    public CompletableFuture<List<StreamReply>> sendBatch(StreamDefinition stream, List<byte[]> rows) {
        return events.sendBatch(stream, rows);
    }

    /** Whether {@link #send} returns without blocking for this stream (see {@link EventRouter}). */
    public boolean sendsWithoutBlocking(String stream) {
        return events.sendsWithoutBlocking(stream);
    }

    /** Point read, answered by the metric's task in order with the events before it (see {@link EventRouter}). */
    public CompletableFuture<PointRead> read(StreamDefinition stream, String metric, byte[] keyRow) {
        return events.read(stream, metric, keyRow);
    }

    /**
     * A task's answer to a request of this front-end, handed over in memory by a unit of this node;
     * {@code part} says which of the request's tasks answers (a task's copies may all answer).
     */
    public void deliver(long correlation, int part, TaskAnswer reply) {
        replies.deliver(correlation, part, reply);
    }

    /** Requests waiting for task replies (for the metrics page). */
    public int inFlight() {
        return replies.waiting();
    }

    @Override
    public void close() {
        producer.close(Duration.ofSeconds(5));
        replies.close();
    }

    // ---------------------------------------------------------------- helpers

    private StreamEntry entry(String name) {
        StreamEntry e = catalog.stream(name);
        if (e == null) {
            throw unknownStream(name);
        }
        return e;
    }

    static ApiException unknownStream(String name) {
        return ApiException.notFound("unknown_stream", "no stream '" + name + "'; create it with PUT /v1/streams/" + name
                + " (GET /v1/streams lists the streams)");
    }

    private boolean publish(String stream, byte[] value) {
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

    private static String newGeneration() {
        return Long.toString(RANDOM.nextLong() >>> 24, 36);
    }
}
