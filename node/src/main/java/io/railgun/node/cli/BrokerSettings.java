package io.railgun.node.cli;

import io.railgun.node.broker.BrokerCredentials;
import java.nio.file.Path;
import java.util.List;

/**
 * The settings of {@code railgun broker}. Its environment variables are {@code RAILGUN_BROKER_*}
 * so that they do not collide with a node's {@code RAILGUN_PORT} and {@code RAILGUN_DATA_DIR};
 * {@code RAILGUN_BROKER_PORT} is shared with {@code start --broker-port}: both mean the port of
 * the local broker.
 */
public final class BrokerSettings {
    public static final int DEFAULT_PORT = 9092;

    public static final Setting<Path> DATA_DIR = Setting.of("data-dir", "DIR", ValueTypes.PATH,
                    Path.of("data", "broker"), "The broker's log and KRaft metadata; relative to the working directory")
            .withEnvVar("RAILGUN_BROKER_DATA_DIR");
    public static final Setting<Integer> PORT = Setting.of("port", "PORT", ValueTypes.PORT, DEFAULT_PORT,
                    "Port on 127.0.0.1; 0 picks a free one")
            .withEnvVar("RAILGUN_BROKER_PORT");

    public static final Setting<Boolean> SASL = Setting.of("sasl", "true|false", ValueTypes.BOOLEAN, false,
                    "Both listeners take SASL/PLAIN only, as one user whose credentials are generated in the data"
                            + " directory (" + BrokerCredentials.FILE + ", a Kafka client configuration) and printed"
                            + " as the --kafka-property flags of the nodes")
            .withEnvVar("RAILGUN_BROKER_SASL");

    public static final List<Setting<?>> ALL = List.of(DATA_DIR, PORT, SASL);

    private BrokerSettings() {
    }
}
