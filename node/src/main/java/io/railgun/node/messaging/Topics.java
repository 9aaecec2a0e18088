package io.railgun.node.messaging;

import io.railgun.node.catalog.StreamEntry;
import java.util.ArrayList;
import java.util.List;

/**
 * Topic names (docs/node.md § Topics).
 * <ul>
 *   <li>{@code railgun.control}: compacted, one partition: the catalog (streams and metrics) that
 *       every node converges to;</li>
 *   <li>{@code railgun.s.<stream>.<generation>.<partitioner>}: a stream's input for one
 *       partitioner, with the stream's partition count: events keyed by the partitioner value, and
 *       the DDL markers and point reads its tasks apply in order;</li>
 *   <li>{@code railgun.replies.<node>}: the tasks' replies to the events and reads one node's
 *       front-end sent;</li>
 *   <li>{@code railgun.ingest.<stream>}: Kafka-native ingestion (JSON events in, merged replies
 *       out on the topic the record names), and {@code railgun.ingest.<stream>.replies}, the
 *       default reply topic.</li>
 * </ul>
 * Kafka treats two names that differ only by {@code '.'} against {@code '_'} as the same topic (their
 * metrics would clash) and refuses to create the second: {@link #collisionKey} is what it compares.
 */
public final class Topics {
    public static final String PREFIX = "railgun.";
    public static final String CONTROL = PREFIX + "control";
    public static final String STREAM_PREFIX = PREFIX + "s.";

    private Topics() {}

    public static String input(StreamEntry stream, String partitioner) {
        return stream.inputTopic(partitioner);
    }

    public static String input(String stream, String generation, String partitioner) {
        return STREAM_PREFIX + stream + "." + generation + "." + legal(partitioner);
    }

    public static String replies(String nodeId) {
        return PREFIX + "replies." + nodeId;
    }

    public static String ingest(String stream) {
        return PREFIX + "ingest." + stream;
    }

    /** The default reply topic of Kafka-native ingestion. */
    public static String ingestReplies(String stream) {
        return ingest(stream) + ".replies";
    }

    /** Every topic a stream owns: one input topic per partitioner, then its ingestion and reply topics. */
    public static List<String> of(StreamEntry stream) {
        List<String> topics = new ArrayList<>();
        for (String p : stream.definition().partitioners()) {
            topics.add(input(stream, p));
        }
        topics.add(ingest(stream.name()));
        topics.add(ingestReplies(stream.name()));
        return topics;
    }

    /**
     * The name Kafka compares to find topics that collide: {@code '.'} read as {@code '_'}
     * (Kafka's {@code Topic.hasCollision}); two different names with the same key cannot both exist.
     */
    public static String collisionKey(String topic) {
        return topic.replace('.', '_');
    }

    /** Characters Kafka does not allow in topic names become '_'. */
    static String legal(String name) {
        StringBuilder sb = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            sb.append(Character.isLetterOrDigit(c) && c < 128 || c == '_' || c == '-' ? c : '_');
        }
        return sb.toString();
    }
}
