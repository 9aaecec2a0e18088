package io.railgun.node;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The node's first requests to Kafka at start-up: how many brokers there are, and the node's own
 * one-partition topics (control, replies, cluster), each waited for up to {@link #STARTUP_TIMEOUT_MS}
 * and failing start-up with a message that says what to check. Stateless; called by {@link Node}
 * on the thread that starts it.
 */
final class StartupKafka {
    /** Logs under Node's name, as these lines did before they moved here. */
    private static final System.Logger LOG = System.getLogger(Node.class.getName());
    /** How long start-up waits for each answer of Kafka. */
    static final long STARTUP_TIMEOUT_MS = 60_000;

    private StartupKafka() {}

    /** The number of brokers of the Kafka cluster (the first request: it says when Kafka cannot be used). */
    static int brokerCount(Admin admin) {
        try {
            return admin.describeCluster().nodes().get(STARTUP_TIMEOUT_MS, TimeUnit.MILLISECONDS).size();
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot use Kafka: " + e.getCause().getMessage() + "; check --kafka and the Kafka"
                    + " client properties (security.protocol, sasl.*, ssl.*)", e.getCause());
        } catch (TimeoutException e) {
            throw new IllegalStateException("Kafka did not answer within " + STARTUP_TIMEOUT_MS / 1000 + " s; check --kafka and"
                    + " the Kafka client properties (security.protocol, sasl.*, ssl.*)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting", e);
        }
    }

    /** Creates a one-partition topic unless it exists. */
    static void ensureTopic(Admin admin, String name, short replication, Map<String, String> configs) {
        try {
            admin.createTopics(List.of(new NewTopic(name, 1, replication).configs(configs))).all()
                    .get(STARTUP_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            LOG.log(System.Logger.Level.INFO, "topic {0} created", name);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("topic " + name + " could not be created: " + e.getCause().getMessage(), e);
            }
        } catch (TimeoutException e) {
            throw new IllegalStateException("topic " + name + " was not created within " + STARTUP_TIMEOUT_MS + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting", e);
        }
    }
}
