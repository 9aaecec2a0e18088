package io.railgun.node.broker;

import io.railgun.node.security.OwnerOnly;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Apache Kafka broker (KRaft, combined broker + controller) running inside this JVM: the
 * default messaging layer of {@code ./railgun start} and the whole of {@code ./railgun broker}
 * (SPEC §2), alone or as one broker of a cluster ({@link ClusterLayout}: N such processes, each a
 * broker and a controller voter, on fixed ports).
 *
 * <p><b>Storage</b> in {@code dataDir/kafka}, formatted on first start and reused after:
 * {@link BrokerStorage}. <b>Settings</b> Railgun gives the broker, each with its reason:
 * {@link BrokerSettings}.
 *
 * <p><b>Listeners.</b> Both bind to the layout's host (the loopback interface for a single broker and
 * by default for a cluster), PLAINTEXT unless overridden. For a single broker:
 * <ul>
 *   <li>{@value #CLIENT_LISTENER} on {@code 127.0.0.1:port}, also the inter-broker listener;
 *       {@link #bootstrapServers()} names it.</li>
 *   <li>{@value #CONTROLLER_LISTENER} on a free loopback port picked at every start (the quorum is
 *       static, {@code controller.quorum.voters=1@127.0.0.1:thatPort}, so the port may change
 *       between starts). Only this process needs it, but any local process can reach it, and a
 *       controller answers admin requests (create and delete topics, alter configs) sent to it
 *       directly: a secured broker secures it too.</li>
 * </ul>
 * A broker of a cluster binds both on the fixed ports of its {@link ClusterLayout} (client port, and
 * the next one for the controller), and its quorum is the layout's voters.
 * {@link BrokerCredentials#brokerOverrides()} makes both take SASL/PLAIN only, with one generated
 * user (a node with tokens, {@code ./railgun broker --sasl}).
 * A free port is found by binding port 0 and releasing it before Kafka binds it; if another
 * process takes it in between, start-up is retried with new ports (three attempts in all).
 *
 * <p><b>Overrides</b> are broker properties applied last, over Railgun's settings. To secure only the
 * client listener, change its protocol and add the SASL settings, e.g. for SASL/PLAIN:
 * {@code listener.security.protocol.map=CLIENT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT},
 * {@code sasl.enabled.mechanisms=PLAIN}, {@code sasl.mechanism.inter.broker.protocol=PLAIN} and
 * {@code listener.name.client.plain.sasl.jaas.config} (a {@code PlainLoginModule} with the
 * broker's own {@code username}/{@code password}, used by its inter-broker clients such as the
 * transaction marker sender, and a {@code user_NAME="password"} entry per user). The keys that
 * place the node and its storage ({@code process.roles}, {@code node.id}, {@code listeners},
 * {@code controller.*} quorum and listener names, {@code log.dirs} ...) cannot be overridden.
 *
 * <p><b>Threads.</b> {@link #start} blocks until the broker serves requests. {@link #close()} may
 * be called from any thread, more than once (later calls wait for the first to finish); after it
 * returns, the broker's threads have stopped, except the two daemon {@code metrics-meter-tick}
 * threads of Kafka's JVM-wide Yammer metrics registry, which the next broker reuses; the same JVM
 * may then start another broker, on the same directory or another. Two brokers are not meant to
 * run at once in one JVM: Kafka's metrics registries are JVM-wide, so their metrics would mix, and
 * one process per broker is what lets a test kill one; use separate processes
 * ({@code ./railgun broker --broker-id I --cluster-size N}).
 *
 * <p><b>Faults.</b> As in a stand-alone Kafka, a fatal metadata fault halts the JVM (Kafka's
 * {@code ProcessTerminatingFaultHandler}): the node cannot run without its messaging layer.
 */
public final class EmbeddedBroker implements AutoCloseable {
    /** The name of the client (and inter-broker) listener, for {@code listener.name.client.*} overrides. */
    public static final String CLIENT_LISTENER = "CLIENT";
    /** The name of the KRaft controller listener; always PLAINTEXT on loopback. */
    public static final String CONTROLLER_LISTENER = "CONTROLLER";

    private static final String HOST = "127.0.0.1";
    private static final int START_ATTEMPTS = 3;
    /** What defines the node's place in the cluster and its storage: set here only. */
    private static final Set<String> RESERVED = Set.of("process.roles", "node.id", "broker.id",
            "controller.quorum.voters", "controller.quorum.bootstrap.servers", "controller.listener.names",
            "listeners", "log.dir", "log.dirs", "metadata.log.dir");
    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedBroker.class);

    private final KafkaRaftServer server;
    private final String host;
    private final int port;
    private final int controllerPort;
    private final String clusterId;
    private boolean closed;

    private EmbeddedBroker(KafkaRaftServer server, String host, int port, int controllerPort, String clusterId) {
        this.server = server;
        this.host = host;
        this.port = port;
        this.controllerPort = controllerPort;
        this.clusterId = clusterId;
    }

    /**
     * Starts a broker with its data in {@code dataDir/kafka}, formatting that directory on first use,
     * and returns once it accepts clients.
     *
     * @param dataDir   the node's data directory; created (owner-only) if missing
     * @param port      the client listener's port on 127.0.0.1, or 0 for a free one
     * @param overrides broker properties applied after Railgun's (see the class comment)
     * @throws IllegalArgumentException if the port is out of range or an override sets a key the broker owns
     * @throws IllegalStateException    if the port is taken or the broker fails to start
     * @throws UncheckedIOException     if the data directory cannot be created or read
     */
    public static EmbeddedBroker start(Path dataDir, int port, Map<String, String> overrides) {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("broker port must be 0 (any free port) or 1-65535, got " + port);
        }
        return start(dataDir, ClusterLayout.single(HOST, port), overrides);
    }

    /**
     * Starts broker {@code layout.brokerId()} of a KRaft cluster (or the single broker of
     * {@link ClusterLayout#single}) with its data in {@code dataDir/kafka}, formatting that directory
     * with the layout's cluster id on first use. In a cluster, returns once a majority of the voters
     * run and this broker has caught up with the metadata: start the other brokers meanwhile.
     *
     * @param dataDir   this broker's data directory (one per broker); created (owner-only) if missing
     * @param layout    this broker's ports and the controller quorum
     * @param overrides broker properties applied after Railgun's (see the class comment)
     * @throws IllegalArgumentException if an override sets a key the broker owns
     * @throws IllegalStateException    if a port is taken, the directory belongs to another cluster or
     *                                  broker id, or the broker fails to start
     * @throws UncheckedIOException     if the data directory cannot be created or read
     */
    public static EmbeddedBroker start(Path dataDir, ClusterLayout layout, Map<String, String> overrides) {
        List<String> reserved = overrides.keySet().stream().filter(RESERVED::contains).sorted().toList();
        if (!reserved.isEmpty()) {
            throw new IllegalArgumentException("the embedded Kafka broker sets " + reserved + " itself; remove them"
                    + " from its overrides (to secure the client listener, set listener.security.protocol.map="
                    + CLIENT_LISTENER + ":SASL_PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT and the sasl.* settings)");
        }
        Path logDir = dataDir.toAbsolutePath().normalize().resolve(OwnerOnly.KAFKA_DIR);
        try {
            OwnerOnly.prepareDataDir(dataDir);
            OwnerOnly.createDirectories(logDir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the Kafka data directory " + logDir, e);
        }
        String host = layout.host();
        for (int attempt = 1; ; attempt++) {
            long startNs = System.nanoTime();
            int clientPort = layout.clientPort() == 0 ? BrokerPorts.free(host) : BrokerPorts.requireFree(host, layout.clientPort());
            int controllerPort;
            String voters;
            if (layout.isSingle()) {
                do {
                    controllerPort = BrokerPorts.free(host);
                } while (controllerPort == clientPort);
                voters = layout.brokerId() + "@" + host + ":" + controllerPort;
            } else {
                controllerPort = BrokerPorts.requireFree(host, layout.controllerPort());
                voters = ClusterLayout.quorumVoters(layout.voters());
            }
            Map<String, String> props = BrokerSettings.of(logDir, layout, clientPort, controllerPort, voters);
            props.putAll(overrides);
            KafkaConfig config = new KafkaConfig(props, false);
            String clusterId = BrokerStorage.formatIfNeeded(logDir, layout);
            KafkaRaftServer server = null;
            try {
                server = new KafkaRaftServer(config, Time.SYSTEM);
                server.startup();
            } catch (RuntimeException e) {
                if (server != null) {
                    shutdownQuietly(server);
                }
                if (BrokerPorts.isBindFailure(e) && layout.isSingle() && attempt < START_ATTEMPTS) {
                    LOG.info("Kafka broker could not bind its ports (taken since they were checked); retrying");
                    continue;
                }
                throw new IllegalStateException("the embedded Kafka broker (data in " + logDir + ") failed to start: "
                        + messages(e), e);
            }
            if (layout.isSingle()) {
                LOG.info("Kafka broker started on {}:{} in {} ms (cluster {}, data in {})", host, clientPort,
                        (System.nanoTime() - startNs) / 1_000_000, clusterId, logDir);
            } else {
                LOG.info("Kafka broker {} of {} started on {}:{} (controller {}) in {} ms (cluster {}, data in {})",
                        layout.brokerId(), layout.size(), host, clientPort, controllerPort,
                        (System.nanoTime() - startNs) / 1_000_000, clusterId, logDir);
            }
            return new EmbeddedBroker(server, host, clientPort, controllerPort, clusterId);
        }
    }

    /** The client listener's address for {@code bootstrap.servers}, e.g. {@code 127.0.0.1:9092}. */
    public String bootstrapServers() {
        return host + ":" + port;
    }

    /** The client listener's actual port (the one picked when 0 was asked). */
    public int port() {
        return port;
    }

    /** The controller listener's port (for tests of its security). */
    int controllerPort() {
        return controllerPort;
    }

    /** The cluster id generated when the data directory was formatted, stable across restarts. */
    public String clusterId() {
        return clusterId;
    }

    /**
     * Stops the broker: controlled shutdown, then the controller; flushes and closes the logs and
     * releases the directory lock and ports. Idempotent.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        long startNs = System.nanoTime();
        server.shutdown();
        server.awaitShutdown();
        LOG.info("Kafka broker on {} stopped in {} ms", bootstrapServers(), (System.nanoTime() - startNs) / 1_000_000);
    }

    /** The messages along a cause chain, each once: Kafka's outer message alone rarely says what failed. */
    private static String messages(Throwable e) {
        StringBuilder all = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = t.getMessage();
            if (m != null && all.indexOf(m) < 0) {
                all.append(all.isEmpty() ? "" : ": ").append(m);
            }
        }
        return all.toString();
    }

    private static void shutdownQuietly(KafkaRaftServer server) {
        try {
            server.shutdown();
            server.awaitShutdown();
        } catch (RuntimeException e) {
            LOG.warn("Kafka broker did not shut down cleanly after failing to start", e);
        }
    }
}
