package io.railgun.node;

import io.railgun.engine.state.durable.StateMemory;
import io.railgun.node.backend.ProcessorUnit;
import io.railgun.node.backend.StaleCopies;
import io.railgun.node.backend.UnitStats;
import io.railgun.node.broker.BrokerCredentials;
import io.railgun.node.broker.EmbeddedBroker;
import io.railgun.node.catalog.Catalog;
import io.railgun.node.catalog.ControlLog;
import io.railgun.node.cluster.ClusterPublisher;
import io.railgun.node.cluster.ClusterTopic;
import io.railgun.node.cluster.ClusterView;
import io.railgun.node.cluster.DiskCopies;
import io.railgun.node.cluster.UnitCopies;
import io.railgun.node.ddl.DdlReconciler;
import io.railgun.node.ddl.DdlWriter;
import io.railgun.node.frontend.FrontEnd;
import io.railgun.node.http.HttpApi;
import io.railgun.node.recovery.PeerRecovery;
import io.railgun.node.recovery.RecoveryGauges;
import io.railgun.node.recovery.RecoverySettings;
import io.railgun.node.recovery.SnapshotRequests;
import io.railgun.node.recovery.SnapshotServer;
import io.railgun.node.recovery.TaskRecovery;
import io.railgun.node.http.KafkaIngestion;
import io.railgun.node.ops.DistributionMetrics;
import io.railgun.node.ops.NodeGauges;
import io.railgun.node.ops.NodeMetrics;
import io.railgun.node.recovery.CountedRecovery;
import io.railgun.node.ops.NodeReadiness;
import io.railgun.node.ops.TaskMetrics;
import io.railgun.node.messaging.KafkaSettings;
import io.railgun.node.messaging.LocalReplies;
import io.railgun.node.messaging.TopicReplication;
import io.railgun.node.messaging.Topics;
import io.railgun.node.security.OwnerOnly;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;

/**
 * One Railgun node (paper §3): front-end, back-end (processor units running tasks) and messaging
 * layer in one process, over an external Kafka cluster or an embedded single-node broker.
 *
 * <p>Start-up: make the data directory owner-only ({@link OwnerOnly}) and lock it, start the
 * embedded broker (when no {@code --kafka}; with SASL when tokens are set), create
 * the control, reply and cluster topics, load the catalog from the control topic, finish the DDL
 * changes a dead node left half done ({@link DdlReconciler}), start the processor
 * units (they join the task group and restore their tasks), then serve HTTP and publish the node's
 * status on the cluster topic ({@link ClusterPublisher}; {@code GET /v1/cluster} reads every node's).
 */
public final class Node implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Node.class.getName());
    /** A node whose last status on the cluster topic is older than this is shown unreachable (it writes one a second). */
    private static final long UNREACHABLE_AFTER_MS = 5_000;

    private final NodeConfig config;
    private final List<AutoCloseable> resources = new ArrayList<>(); // closed in reverse order
    private final CountDownLatch terminated = new CountDownLatch(1);
    private EmbeddedBroker broker;
    private String bootstrap;
    private Catalog catalog;
    private ControlLog control;
    private FrontEnd frontEnd;
    private StateMemory stateMemory;
    private KafkaIngestion ingestion;
    private final List<ProcessorUnit> units = new ArrayList<>();
    private volatile URI uri;
    private boolean closed;
    private TaskRecovery recovery = TaskRecovery.NONE;
    private SnapshotServer snapshotServer;
    private RecoveryGauges recoveryMetrics;
    private final NodeMetrics metrics = new NodeMetrics();
    /** Where recoveries and bytes copied from peers are counted ({@code /metrics}). */
    private final DistributionMetrics distribution = new DistributionMetrics(metrics);

    private Node(NodeConfig config) {
        this.config = config;
    }

    /** Starts a node: the embedded broker when {@code config.kafka()} is null, then the layers; returns once serving. */
    public static Node start(NodeConfig config) {
        Node node = new Node(config);
        try {
            node.startLayers();
            return node;
        } catch (RuntimeException | Error e) {
            node.close();
            throw e;
        }
    }

    private void startLayers() {
        long started = System.nanoTime();
        Path data = config.dataDir().toAbsolutePath();
        resources.add(NodeDataDir.lock(data));
        Map<String, String> kafkaProperties = config.kafkaProperties();
        if (config.kafka() == null) {
            BrokerCredentials credentials = brokerCredentials(data);
            broker = EmbeddedBroker.start(data, config.brokerPort(),
                    credentials == null ? Map.of() : credentials.brokerOverrides());
            resources.add(broker);
            bootstrap = broker.bootstrapServers();
            if (credentials != null) {
                // the user's properties still come last: they may tune (or, knowingly, replace) these
                Map<String, String> merged = new LinkedHashMap<>(credentials.clientProperties());
                merged.putAll(config.kafkaProperties());
                kafkaProperties = merged;
            }
            LOG.log(System.Logger.Level.INFO, "embedded Kafka broker (KRaft) at {0}{1}", bootstrap, credentials == null
                    ? " (PLAINTEXT: no tokens are set, so every local process may use the HTTP API as well)"
                    : " (SASL/PLAIN; clients authenticate with " + credentials.file() + ")");
        } else {
            bootstrap = config.kafka();
        }
        KafkaSettings kafka = new KafkaSettings(bootstrap, kafkaProperties, config.nodeId());
        Admin admin = Admin.create(kafka.admin());
        resources.add(admin);
        short replication = TopicReplication.factor(config.topicReplication(), StartupKafka.brokerCount(admin));
        String replyTopic = Topics.replies(config.nodeId());
        StartupKafka.ensureTopic(admin, Topics.CONTROL, replication, TopicReplication.configs(replication, ControlLog.topicConfig()));
        StartupKafka.ensureTopic(admin, replyTopic, replication, TopicReplication.configs(replication, Map.of("retention.ms", "3600000")));
        StartupKafka.ensureTopic(admin, ClusterTopic.NAME, replication, TopicReplication.configs(replication, ClusterTopic.config()));

        catalog = new Catalog();
        control = new ControlLog(catalog, kafka);
        resources.add(control);
        try {
            control.start(StartupKafka.STARTUP_TIMEOUT_MS);
        } catch (TimeoutException e) {
            throw new IllegalStateException("the control topic could not be read within " + StartupKafka.STARTUP_TIMEOUT_MS + " ms", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while starting", e);
        }
        Path tasks = data.resolve("tasks");
        NodeDataDir.deleteTasksOfDeletedStreams(tasks, catalog);
        DdlWriter ddlWriter = new DdlWriter(catalog, control, kafka, config.nodeId(), config.requestTimeoutMs(),
                ddlGraceMs(config), System::currentTimeMillis);
        resources.add(ddlWriter);
        DdlReconciler reconciler = new DdlReconciler(catalog, ddlWriter);
        resources.add(reconciler);
        int finished = reconciler.finishAtStart();
        if (finished > 0) {
            LOG.log(System.Logger.Level.INFO, "{0} DDL change(s) left half done finished", finished);
        }
        reconciler.start();

        LocalReplies localReplies = new LocalReplies(replyTopic);
        StaleCopies staleCopies = new StaleCopies(tasks);
        startPeerRecovery(); // before the units, which call it
        stateMemory = new StateMemory(config.stateMemoryBytes());
        resources.add(stateMemory); // closed after the units (reverse order), so after every task's store
        for (int i = 0; i < config.processors(); i++) {
            ProcessorUnit unit = new ProcessorUnit(i, config.processors(), config, catalog, kafka, tasks, localReplies,
                    staleCopies, new CountedRecovery(recovery, distribution), this::internalUrl, stateMemory);
            units.add(unit);
            unit.start();
        }
        // all units stop together: one leaving the group first would make the others rebalance
        resources.add(() -> {
            units.forEach(ProcessorUnit::stop);
            units.forEach(ProcessorUnit::close);
        });
        startSnapshotServer(data);
        LOG.log(System.Logger.Level.INFO, "{0} processor unit(s) joined the task group", config.processors());
        frontEnd = new FrontEnd(catalog, control, admin, kafka, replyTopic, replication, config.requestTimeoutMs(),
                ddlWriter, config.inputRetentionMs());
        resources.add(frontEnd);
        localReplies.attach(frontEnd::deliver);
        ingestion = new KafkaIngestion(catalog, frontEnd, kafka, config.requestTimeoutMs());
        resources.add(ingestion);
        ClusterView clusterView = new ClusterView(kafka, System::currentTimeMillis, UNREACHABLE_AFTER_MS).start();
        resources.add(clusterView);
        startHttp(clusterView);
        ClusterPublisher publisher = new ClusterPublisher(kafka, config.nodeId(), internalUrl(), units.size(),
                new DiskCopies(catalog, staleCopies::snapshot,
                        new UnitCopies(units.stream().map(ProcessorUnit::stats).toList())), System::currentTimeMillis);
        resources.add(publisher);
        publisher.start();
        LOG.log(System.Logger.Level.INFO, "node {0} started in {1} ms", config.nodeId(),
                (System.nanoTime() - started) / 1_000_000);
    }

    /** Peer recovery (docs/distribution.md): how the units copy a task they lack from a peer. */
    private void startPeerRecovery() {
        PeerRecovery peers = new PeerRecovery(RecoverySettings.defaults().withRate(config.recoveryRateBytes()),
                config.adminToken());
        resources.add(peers); // closed after the units
        recovery = peers;
        recoveryMetrics = new RecoveryGauges(peers.metrics());
    }

    /** Peer recovery's serving side: snapshots of this node's tasks, taken through the units' inboxes. */
    private void startSnapshotServer(Path data) {
        snapshotServer = new SnapshotServer(data.resolve("snapshots"),
                new SnapshotRequests(units.stream().map(ProcessorUnit::snapshotInbox).toList()));
        resources.add(snapshotServer); // closed before the units
    }

    /** How this node's processor units copy a task from a peer before opening it. */
    public TaskRecovery taskRecovery() {
        return recovery;
    }

    private void startHttp(ClusterView clusterView) {
        List<UnitStats> unitStats = units.stream().map(ProcessorUnit::stats).toList();
        NodeGauges.register(metrics, frontEnd, ingestion, unitStats, stateMemory, config.dataDir());
        TaskMetrics.register(metrics, () -> NodeGauges.taskStats(unitStats));
        TaskMetrics.registerHistoryGaps(metrics, () -> units.stream().flatMap(u -> u.stats().historyGaps().gaps().stream())
                .toList());
        NodeReadiness readiness = new NodeReadiness(units.stream().map(ProcessorUnit::stats).toList(), control::lag,
                NodeReadiness.DEFAULT_MAX_LAG_PER_TASK);
        try {
            recoveryMetrics.register(metrics);
            HttpApi api = HttpApi.start(config, frontEnd, clusterView::report, metrics, readiness, snapshotServer);
            resources.add(api);
            uri = api.uri();
        } catch (IOException e) {
            throw new UncheckedIOException("the HTTP API cannot listen on " + config.host() + ":" + config.port() + ": "
                    + e.getMessage(), e);
        }
        LOG.log(System.Logger.Level.INFO, "HTTP API on {0}", uri);
    }

    /**
     * How old a half-done DDL change of another node must be before this one finishes it: the writer
     * waits up to the request timeout for its control record, then its producer may deliver a marker
     * for up to its delivery timeout (30 s); 15 s more for clocks and slow brokers.
     */
    static long ddlGraceMs(NodeConfig config) {
        return 2 * config.requestTimeoutMs() + 45_000;
    }

    /** The HTTP API's base URI, e.g. {@code http://127.0.0.1:7070} (the actual port when 0 was asked). */
    public URI uri() {
        return uri;
    }

    /**
     * The node's base URL for its peers (task copies), as its processor units advertise it to the
     * task group: its API's URI, "" until the API listens. A wildcard bind address is replaced by
     * the host's name.
     */
    private String internalUrl() {
        URI u = uri;
        if (u == null) {
            return "";
        }
        String host = u.getHost();
        if ("0.0.0.0".equals(host) || "::".equals(host) || "[::]".equals(host)) {
            try {
                host = java.net.InetAddress.getLocalHost().getHostName();
            } catch (IOException e) {
                return u.toString();
            }
            return u.getScheme() + "://" + host + ":" + u.getPort();
        }
        return u.toString();
    }

    /**
     * Stops the node as a crash looks to the task group (fault tests): its processor units stop
     * without leaving the group, so the group moves their tasks only once their sessions time out;
     * meanwhile the tasks' replicas on other nodes keep answering. Then closes the rest.
     */
    void stopWithoutLeaving() {
        units.forEach(ProcessorUnit::halt);
        close();
    }

    /** The processor units' figures (tests and metrics), by unit index. */
    public List<UnitStats> unitStats() {
        return units.stream().map(ProcessorUnit::stats).toList();
    }

    /** The Kafka bootstrap servers the node uses (the embedded broker's when it runs one). */
    public String bootstrapServers() {
        return bootstrap;
    }

    /** The front-end (for in-process callers and tests). */
    public FrontEnd frontEnd() {
        return frontEnd;
    }

    /** Blocks until {@link #close()} has completed (from another thread or a shutdown hook). */
    public void awaitTermination() throws InterruptedException {
        terminated.await();
    }

    /**
     * Graceful shutdown: stops accepting requests, finishes those in flight, takes a final checkpoint
     * of every task, leaves the consumer group, stops the embedded broker. Idempotent.
     */
    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        LOG.log(System.Logger.Level.INFO, "node {0} stopping: final checkpoints, leaving the group", config.nodeId());
        long started = System.nanoTime();
        for (int i = resources.size() - 1; i >= 0; i--) {
            try {
                resources.get(i).close();
            } catch (Exception e) {
                LOG.log(System.Logger.Level.WARNING, "while stopping " + resources.get(i).getClass().getSimpleName(), e);
            }
        }
        LOG.log(System.Logger.Level.INFO, "node {0} stopped in {1} ms", config.nodeId(), (System.nanoTime() - started) / 1_000_000);
        terminated.countDown();
    }

    /**
     * The embedded broker's credentials when tokens are set, else null: with tokens, the HTTP API
     * refuses anonymous callers, and the broker must not let them read the catalog or produce events
     * that are counted; without tokens anyone who can reach the broker (this machine) can reach the
     * API too.
     */
    private BrokerCredentials brokerCredentials(Path data) {
        if (config.ingestToken() == null && config.adminToken() == null) {
            return null;
        }
        try {
            return BrokerCredentials.loadOrCreate(data);
        } catch (IOException e) {
            throw new UncheckedIOException("the embedded broker's credentials cannot be kept in " + data + ": "
                    + e.getMessage(), e);
        }
    }
}
