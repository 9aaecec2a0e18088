package io.railgun.node.cli;

import io.railgun.node.broker.BrokerCredentials;
import io.railgun.node.broker.ClusterLayout;
import java.nio.file.Path;
import java.util.List;

/**
 * The settings of {@code railgun broker}. Its environment variables are {@code RAILGUN_BROKER_*}
 * so that they do not collide with a node's {@code RAILGUN_PORT} and {@code RAILGUN_DATA_DIR};
 * {@code RAILGUN_BROKER_PORT} is shared with {@code start --broker-port}: both mean the port of
 * the local broker.
 *
 * <p>Without {@code --broker-id} the command runs one broker, as always. With it, the broker is one of
 * a KRaft cluster ({@link ClusterLayout}): {@code --cluster-size} brokers on this machine on the ports
 * of {@code --base-port}, or the quorum named by {@code --voters} across machines.
 */
public final class BrokerSettings {
    public static final int DEFAULT_PORT = 9092;

    public static final Setting<Path> DATA_DIR = Setting.of("data-dir", "DIR", ValueTypes.PATH,
                    Path.of("data", "broker"), "The broker's log and KRaft metadata; relative to the working directory;"
                            + " in a cluster ./data/broker-I by default (one directory per broker)")
            .withEnvVar("RAILGUN_BROKER_DATA_DIR");
    public static final Setting<Integer> PORT = Setting.of("port", "PORT", ValueTypes.PORT, DEFAULT_PORT,
                    "Port of a single broker; 0 picks a free one (a cluster's ports follow --base-port)")
            .withEnvVar("RAILGUN_BROKER_PORT");
    public static final Setting<Integer> BROKER_ID = Setting.of("broker-id", "I", ValueTypes.POSITIVE_INT, null,
                    "This broker's id in a KRaft cluster, 1 to --cluster-size (every broker is also a controller);"
                            + " without it, a single broker")
            .withDefaultText("none (a single broker)").withEnvVar("RAILGUN_BROKER_ID");
    public static final Setting<Integer> CLUSTER_SIZE = Setting.of("cluster-size", "N", ValueTypes.POSITIVE_INT, null,
                    "Brokers in the cluster on this machine, 1 to " + ClusterLayout.MAX_SIZE + "; the same for all of"
                            + " them; internal topics get min(3, N) copies, 2 of them in sync with 3 or more")
            .withDefaultText("none").withEnvVar("RAILGUN_BROKER_CLUSTER_SIZE");
    public static final Setting<Integer> BASE_PORT = Setting.of("base-port", "PORT", ValueTypes.PORT,
                    ClusterLayout.DEFAULT_BASE_PORT, "Client port of broker 1 of a cluster; broker I listens on"
                            + " PORT + " + ClusterLayout.PORT_STRIDE + "*(I-1) and as a controller on the next port")
            .withEnvVar("RAILGUN_BROKER_BASE_PORT");
    public static final Setting<String> HOST = Setting.of("host", "HOST", ValueTypes.HOST, ClusterLayout.LOCAL_HOST,
                    "Address this broker binds to and advertises (the voters' host too, unless --voters)")
            .withEnvVar("RAILGUN_BROKER_HOST");
    public static final Setting<String> VOTERS = Setting.of("voters", "ID@HOST:PORT,...", ValueTypes.TEXT, null,
                    "The controller quorum of a cluster across machines (controller ports), instead of"
                            + " --cluster-size and --base-port; each broker's client port is its controller port - 1")
            .withDefaultText("none (derived from --cluster-size)").withEnvVar("RAILGUN_BROKER_VOTERS");
    public static final Setting<String> CLUSTER_ID = Setting.of("cluster-id", "ID", ValueTypes.TEXT, null,
                    "Kafka cluster id to format a cluster's storage with (22 base64url characters)")
            .withDefaultText("derived from the voters").withEnvVar("RAILGUN_BROKER_CLUSTER_ID");

    public static final Setting<Boolean> SASL = Setting.of("sasl", "true|false", ValueTypes.BOOLEAN, false,
                    "Both listeners take SASL/PLAIN only, as one user whose credentials are generated in the data"
                            + " directory (" + BrokerCredentials.FILE + ", a Kafka client configuration) and printed"
                            + " as the --kafka-property flags of the nodes")
            .withEnvVar("RAILGUN_BROKER_SASL");

    public static final List<Setting<?>> ALL = List.of(DATA_DIR, PORT, SASL, BROKER_ID, CLUSTER_SIZE, BASE_PORT, HOST,
            VOTERS, CLUSTER_ID);

    private BrokerSettings() {
    }
}
