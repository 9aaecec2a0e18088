package io.railgun.node.frontend;

import io.railgun.engine.schema.StreamDefinition;
import io.railgun.node.catalog.StreamEntry;
import io.railgun.node.messaging.Topics;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;

/**
 * How long a stream's input topics keep its events (Kafka {@code retention.ms}): the stream's
 * {@code inputRetention}, else the node's {@code --input-retention} when the stream is created. Once
 * tasks can be copied from a peer (their reservoir, state and checkpoint), a task does not replay its
 * whole input, so the input need not be kept forever; when no copy of a task survives, it rebuilds
 * from what the topics still hold (and says so, see {@code HistoryGaps}). Stateless; any thread.
 */
final class InputRetention {
    private InputRetention() {
    }

    /** The definition with its input retention resolved: its own, else {@code nodeDefaultMs}. */
    static StreamDefinition resolve(StreamDefinition d, long nodeDefaultMs) {
        return d.inputRetentionMs() == StreamDefinition.INPUT_RETENTION_NODE_DEFAULT ? d.withInputRetention(nodeDefaultMs)
                : d;
    }

    /** Kafka's {@code retention.ms} for a resolved input retention ({@code -1}: forever). */
    static String retentionMs(StreamDefinition resolved) {
        return Long.toString(resolved.inputRetentionMs());
    }

    /**
     * Sets {@code retention.ms} of every input topic of {@code stream} to {@code inputRetentionMs}
     * (incremental: the topics' other settings stay).
     *
     * @throws ApiException 503 when Kafka does not take it in time (nothing is recorded; retry)
     */
    static void apply(Admin admin, StreamEntry stream, long inputRetentionMs, long timeoutMs) {
        Collection<AlterConfigOp> ops = List.of(new AlterConfigOp(
                new ConfigEntry("retention.ms", Long.toString(inputRetentionMs)), AlterConfigOp.OpType.SET));
        Map<ConfigResource, Collection<AlterConfigOp>> changes = new HashMap<>();
        for (String p : stream.definition().partitioners()) {
            changes.put(new ConfigResource(ConfigResource.Type.TOPIC, Topics.input(stream, p)), ops);
        }
        try {
            admin.incrementalAlterConfigs(changes).all().get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            throw ApiException.unavailable("kafka_unavailable", "the input topics' retention could not be changed ("
                    + e.getCause().getMessage() + "); retry the request", 1);
        } catch (TimeoutException e) {
            throw ApiException.unavailable("kafka_unavailable", "the input topics' retention was not changed within "
                    + timeoutMs + " ms; retry the request", 1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiException.unavailable("interrupted", "the node is shutting down", 1);
        }
    }
}
