package io.railgun.node;

import java.nio.file.Path;
import java.util.Map;

/**
 * Everything a node is started with (SPEC §2). The CLI builds it from flags, a config file and
 * {@code RAILGUN_*} environment variables; tests build it directly.
 *
 * @param host                 HTTP bind address (127.0.0.1 by default: not reachable from other machines)
 * @param port                 HTTP port (7070; 0 picks a free one)
 * @param dataDir              all local data: tasks' reservoirs and state, the embedded broker's log
 * @param kafka                bootstrap servers of an external cluster, or null to start an embedded broker
 * @param brokerPort           the embedded broker's port (0 picks a free one); unused with {@code kafka}
 * @param nodeId               this node's name in the cluster (consumer group member ids, its reply topic)
 * @param processors           processor units: threads each running a set of tasks
 * @param replication          copies of each task across the cluster: one active and {@code replication - 1}
 *                             hot replicas on other nodes (docs/distribution.md § Replica tasks)
 * @param ingestToken          bearer token for events and point reads, or null (no check)
 * @param adminToken           bearer token for everything (streams, metrics, events, reads), or null
 * @param tlsKeystore          PKCS12 keystore of the HTTPS certificate, or null for plain HTTP
 * @param tlsKeystorePassword  its password
 * @param kafkaProperties      passed to every Kafka client the node creates (security.protocol, sasl.*, ssl.* ...)
 * @param maxBodyBytes         largest request body accepted (413 beyond)
 * @param maxBatchEvents       most events in one batch (413 beyond)
 * @param requestTimeoutMs     how long a request waits for its replies before 503 with Retry-After
 * @param checkpointIntervalMs how often each task checkpoints
 * @param hotKeys              at most this many hot-tier keys per GROUP BY field list per task; by default
 *                             ({@link #DEFAULT_HOT_KEYS}, no cap) the state memory budget alone decides: a
 *                             task's hot share holds as many keys as their measured size fits
 * @param minDedupHorizonMs    the shortest dedup horizon (event ids remembered at least this long)
 * @param maxConnections       most HTTP connections open at once (refused at once beyond)
 * @param maxConnectionsPerAddress most HTTP connections open at once from one client address
 * @param idleTimeoutMs        an HTTP connection with no request under way is closed after this long
 * @param headerTimeoutMs      a request's head (request line and headers; the TLS handshake) must come
 *                             within this long of its first byte (408, and closed, beyond)
 * @param bodyTimeoutMs        a request's body must come within this long of its head (408 beyond)
 * @param recoveryRateBytes    the most bytes per second this node copies from peers when it recovers tasks
 * @param topicReplication     copies of each topic the node creates, or {@link #AUTO_TOPIC_REPLICATION}
 *                             for min(3, brokers in the cluster)
 * @param inputRetentionMs     how long input topics keep events, for streams created without their own
 *                             {@code inputRetention}; {@link #KEEP_FOREVER} keeps everything
 * @param stateMemoryBytes     the node's state memory budget, shared by all its tasks: RocksDB's one
 *                             block cache and memtables, the hot tiers, the write buffers and
 *                             checkpoint snapshots ({@code StateMemory}; 1 GiB by default, at least 64 MiB)
 */
public record NodeConfig(
        String host,
        int port,
        Path dataDir,
        String kafka,
        int brokerPort,
        String nodeId,
        int processors,
        int replication,
        String ingestToken,
        String adminToken,
        Path tlsKeystore,
        String tlsKeystorePassword,
        Map<String, String> kafkaProperties,
        long maxBodyBytes,
        int maxBatchEvents,
        long requestTimeoutMs,
        long checkpointIntervalMs,
        int hotKeys,
        long minDedupHorizonMs,
        int maxConnections,
        int maxConnectionsPerAddress,
        long idleTimeoutMs,
        long headerTimeoutMs,
        long bodyTimeoutMs,
        long recoveryRateBytes,
        int topicReplication,
        long inputRetentionMs,
        long stateMemoryBytes) {

    public static final String DEFAULT_HOST = "127.0.0.1";
    /** {@link #topicReplication}: min(3, brokers in the cluster). */
    public static final int AUTO_TOPIC_REPLICATION = 0;
    /** {@link #inputRetentionMs}: Kafka's {@code retention.ms=-1}, nothing deleted. */
    public static final long KEEP_FOREVER = -1;
    /** The default input retention: a week, long enough for a task to catch up from a peer's checkpoint. */
    public static final long DEFAULT_INPUT_RETENTION_MS = 7 * 86_400_000L;
    public static final int DEFAULT_PORT = 7070;
    /** 50 MiB/s: a 7-day task of 1M events (about 100 MB) in about 2 s, leaving the disk to active tasks. */
    public static final long DEFAULT_RECOVERY_RATE_BYTES = 50L << 20;
    /** Default hot-key cap: none, the state memory budget sizes each task's hot tier. */
    public static final int DEFAULT_HOT_KEYS = Integer.MAX_VALUE;
    /** Default state memory budget: 1 GiB (0.4 GiB RocksDB off-heap, 0.6 GiB of heap). */
    public static final long DEFAULT_STATE_MEMORY_BYTES = 1L << 30;

    public NodeConfig {
        kafkaProperties = Map.copyOf(kafkaProperties);
        if (processors < 1) {
            throw new IllegalArgumentException("processors must be at least 1");
        }
        if (replication < 1) {
            throw new IllegalArgumentException("replication must be at least 1");
        }
        if (nodeId == null || !nodeId.matches("[A-Za-z0-9._-]{1,100}")) {
            throw new IllegalArgumentException("node id must be 1-100 characters of letters, digits, '.', '_' or '-'");
        }
        if (maxConnections < 1 || maxConnectionsPerAddress < 1) {
            throw new IllegalArgumentException("max-connections and max-connections-per-address must be at least 1");
        }
        if (idleTimeoutMs < 1 || headerTimeoutMs < 1 || bodyTimeoutMs < 1) {
            throw new IllegalArgumentException("idle-timeout, header-timeout and body-timeout must be positive");
        }
        if (recoveryRateBytes < 1) {
            throw new IllegalArgumentException("recovery-rate must be positive");
        }
        if (topicReplication < 0 || topicReplication > Short.MAX_VALUE) {
            throw new IllegalArgumentException("topic-replication must be auto or a number of copies of at least 1");
        }
        if (inputRetentionMs != KEEP_FOREVER && inputRetentionMs < 1) {
            throw new IllegalArgumentException("input-retention must be a positive duration or forever");
        }
        if (stateMemoryBytes < DEFAULT_STATE_MEMORY_BYTES / 16) {
            throw new IllegalArgumentException("state-memory must be at least 64 MiB, not " + stateMemoryBytes + " bytes");
        }
    }

    /** The default of {@link #maxConnections}: half the file descriptor limit, at least 64, at most 10,000. */
    public static int defaultMaxConnections() {
        long fds = fileDescriptorLimit();
        return fds <= 0 ? 10_000 : (int) Math.max(64, Math.min(10_000, fds / 2));
    }

    /**
     * The process's file descriptor limit (the JVM raises the soft limit to the hard one at start), or
     * -1 when the platform does not tell.
     */
    public static long fileDescriptorLimit() {
        if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            return unix.getMaxFileDescriptorCount();
        }
        return -1;
    }

    /**
     * Processor units by default: one per core (the JVM's available processors: a container's CPU
     * limit) but one, which is left to the HTTP event loops, the Kafka clients' threads and, by
     * default, the embedded broker (on 2 cores, one unit measured 90–93 µs of node CPU per event
     * against 96–104 for two, with fewer threads waiting for a CPU: docs/benchmarks.md).
     */
    static int defaultProcessors(int cores) {
        return Math.max(1, cores - 1);
    }

    /** The single-node default of {@code ./railgun start}: embedded broker, data under {@code ./data}. */
    public static NodeConfig defaults() {
        return new NodeConfig(DEFAULT_HOST, DEFAULT_PORT, Path.of("data"), null, 0, "node-1",
                defaultProcessors(Runtime.getRuntime().availableProcessors()), 1, null, null, null, null, Map.of(),
                16L << 20, 10_000, 10_000, 10_000, DEFAULT_HOT_KEYS, 3_600_000L, defaultMaxConnections(), 1_000, 60_000,
                10_000, 30_000, DEFAULT_RECOVERY_RATE_BYTES, AUTO_TOPIC_REPLICATION,
                DEFAULT_INPUT_RETENTION_MS, DEFAULT_STATE_MEMORY_BYTES);
    }

    public NodeConfig withHttp(String newHost, int newPort) {
        return new NodeConfig(newHost, newPort, dataDir, kafka, brokerPort, nodeId, processors, replication, ingestToken,
                adminToken, tlsKeystore, tlsKeystorePassword, kafkaProperties, maxBodyBytes, maxBatchEvents,
                requestTimeoutMs, checkpointIntervalMs, hotKeys, minDedupHorizonMs, maxConnections,
                maxConnectionsPerAddress, idleTimeoutMs, headerTimeoutMs, bodyTimeoutMs, recoveryRateBytes, topicReplication, inputRetentionMs,
                stateMemoryBytes);
    }

    public NodeConfig withDataDir(Path dir) {
        return new NodeConfig(host, port, dir, kafka, brokerPort, nodeId, processors, replication, ingestToken,
                adminToken, tlsKeystore, tlsKeystorePassword, kafkaProperties, maxBodyBytes, maxBatchEvents,
                requestTimeoutMs, checkpointIntervalMs, hotKeys, minDedupHorizonMs, maxConnections,
                maxConnectionsPerAddress, idleTimeoutMs, headerTimeoutMs, bodyTimeoutMs, recoveryRateBytes, topicReplication, inputRetentionMs,
                stateMemoryBytes);
    }

    public NodeConfig withKafka(String bootstrap) {
        return new NodeConfig(host, port, dataDir, bootstrap, brokerPort, nodeId, processors, replication, ingestToken,
                adminToken, tlsKeystore, tlsKeystorePassword, kafkaProperties, maxBodyBytes, maxBatchEvents,
                requestTimeoutMs, checkpointIntervalMs, hotKeys, minDedupHorizonMs, maxConnections,
                maxConnectionsPerAddress, idleTimeoutMs, headerTimeoutMs, bodyTimeoutMs, recoveryRateBytes, topicReplication, inputRetentionMs,
                stateMemoryBytes);
    }

    public NodeConfig withTokens(String ingest, String admin) {
        return new NodeConfig(host, port, dataDir, kafka, brokerPort, nodeId, processors, replication, ingest, admin,
                tlsKeystore, tlsKeystorePassword, kafkaProperties, maxBodyBytes, maxBatchEvents, requestTimeoutMs,
                checkpointIntervalMs, hotKeys, minDedupHorizonMs, maxConnections,
                maxConnectionsPerAddress, idleTimeoutMs, headerTimeoutMs, bodyTimeoutMs, recoveryRateBytes, topicReplication, inputRetentionMs,
                stateMemoryBytes);
    }

    public NodeConfig withTls(Path keystore, String password) {
        return new NodeConfig(host, port, dataDir, kafka, brokerPort, nodeId, processors, replication, ingestToken,
                adminToken, keystore, password, kafkaProperties, maxBodyBytes, maxBatchEvents, requestTimeoutMs,
                checkpointIntervalMs, hotKeys, minDedupHorizonMs, maxConnections,
                maxConnectionsPerAddress, idleTimeoutMs, headerTimeoutMs, bodyTimeoutMs, recoveryRateBytes, topicReplication, inputRetentionMs,
                stateMemoryBytes);
    }

    public NodeConfig withLimits(long bodyBytes, int batchEvents, long timeoutMs) {
        return new NodeConfig(host, port, dataDir, kafka, brokerPort, nodeId, processors, replication, ingestToken,
                adminToken, tlsKeystore, tlsKeystorePassword, kafkaProperties, bodyBytes, batchEvents, timeoutMs,
                checkpointIntervalMs, hotKeys, minDedupHorizonMs, maxConnections,
                maxConnectionsPerAddress, idleTimeoutMs, headerTimeoutMs, bodyTimeoutMs, recoveryRateBytes, topicReplication, inputRetentionMs,
                stateMemoryBytes);
    }

    public NodeConfig withProcessors(int units) {
        return new NodeConfig(host, port, dataDir, kafka, brokerPort, nodeId, units, replication, ingestToken,
                adminToken, tlsKeystore, tlsKeystorePassword, kafkaProperties, maxBodyBytes, maxBatchEvents,
                requestTimeoutMs, checkpointIntervalMs, hotKeys, minDedupHorizonMs, maxConnections,
                maxConnectionsPerAddress, idleTimeoutMs, headerTimeoutMs, bodyTimeoutMs, recoveryRateBytes, topicReplication, inputRetentionMs,
                stateMemoryBytes);
    }

    public NodeConfig withKafkaProperties(Map<String, String> props) {
        return new NodeConfig(host, port, dataDir, kafka, brokerPort, nodeId, processors, replication, ingestToken,
                adminToken, tlsKeystore, tlsKeystorePassword, props, maxBodyBytes, maxBatchEvents, requestTimeoutMs,
                checkpointIntervalMs, hotKeys, minDedupHorizonMs, maxConnections,
                maxConnectionsPerAddress, idleTimeoutMs, headerTimeoutMs, bodyTimeoutMs, recoveryRateBytes, topicReplication, inputRetentionMs,
                stateMemoryBytes);
    }

    public NodeConfig withEngine(long checkpointMs, int hotKeyLimit, long minDedupMs) {
        return new NodeConfig(host, port, dataDir, kafka, brokerPort, nodeId, processors, replication, ingestToken,
                adminToken, tlsKeystore, tlsKeystorePassword, kafkaProperties, maxBodyBytes, maxBatchEvents,
                requestTimeoutMs, checkpointMs, hotKeyLimit, minDedupMs, maxConnections,
                maxConnectionsPerAddress, idleTimeoutMs, headerTimeoutMs, bodyTimeoutMs, recoveryRateBytes, topicReplication, inputRetentionMs,
                stateMemoryBytes);
    }

    public NodeConfig withRecoveryRate(long bytesPerSecond) {
        return new NodeConfig(host, port, dataDir, kafka, brokerPort, nodeId, processors, replication, ingestToken,
                adminToken, tlsKeystore, tlsKeystorePassword, kafkaProperties, maxBodyBytes, maxBatchEvents,
                requestTimeoutMs, checkpointIntervalMs, hotKeys, minDedupHorizonMs, maxConnections,
                maxConnectionsPerAddress, idleTimeoutMs, headerTimeoutMs, bodyTimeoutMs, bytesPerSecond, topicReplication, inputRetentionMs,
                stateMemoryBytes);
    }

    public NodeConfig withConnections(int maxConns, int maxPerAddress, long idleMs, long headerMs, long bodyMs) {
        return new NodeConfig(host, port, dataDir, kafka, brokerPort, nodeId, processors, replication, ingestToken,
                adminToken, tlsKeystore, tlsKeystorePassword, kafkaProperties, maxBodyBytes, maxBatchEvents,
                requestTimeoutMs, checkpointIntervalMs, hotKeys, minDedupHorizonMs, maxConns, maxPerAddress, idleMs,
                headerMs, bodyMs, recoveryRateBytes, topicReplication, inputRetentionMs,
                stateMemoryBytes);
    }

    /** This node's id in the cluster and the task copies it asks the task group for (replica tasks). */
    public NodeConfig withNode(String id, int taskCopies) {
        return new NodeConfig(host, port, dataDir, kafka, brokerPort, id, processors, taskCopies, ingestToken,
                adminToken, tlsKeystore, tlsKeystorePassword, kafkaProperties, maxBodyBytes, maxBatchEvents,
                requestTimeoutMs, checkpointIntervalMs, hotKeys, minDedupHorizonMs, maxConnections,
                maxConnectionsPerAddress, idleTimeoutMs, headerTimeoutMs, bodyTimeoutMs, recoveryRateBytes, topicReplication, inputRetentionMs,
                stateMemoryBytes);
    }

    public NodeConfig withTopics(int copies, long inputRetention) {
        return new NodeConfig(host, port, dataDir, kafka, brokerPort, nodeId, processors, replication, ingestToken,
                adminToken, tlsKeystore, tlsKeystorePassword, kafkaProperties, maxBodyBytes, maxBatchEvents,
                requestTimeoutMs, checkpointIntervalMs, hotKeys, minDedupHorizonMs, maxConnections,
                maxConnectionsPerAddress, idleTimeoutMs, headerTimeoutMs, bodyTimeoutMs, recoveryRateBytes, copies,
                inputRetention, stateMemoryBytes);
    }

    public NodeConfig withStateMemory(long bytes) {
        return new NodeConfig(host, port, dataDir, kafka, brokerPort, nodeId, processors, replication, ingestToken,
                adminToken, tlsKeystore, tlsKeystorePassword, kafkaProperties, maxBodyBytes, maxBatchEvents,
                requestTimeoutMs, checkpointIntervalMs, hotKeys, minDedupHorizonMs, maxConnections,
                maxConnectionsPerAddress, idleTimeoutMs, headerTimeoutMs, bodyTimeoutMs, recoveryRateBytes, topicReplication,
                inputRetentionMs, bytes);
    }
}
