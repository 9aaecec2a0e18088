package io.railgun.node.broker;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;
import java.util.UUID;
import org.apache.kafka.common.Uuid;

/**
 * Where one broker of a KRaft cluster sits: its id, its client listener, and the controller quorum
 * (every broker is also a controller: combined mode, one process per broker). Immutable.
 *
 * <p><b>The port rule</b> of a cluster on one machine ({@link #local}): broker {@code I} of {@code N}
 * listens for clients on {@code base + 10·(I−1)} and as a controller on that port + 1, so with the
 * default base 19092 brokers 1, 2, 3 take 19092/19093, 19102/19103, 19112/19113. The voters
 * {@code 1..N} follow from the same rule, so every broker of the cluster is started with the same
 * {@code --cluster-size} and base port and only its {@code --broker-id} differs. Across machines
 * ({@link #ofVoters}) the voters are given ({@code id@host:controllerPort}) and each broker's client
 * port is its controller port − 1, the same rule read backwards.
 *
 * <p><b>Cluster id.</b> All brokers of a cluster format their storage with one cluster id; unless one
 * is given, it is derived from the voters ({@link #defaultClusterId}), so brokers started alike agree
 * without passing it around, and a broker of another layout cannot join by mistake.
 *
 * <p>{@link #single} is the one-broker layout of {@code ./railgun start} and {@code ./railgun broker}
 * without cluster options: node 1, a controller port picked free at every start (0 here), and a random
 * cluster id chosen when its storage is first formatted ({@code clusterId} null).
 *
 * @param brokerId   this broker's {@code node.id}, one of the voters' ids
 * @param host       the address both listeners bind to and advertise
 * @param clientPort the client (and inter-broker) listener's port; 0 picks a free one ({@link #single} only)
 * @param voters     the controller quorum, in id order
 * @param clusterId  the Kafka cluster id to format with, or null for a random one on first start
 */
public record ClusterLayout(int brokerId, String host, int clientPort, List<Voter> voters, String clusterId) {
    /** The first broker's client port by default; its controller listens on the next port. */
    public static final int DEFAULT_BASE_PORT = 19092;
    /** Ports between one broker's client listener and the next broker's. */
    public static final int PORT_STRIDE = 10;
    /** The host of a cluster on one machine. */
    public static final String LOCAL_HOST = "127.0.0.1";
    /** Most brokers in a cluster: one quorum voter each, and more than a handful of voters only slows elections. */
    public static final int MAX_SIZE = 9;

    /**
     * One controller of the quorum.
     *
     * @param controllerPort its controller listener's port; 0 only in {@link #single}, where it is picked at start
     */
    public record Voter(int id, String host, int controllerPort) {
        /** The client listener's port by the port rule: the controller's port − 1. */
        public int clientPort() {
            return controllerPort - 1;
        }
    }

    public ClusterLayout {
        voters = List.copyOf(voters);
        if (voters.stream().noneMatch(v -> v.id() == brokerId)) {
            throw new IllegalArgumentException("broker " + brokerId + " is not one of the voters " + voters);
        }
        if (clusterId != null) {
            requireClusterId(clusterId);
        }
    }

    /** The single-broker layout (see the class comment): node 1 on {@code host:clientPort}. */
    public static ClusterLayout single(String host, int clientPort) {
        return new ClusterLayout(1, host, clientPort, List.of(new Voter(1, host, 0)), null);
    }

    /**
     * Broker {@code brokerId} of a cluster of {@code size} on {@code host}, by the port rule.
     *
     * @param clusterId the cluster id, or null for {@link #defaultClusterId}
     * @throws IllegalArgumentException with a message naming the option to fix
     */
    public static ClusterLayout local(int brokerId, int size, int basePort, String host, String clusterId) {
        if (size < 1 || size > MAX_SIZE) {
            throw new IllegalArgumentException("--cluster-size must be 1 to " + MAX_SIZE + ", got " + size);
        }
        if (brokerId < 1 || brokerId > size) {
            throw new IllegalArgumentException("--broker-id must be 1 to " + size + " (the --cluster-size), got " + brokerId);
        }
        int lastControllerPort = basePort + PORT_STRIDE * (size - 1) + 1;
        if (basePort < 1 || lastControllerPort > 65_535) {
            throw new IllegalArgumentException("--base-port " + basePort + " leaves no room for " + size + " brokers:"
                    + " broker N listens on base + " + PORT_STRIDE + "*(N-1) and the next port; choose 1 to "
                    + (65_535 - PORT_STRIDE * (size - 1) - 1));
        }
        List<Voter> voters = new ArrayList<>();
        for (int id = 1; id <= size; id++) {
            voters.add(new Voter(id, host, basePort + PORT_STRIDE * (id - 1) + 1));
        }
        return new ClusterLayout(brokerId, host, basePort + PORT_STRIDE * (brokerId - 1), voters,
                clusterId == null ? defaultClusterId(voters) : clusterId);
    }

    /**
     * Broker {@code brokerId} of the cluster whose quorum is {@code spec}, {@code id@host:port,...}
     * (controller ports), as Kafka's {@code controller.quorum.voters}.
     *
     * @param clusterId the cluster id, or null for {@link #defaultClusterId}
     * @throws IllegalArgumentException with a message naming the option to fix
     */
    public static ClusterLayout ofVoters(int brokerId, String spec, String clusterId) {
        List<Voter> voters = parseVoters(spec);
        Voter own = voters.stream().filter(v -> v.id() == brokerId).findFirst().orElseThrow(() ->
                new IllegalArgumentException("--broker-id " + brokerId + " is not in --voters " + spec
                        + "; every broker must be one of the voters (id@host:port)"));
        return new ClusterLayout(brokerId, own.host(), own.clientPort(), voters,
                clusterId == null ? defaultClusterId(voters) : clusterId);
    }

    /** Parses {@code id@host:port,...}; ids 1 and up, unique, ports 2 to 65535 (the client takes port − 1). */
    static List<Voter> parseVoters(String spec) {
        List<Voter> voters = new ArrayList<>();
        Set<Integer> ids = new HashSet<>();
        for (String entry : spec.split(",", -1)) {
            String e = entry.strip();
            int at = e.indexOf('@');
            int colon = e.lastIndexOf(':');
            if (at < 1 || colon < at + 2 || colon == e.length() - 1) {
                throw new IllegalArgumentException("--voters entry '" + e + "' is not id@host:port (a controller port),"
                        + " e.g. --voters 1@10.0.0.1:19093,2@10.0.0.2:19093,3@10.0.0.3:19093");
            }
            int id;
            int port;
            try {
                id = Integer.parseInt(e.substring(0, at));
                port = Integer.parseInt(e.substring(colon + 1));
            } catch (NumberFormatException ex) {
                throw new IllegalArgumentException("--voters entry '" + e + "' is not id@host:port with a numeric id"
                        + " and port, e.g. 1@10.0.0.1:19093");
            }
            if (id < 1 || port < 2 || port > 65_535) {
                throw new IllegalArgumentException("--voters entry '" + e + "': ids start at 1 and controller ports are"
                        + " 2 to 65535 (the broker's client listener takes the port below)");
            }
            if (!ids.add(id)) {
                throw new IllegalArgumentException("--voters names broker " + id + " twice");
            }
            voters.add(new Voter(id, e.substring(at + 1, colon), port));
        }
        if (voters.size() > MAX_SIZE) {
            throw new IllegalArgumentException("--voters names " + voters.size() + " brokers; at most " + MAX_SIZE);
        }
        voters.sort(java.util.Comparator.comparingInt(Voter::id));
        return voters;
    }

    /**
     * The cluster id of a quorum nobody named one for: a name-based UUID of its voters, so brokers
     * started with the same layout agree, as a Kafka cluster id (22 characters of base64url).
     */
    public static String defaultClusterId(List<Voter> voters) {
        UUID uuid = UUID.nameUUIDFromBytes(("railgun-kraft:" + quorumVoters(voters)).getBytes(StandardCharsets.UTF_8));
        return new Uuid(uuid.getMostSignificantBits(), uuid.getLeastSignificantBits()).toString();
    }

    /** @throws IllegalArgumentException when {@code id} is not a Kafka cluster id */
    public static void requireClusterId(String id) {
        try {
            Uuid parsed = Uuid.fromString(id);
            if (parsed.equals(Uuid.ZERO_UUID) || parsed.equals(Uuid.METADATA_TOPIC_ID)) {
                throw new IllegalArgumentException("reserved");
            }
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--cluster-id '" + id + "' is not a Kafka cluster id (22 characters of"
                    + " base64url, as kafka-storage.sh random-uuid prints, e.g. " + Uuid.randomUuid() + ")");
        }
    }

    /** Whether this is the {@link #single} layout, whose controller port is picked at start. */
    public boolean isSingle() {
        return voters.size() == 1 && voters.getFirst().controllerPort() == 0;
    }

    /** How many brokers (voters) the cluster has. */
    public int size() {
        return voters.size();
    }

    /** This broker's controller port (0 in {@link #single}: picked at start). */
    public int controllerPort() {
        return voters.stream().filter(v -> v.id() == brokerId).findFirst().orElseThrow().controllerPort();
    }

    /** Every broker's client listener, for a node's {@code --kafka}: {@code host:port,host:port,...}. */
    public String bootstrapServers() {
        if (isSingle()) {
            return host + ":" + clientPort;
        }
        StringJoiner all = new StringJoiner(",");
        voters.forEach(v -> all.add(v.host() + ":" + v.clientPort()));
        return all.toString();
    }

    /** Kafka's {@code controller.quorum.voters} for these voters. */
    static String quorumVoters(List<Voter> voters) {
        StringJoiner all = new StringJoiner(",");
        voters.forEach(v -> all.add(v.id() + "@" + v.host() + ":" + v.controllerPort()));
        return all.toString();
    }

    /** Copies of the internal topics (consumer offsets, transactions): 3, or every broker of a smaller cluster. */
    public int internalReplication() {
        return Math.min(3, size());
    }

    /** Copies that must have a write before it is acknowledged: 2 with three copies or more, else 1. */
    public int minInsyncReplicas() {
        return internalReplication() >= 3 ? 2 : 1;
    }
}
