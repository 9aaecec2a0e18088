package io.railgun.node.frontend;

import io.railgun.node.catalog.StreamEntry;
import io.railgun.node.messaging.Topics;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;

/**
 * Refuses a new stream whose Kafka topics Kafka would confuse with topics that exist, before any of
 * them is created. Kafka reads {@code '.'} and {@code '_'} in topic names as the same character
 * ({@link Topics#collisionKey}) and refuses to create {@code railgun.ingest.col_x} next to
 * {@code railgun.ingest.col.x}; the topics of the same request that do not collide (the input topics,
 * named with a fresh generation) are created all the same. Without this check every attempt to
 * create {@code col_x} answered 503 "retry" and left one more input topic behind, for ever.
 *
 * <p>Three checks, in order: the stream's own topics (two partitioners whose names map to one topic,
 * {@code "a.b"} and {@code "a_b"}: 400), the topics of the streams in the catalog (409 naming that
 * stream) and the topics Kafka has (409 naming the topic: one no stream owns, such as the topics of
 * a stream deleted a moment ago, which are deleted a few seconds later). The last covers what the
 * catalog cannot see yet: a clashing stream created on another node at the same moment may still
 * pass, and then fails in Kafka as before.
 *
 * <p>Stateless; called by {@link FrontEnd} under its DDL lock.
 */
final class TopicNameClash {
    static final String CODE = "stream_name_clash";

    private TopicNameClash() {}

    /**
     * @param created  the stream about to be created (its generation chosen)
     * @param existing the streams of the catalog
     * @param admin    lists Kafka's topics
     * @throws ApiException 400 {@code invalid_stream} or 409 {@value #CODE}; 503 when Kafka cannot list its topics
     */
    static void refuse(StreamEntry created, Collection<StreamEntry> existing, Admin admin, long timeoutMs) {
        checkStreams(created, existing);
        checkKafkaTopics(created, kafkaTopics(admin, timeoutMs));
    }

    /** The checks against the stream itself and the catalog: 400 or 409, or nothing. */
    static void checkStreams(StreamEntry created, Collection<StreamEntry> existing) {
        List<String> topics = Topics.of(created);
        Map<String, String> own = new HashMap<>();
        for (String topic : topics) {
            String other = own.putIfAbsent(Topics.collisionKey(topic), topic);
            if (other != null) {
                throw ApiException.badRequest("invalid_stream", "partitioners of stream '" + created.name()
                        + "' would share one Kafka topic (" + topic + "): in topic names every character other than"
                        + " letters, digits, '_' and '-' becomes '_', and Kafka reads '.' as '_'; rename a field");
            }
        }
        for (StreamEntry stream : existing) {
            if (stream.name().equals(created.name())) {
                continue;
            }
            for (String theirs : Topics.of(stream)) {
                String ours = own.get(Topics.collisionKey(theirs));
                if (ours != null) {
                    throw ApiException.conflict(CODE, "stream '" + created.name() + "' clashes with stream '"
                            + stream.name() + "': Kafka reads '.' and '_' in topic names as the same character, so"
                            + " its topic " + ours + " would collide with " + theirs + "; choose another name");
                }
            }
        }
    }

    /** The check against the topics Kafka has (an identical name is the stream's own, not a clash). */
    static void checkKafkaTopics(StreamEntry created, Set<String> kafkaTopics) {
        Map<String, String> byKey = new HashMap<>();
        for (String topic : kafkaTopics) {
            byKey.put(Topics.collisionKey(topic), topic);
        }
        for (String ours : Topics.of(created)) {
            String theirs = byKey.get(Topics.collisionKey(ours));
            if (theirs != null && !theirs.equals(ours)) {
                throw ApiException.conflict(CODE, "stream '" + created.name() + "' clashes with the Kafka topic "
                        + theirs + ", which no stream owns: Kafka reads '.' and '_' in topic names as the same"
                        + " character, so " + ours + " cannot be created. If a stream whose name differs by '.'"
                        + " against '_' was deleted a moment ago, retry in a few seconds; otherwise delete that topic"
                        + " or choose another name");
            }
        }
    }

    private static Set<String> kafkaTopics(Admin admin, long timeoutMs) {
        try {
            return admin.listTopics().names().get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw ApiException.unavailable("kafka_unavailable", "Kafka's topics could not be listed ("
                    + e.getMessage() + "); retry the request", 1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiException.unavailable("interrupted", "the node is shutting down", 1);
        }
    }
}
