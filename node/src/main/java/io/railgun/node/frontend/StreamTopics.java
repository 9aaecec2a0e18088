package io.railgun.node.frontend;

import io.railgun.engine.schema.StreamDefinition;
import io.railgun.node.catalog.StreamEntry;
import io.railgun.node.messaging.TopicReplication;
import io.railgun.node.messaging.Topics;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The Kafka topics of a stream, created with it and deleted after it: its input topics (one per
 * partitioner, kept for the stream's input retention) and the topics of Kafka-native ingestion
 * (JSON events in, JSON replies out, a week of each). Called by {@link FrontEnd} under its DDL
 * lock; the deletion runs a few seconds later on a shared delayed executor.
 */
final class StreamTopics {
    /** Logs under FrontEnd's name, as these lines did before they moved here. */
    private static final System.Logger LOG = System.getLogger(FrontEnd.class.getName());

    private final Admin admin;
    private final short topicReplication;
    private final long timeoutMs;

    StreamTopics(Admin admin, short topicReplication, long timeoutMs) {
        this.admin = admin;
        this.topicReplication = topicReplication;
        this.timeoutMs = timeoutMs;
    }

    /**
     * Creates a new stream's topics: one input topic per partitioner, and the topics of
     * Kafka-native ingestion; topics that exist already are left as they are.
     *
     * @throws ApiException 503 when Kafka did not create them in time
     */
    void create(StreamEntry stream) {
        StreamDefinition d = stream.definition();
        List<NewTopic> topics = new ArrayList<>();
        for (String p : d.partitioners()) {
            topics.add(new NewTopic(Topics.input(stream, p), d.partitions(), topicReplication)
                    .configs(TopicReplication.configs(topicReplication, Map.of("retention.ms", InputRetention.retentionMs(d),
                            "message.timestamp.type", "CreateTime"))));
        }
        // Kafka-native ingestion: JSON events in, JSON replies out (a week of each)
        topics.add(new NewTopic(Topics.ingest(d.name()), d.partitions(), topicReplication)
                .configs(TopicReplication.configs(topicReplication, Map.of("retention.ms", Long.toString(7 * 86_400_000L)))));
        topics.add(new NewTopic(Topics.ingestReplies(d.name()), d.partitions(), topicReplication)
                .configs(TopicReplication.configs(topicReplication, Map.of("retention.ms", Long.toString(7 * 86_400_000L)))));
        try {
            admin.createTopics(topics).all().get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw ApiException.unavailable("kafka_unavailable", "the stream's topics could not be created ("
                        + e.getCause().getMessage() + "); retry the request", 1);
            }
        } catch (TimeoutException e) {
            throw ApiException.unavailable("kafka_unavailable", "the stream's topics were not created within " + timeoutMs
                    + " ms; retry the request", 1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiException.unavailable("interrupted", "the node is shutting down", 1);
        }
    }

    /** Deletes a deleted stream's topics a few seconds from now. */
    void deleteLater(StreamEntry stream) {
        String name = stream.name();
        List<String> topics = Topics.of(stream);
        // a few seconds later: the nodes' units first drop the topics from their subscriptions,
        // instead of fetching from deleted topics (and warning about it)
        CompletableFuture.delayedExecutor(3, TimeUnit.SECONDS).execute(() -> {
            admin.deleteTopics(topics);
            LOG.log(System.Logger.Level.INFO, "stream ''{0}'': topics {1} deleted", name, topics);
        });
    }
}
