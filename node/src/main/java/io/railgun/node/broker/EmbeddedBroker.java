package io.railgun.node.broker;

import io.railgun.node.security.OwnerOnly;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.properties.MetaPropertiesEnsemble;
import org.apache.kafka.metadata.storage.Formatter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Apache Kafka broker (KRaft, combined broker + controller) running inside this JVM: the
 * default messaging layer of {@code ./railgun start} and the whole of {@code ./railgun broker}
 * (SPEC §2), alone or as one broker of a cluster ({@link ClusterLayout}: N such processes, each a
 * broker and a controller voter, on fixed ports).
 *
 * <p><b>Storage.</b> Everything lives in {@code dataDir/kafka}, which is both the log dir and the
 * metadata log dir. {@code dataDir} is prepared by {@link OwnerOnly#prepareDataDir} first: created
 * {@code rwx------} (or tightened), with the process umask set so that the broker's files are
 * {@code rw-------}. On first start the directory is formatted like {@code kafka-storage.sh format}
 * does ({@link Formatter}: the layout's cluster id, or a new random one for a single broker, its
 * node id, static quorum, the latest production {@code metadata.version}); the cluster id is
 * persisted in its {@code meta.properties}. Later starts find that file and reuse the directory with
 * all topics, offsets and metadata kept; a directory formatted for another cluster id or node id is
 * refused with a message that says so.
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
 * <p><b>Settings</b> (key = value: why), applied before {@code overrides}:
 * <ul>
 *   <li>{@code process.roles=broker,controller}, {@code node.id=1} (a cluster: the broker's id):
 *       one process is the cluster, or one broker and one voter of it.</li>
 *   <li>{@code offsets.topic.replication.factor}, {@code transaction.state.log.replication.factor},
 *       {@code share.coordinator.state.topic.replication.factor} {@code =1} and the matching
 *       {@code *.min.isr=1}: the defaults (3 copies, 2 in sync) cannot be met by one broker, so
 *       consumer groups, transactions and share groups would never find their coordinator.
 *       {@code min.insync.replicas=1} and {@code default.replication.factor=1} are the defaults,
 *       pinned because {@code acks=all} producers and topic creation rely on them. In a cluster the
 *       copies are {@link ClusterLayout#internalReplication()} (3, or every broker of a smaller
 *       cluster) and the in-sync minimums {@link ClusterLayout#minInsyncReplicas()} (2 with 3
 *       copies): one broker may die without losing an acknowledged write or stopping writes.</li>
 *   <li>{@code offsets.topic.num.partitions}, {@code transaction.state.log.num.partitions},
 *       {@code share.coordinator.state.topic.num.partitions} {@code =5} (default 50): one node
 *       needs no coordinator spread; fewer partitions make the first group join (which creates
 *       {@code __consumer_offsets}) fast and keep file handles and index mappings few.</li>
 *   <li>{@code group.initial.rebalance.delay.ms=0}: no 3 s wait before the first rebalance of a
 *       new group; there are no other members to wait for.</li>
 *   <li>{@code auto.create.topics.enable=false}: Railgun creates its topics explicitly with the
 *       partition counts it needs; a typo must fail, not create a topic.</li>
 *   <li>{@code num.network.threads=1} (3), {@code num.io.threads=2} (8),
 *       {@code background.threads=2} (10), {@code group.coordinator.threads=1} (4),
 *       {@code group.coordinator.background.threads=1} (2),
 *       {@code num.recovery.threads.per.data.dir=1} (2): sized for a node that shares a small
 *       machine with the engine and serves a handful of local clients: the node's own producers
 *       and consumers hold a few connections, and fewer threads mean fewer hand-offs on 2 cores
 *       (with 1 network and 2 request threads, and producers lingering 2 ms, the broker took 17% of
 *       a core at 5,000 ev/s, against 48% with 2 and 4 threads and no linger).</li>
 *   <li>{@code log.cleaner.dedupe.buffer.size=16 MiB} (128 MiB, allocated on the heap when the
 *       cleaner of compacted topics such as {@code __consumer_offsets} starts): enough for
 *       ~600,000 distinct keys per cleaning pass.</li>
 * </ul>
 *
 * <p><b>Overrides</b> are broker properties applied last, over all of the above. To secure only the
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
            int clientPort = layout.clientPort() == 0 ? freePort(host) : requireFree(host, layout.clientPort());
            int controllerPort;
            String voters;
            if (layout.isSingle()) {
                do {
                    controllerPort = freePort(host);
                } while (controllerPort == clientPort);
                voters = layout.brokerId() + "@" + host + ":" + controllerPort;
            } else {
                controllerPort = requireFree(host, layout.controllerPort());
                voters = ClusterLayout.quorumVoters(layout.voters());
            }
            Map<String, String> props = settings(logDir, layout, clientPort, controllerPort, voters);
            props.putAll(overrides);
            KafkaConfig config = new KafkaConfig(props, false);
            String clusterId = formatIfNeeded(logDir, layout);
            KafkaRaftServer server = null;
            try {
                server = new KafkaRaftServer(config, Time.SYSTEM);
                server.startup();
            } catch (RuntimeException e) {
                if (server != null) {
                    shutdownQuietly(server);
                }
                if (isBindFailure(e) && layout.isSingle() && attempt < START_ATTEMPTS) {
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

    private static Map<String, String> settings(Path logDir, ClusterLayout layout, int clientPort, int controllerPort,
            String voters) {
        String host = layout.host();
        Map<String, String> p = new LinkedHashMap<>();
        p.put("process.roles", "broker,controller");
        p.put("node.id", Integer.toString(layout.brokerId()));
        p.put("controller.quorum.voters", voters);
        p.put("listeners", CLIENT_LISTENER + "://" + host + ":" + clientPort + ","
                + CONTROLLER_LISTENER + "://" + host + ":" + controllerPort);
        p.put("listener.security.protocol.map", CLIENT_LISTENER + ":PLAINTEXT," + CONTROLLER_LISTENER + ":PLAINTEXT");
        p.put("controller.listener.names", CONTROLLER_LISTENER);
        p.put("inter.broker.listener.name", CLIENT_LISTENER);
        p.put("log.dirs", logDir.toString());

        String copies = Integer.toString(layout.internalReplication());
        String inSync = Integer.toString(layout.minInsyncReplicas());
        p.put("offsets.topic.replication.factor", copies);
        p.put("offsets.topic.num.partitions", "5");
        p.put("transaction.state.log.replication.factor", copies);
        p.put("transaction.state.log.min.isr", inSync);
        p.put("transaction.state.log.num.partitions", "5");
        p.put("share.coordinator.state.topic.replication.factor", copies);
        p.put("share.coordinator.state.topic.min.isr", inSync);
        p.put("share.coordinator.state.topic.num.partitions", "5");
        p.put("default.replication.factor", copies);
        p.put("min.insync.replicas", inSync);
        p.put("group.initial.rebalance.delay.ms", "0");
        p.put("auto.create.topics.enable", "false");
        // after a kill, the restarted broker's registration waits for its old session to time out
        // (9 s by default): a single node has no one to fail over to, so a short session is enough;
        // in a cluster, a dead broker is fenced (and leaves the ISRs) after 3 s instead of 9
        p.put("broker.session.timeout.ms", "3000");
        p.put("broker.heartbeat.interval.ms", "1000");

        p.put("num.network.threads", "1");
        p.put("num.io.threads", "2");
        p.put("background.threads", "2");
        p.put("group.coordinator.threads", "1");
        p.put("group.coordinator.background.threads", "1");
        p.put("num.recovery.threads.per.data.dir", "1");
        p.put("log.cleaner.dedupe.buffer.size", Integer.toString(16 * 1024 * 1024));
        return p;
    }

    /**
     * Formats {@code logDir} unless it holds a {@code meta.properties}; returns the cluster id.
     *
     * @throws IllegalStateException when the directory was formatted for another cluster or broker id
     */
    private static String formatIfNeeded(Path logDir, ClusterLayout layout) {
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
                    .setControllerListenerName(CONTROLLER_LISTENER)
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

    private static int freePort(String host) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(host), 0), 1);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port on " + host + " for the Kafka broker", e);
        }
    }

    /** Fails early, with a message that says what to do, when a port asked for is taken. */
    private static int requireFree(String host, int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(host), port), 1);
            return port;
        } catch (IOException e) {
            throw new IllegalStateException("the Kafka broker port " + host + ":" + port + " is already in use"
                    + " (another broker or node?); stop that process or choose another port", e);
        }
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

    private static boolean isBindFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException) {
                return true;
            }
        }
        return false;
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
