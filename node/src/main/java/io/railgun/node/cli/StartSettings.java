package io.railgun.node.cli;

import io.railgun.node.NodeConfig;

import java.nio.file.Path;
import java.util.List;

/**
 * The settings of {@code railgun start}, one per field of {@link NodeConfig}, with the defaults of
 * {@link NodeConfig#defaults()}. Also the names of the Kafka client property passthrough and of the
 * config file setting, which exist on the command line and in the environment only.
 */
public final class StartSettings {
    private static final NodeConfig DEFAULTS = NodeConfig.defaults();

    public static final Setting<String> HOST = Setting.of("host", "HOST", ValueTypes.HOST, DEFAULTS.host(),
            "HTTP bind address; 0.0.0.0 listens on every interface");
    public static final Setting<Integer> PORT = Setting.of("port", "PORT", ValueTypes.PORT, DEFAULTS.port(),
            "HTTP port; 0 picks a free one");
    public static final Setting<Path> DATA_DIR = Setting.of("data-dir", "DIR", ValueTypes.PATH, DEFAULTS.dataDir(),
            "All local data: tasks' reservoirs, state and checkpoints, the embedded broker's log;"
                    + " relative to the working directory");
    public static final Setting<String> KAFKA = Setting.of("kafka", "HOST:PORT[,HOST:PORT...]",
                    ValueTypes.BOOTSTRAP_SERVERS, DEFAULTS.kafka(),
                    "Bootstrap servers of an external Kafka cluster; without it the node starts an embedded"
                            + " single-node broker (KRaft)")
            .withDefaultText("none (embedded broker)");
    public static final Setting<Integer> BROKER_PORT = Setting.of("broker-port", "PORT", ValueTypes.PORT,
            DEFAULTS.brokerPort(), "The embedded broker's port; 0 picks a free one; ignored with --kafka");
    public static final Setting<String> NODE_ID = Setting.of("node-id", "ID", ValueTypes.NODE_ID, DEFAULTS.nodeId(),
            "This node's name in the cluster, unique per cluster (1-100 letters, digits, '.', '_', '-')");
    public static final Setting<Integer> PROCESSORS = Setting.of("processors", "P", ValueTypes.POSITIVE_INT,
                    DEFAULTS.processors(), "Processor units: threads each running a set of tasks")
            .withDefaultText("the machine's cores but one, at least 1 (" + DEFAULTS.processors() + " here)");
    public static final Setting<Integer> REPLICATION = Setting.of("replication", "R", ValueTypes.POSITIVE_INT,
            DEFAULTS.replication(), "Copies of each task across the cluster: one active and R-1 hot replicas on"
                    + " other nodes, which answer too and take over without a copy or a replay (not Kafka topics' replication: --topic-replication)");
    public static final Setting<Integer> TOPIC_REPLICATION = Setting.of("topic-replication", "auto|N",
            ValueTypes.TOPIC_REPLICATION, DEFAULTS.topicReplication(), "Copies of each topic the node creates (input,"
                    + " control, replies, ingestion): auto is min(3, brokers in the cluster); with 3 or more copies"
                    + " min.insync.replicas=2");
    public static final Setting<Long> INPUT_RETENTION = Setting.of("input-retention", "DURATION|forever",
            ValueTypes.RETENTION, DEFAULTS.inputRetentionMs(), "How long the input topics of new streams keep events"
                    + " (Kafka retention.ms) unless the stream sets inputRetention; at least 1m");
    public static final Setting<String> INGEST_TOKEN = Setting.of("ingest-token", "TOKEN", ValueTypes.TEXT,
            DEFAULTS.ingestToken(), "Bearer token required to send events and read metrics").asSecret();
    public static final Setting<String> ADMIN_TOKEN = Setting.of("admin-token", "TOKEN", ValueTypes.TEXT,
            DEFAULTS.adminToken(), "Bearer token required for everything (streams, metrics, events, reads)")
            .asSecret();
    public static final Setting<Path> TLS_KEYSTORE = Setting.of("tls-keystore", "FILE", ValueTypes.PATH,
            DEFAULTS.tlsKeystore(), "PKCS12 keystore holding the HTTPS certificate and key; without it plain HTTP")
            .withDefaultText("none (plain HTTP)");
    public static final Setting<String> TLS_KEYSTORE_PASSWORD = Setting.of("tls-keystore-password", "PASSWORD",
            ValueTypes.TEXT, DEFAULTS.tlsKeystorePassword(), "Password of --tls-keystore").asSecret();
    public static final Setting<Long> MAX_BODY_BYTES = Setting.of("max-body-bytes", "SIZE", ValueTypes.BYTES,
            DEFAULTS.maxBodyBytes(), "Largest request body accepted (413 beyond), e.g. 16MiB, 512k");
    public static final Setting<Integer> MAX_BATCH_EVENTS = Setting.of("max-batch-events", "N",
            ValueTypes.POSITIVE_INT, DEFAULTS.maxBatchEvents(), "Most events in one batch request (413 beyond)");
    public static final Setting<Long> REQUEST_TIMEOUT = Setting.of("request-timeout", "DURATION",
            ValueTypes.POSITIVE_DURATION, DEFAULTS.requestTimeoutMs(),
            "How long a request waits for its replies before 503 with Retry-After");
    public static final Setting<Long> CHECKPOINT_INTERVAL = Setting.of("checkpoint-interval", "DURATION",
            ValueTypes.POSITIVE_DURATION, DEFAULTS.checkpointIntervalMs(), "How often each task checkpoints");
    public static final Setting<Integer> HOT_KEYS = Setting.of("hot-keys", "N", ValueTypes.POSITIVE_INT,
            DEFAULTS.hotKeys(), "Most keys kept in memory (hot tier) per GROUP BY field list per task; the rest on"
                    + " disk. By default no cap: each task's share of --state-memory holds as many keys as their"
                    + " measured size fits").withDefaultText("from --state-memory");
    public static final Setting<Long> MIN_DEDUP_HORIZON = Setting.of("min-dedup-horizon", "DURATION",
            ValueTypes.DURATION, DEFAULTS.minDedupHorizonMs(),
            "Shortest time event ids are remembered to detect duplicates (longer when windows are longer)");
    public static final Setting<Long> STATE_MEMORY = Setting.of("state-memory", "SIZE", ValueTypes.MEMORY_BYTES,
            DEFAULTS.stateMemoryBytes(), "State memory of the node, shared by all its tasks: 30% RocksDB (one block"
                    + " cache, memtables charged to it; off-heap), 40% hot keys, 20% write buffers and checkpoint"
                    + " snapshots, 10% dedup ids of long horizons (heap); at least 64MiB. Keep the heap (-Xmx) at least 70% of it plus"
                    + " 0.5GiB (the reservoirs' caches, Kafka clients)");

    public static final Setting<Integer> MAX_CONNECTIONS = Setting.of("max-connections", "N", ValueTypes.POSITIVE_INT,
                    DEFAULTS.maxConnections(), "Most HTTP connections open at once; more are refused as they"
                            + " connect (keep it well below the file descriptor limit, 'ulimit -n')")
            .withDefaultText("half the file descriptor limit, 64 to 10000 (" + DEFAULTS.maxConnections() + " here)");
    public static final Setting<Integer> MAX_CONNECTIONS_PER_ADDRESS = Setting.of("max-connections-per-address", "N",
            ValueTypes.POSITIVE_INT, DEFAULTS.maxConnectionsPerAddress(),
            "Most HTTP connections open at once from one client IP address");
    public static final Setting<Long> IDLE_TIMEOUT = Setting.of("idle-timeout", "DURATION",
            ValueTypes.POSITIVE_DURATION, DEFAULTS.idleTimeoutMs(),
            "An HTTP connection with no request under way is closed after this long");
    public static final Setting<Long> HEADER_TIMEOUT = Setting.of("header-timeout", "DURATION",
            ValueTypes.POSITIVE_DURATION, DEFAULTS.headerTimeoutMs(),
            "A request's line and headers (and a TLS handshake) must come within this long (408 beyond)");
    public static final Setting<Long> BODY_TIMEOUT = Setting.of("body-timeout", "DURATION",
            ValueTypes.POSITIVE_DURATION, DEFAULTS.bodyTimeoutMs(),
            "A request's body must come within this long after its headers (408 beyond)");
    public static final Setting<Long> RECOVERY_RATE = Setting.of("recovery-rate", "SIZE", ValueTypes.BYTES,
            DEFAULTS.recoveryRateBytes(), "Most bytes per second this node copies from peers when it recovers"
                    + " tasks (all recoveries together), e.g. 50MiB, 200MiB");

    /** The settings that make a {@link NodeConfig}, in {@code --help} order. */
    public static final List<Setting<?>> ALL = List.of(HOST, PORT, DATA_DIR, KAFKA, BROKER_PORT, NODE_ID, PROCESSORS,
            REPLICATION, TOPIC_REPLICATION, INPUT_RETENTION, INGEST_TOKEN, ADMIN_TOKEN, TLS_KEYSTORE,
            TLS_KEYSTORE_PASSWORD, MAX_BODY_BYTES, MAX_BATCH_EVENTS, REQUEST_TIMEOUT, CHECKPOINT_INTERVAL, HOT_KEYS,
            MIN_DEDUP_HORIZON, STATE_MEMORY, MAX_CONNECTIONS, MAX_CONNECTIONS_PER_ADDRESS, IDLE_TIMEOUT, HEADER_TIMEOUT,
            BODY_TIMEOUT, RECOVERY_RATE);

    /** The config file; a flag or an environment variable, never a key inside a config file. */
    public static final Setting<Path> CONFIG = Setting.of("config", "FILE", ValueTypes.PATH, null,
            "Properties (.properties) or YAML (.yaml, .yml) file with the same keys as the flags, without dashes");

    /** Flag {@code --kafka-property KEY=VALUE}, file keys {@code kafka-property.KEY}. */
    public static final String KAFKA_PROPERTY = "kafka-property";
    /** File keys {@code kafka-property.security.protocol} ... */
    public static final String KAFKA_PROPERTY_PREFIX = KAFKA_PROPERTY + ".";
    /** {@code RAILGUN_KAFKA_PROPERTY_SECURITY_PROTOCOL} is {@code security.protocol}: lower-cased, {@code _} to {@code .}. */
    public static final String KAFKA_PROPERTY_ENV_PREFIX = "RAILGUN_KAFKA_PROPERTY_";

    private StartSettings() {
    }
}
