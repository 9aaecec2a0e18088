package io.railgun.node.broker;

import io.railgun.node.security.OwnerOnly;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.metadata.properties.MetaPropertiesEnsemble;
import org.apache.kafka.metadata.storage.Formatter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The storage of an {@link EmbeddedBroker}. Everything lives in {@code dataDir/kafka}, which is
 * both the log dir and the metadata log dir. {@code dataDir} is prepared by {@link
 * OwnerOnly#prepareDataDir} first: created {@code rwx------} (or tightened), with the process
 * umask set so that the broker's files are {@code rw-------}. On first start the directory is
 * formatted like {@code kafka-storage.sh format} does ({@link Formatter}: the layout's cluster id,
 * or a new random one for a single broker, its node id, static quorum, the latest production
 * {@code metadata.version}); the cluster id is persisted in its {@code meta.properties}. Later
 * starts find that file and reuse the directory with all topics, offsets and metadata kept; a
 * directory formatted for another cluster id or node id is refused with a message that says so.
 *
 * <p>Stateless; called by {@link EmbeddedBroker#start} on the starting thread.
 */
final class BrokerStorage {
    /** Logs under EmbeddedBroker's name, as these lines did before they moved here. */
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedBroker.class);

    private BrokerStorage() {}

    /**
     * Formats {@code logDir} unless it holds a {@code meta.properties}; returns the cluster id.
     *
     * @throws IllegalStateException when the directory was formatted for another cluster or broker id
     */
    static String formatIfNeeded(Path logDir, ClusterLayout layout) {
        String dir = logDir.toString();
        try {
            MetaPropertiesEnsemble ensemble = new MetaPropertiesEnsemble.Loader().addLogDirs(List.of(dir)).load();
            if (!ensemble.errorLogDirs().isEmpty()) {
                throw new UncheckedIOException(new IOException("cannot read the Kafka metadata in " + dir
                        + " (meta.properties); check its permissions, or delete the directory to start afresh"));
            }
            Optional<String> existing = ensemble.clusterId();
            if (existing.isPresent()) {
                if (layout.clusterId() != null && !layout.clusterId().equals(existing.get())) {
                    throw new IllegalStateException("the Kafka data in " + dir + " belongs to cluster " + existing.get()
                            + ", not " + layout.clusterId() + " (a broker of another cluster size, ports or --cluster-id);"
                            + " give this broker its own --data-dir, pass --cluster-id " + existing.get()
                            + ", or delete the directory to start afresh");
                }
                if (ensemble.nodeId().isPresent() && ensemble.nodeId().getAsInt() != layout.brokerId()) {
                    throw new IllegalStateException("the Kafka data in " + dir + " is broker " + ensemble.nodeId().getAsInt()
                            + "'s, not broker " + layout.brokerId() + "'s; give each broker its own --data-dir");
                }
                return existing.get();
            }
            // Kafka writes meta.properties last, so a format cut short is simply done again.
            String clusterId = layout.clusterId() != null ? layout.clusterId() : Uuid.randomUuid().toString();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            new Formatter()
                    .setPrintStream(new PrintStream(out, true, StandardCharsets.UTF_8))
                    .setNodeId(layout.brokerId())
                    .setClusterId(clusterId)
                    .addDirectory(dir)
                    .setMetadataLogDirectory(dir)
                    .setControllerListenerName(EmbeddedBroker.CONTROLLER_LISTENER)
                    .run();
            LOG.info("Formatted Kafka storage {} for new cluster {}: {}", dir, clusterId,
                    out.toString(StandardCharsets.UTF_8).strip());
            return clusterId;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the Kafka metadata in " + dir, e);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("cannot format the Kafka storage in " + dir + ": " + e.getMessage(), e);
        }
    }
}
