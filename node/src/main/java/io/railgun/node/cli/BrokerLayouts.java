package io.railgun.node.cli;

import io.railgun.node.broker.ClusterLayout;
import java.nio.file.Path;
import java.util.List;

/**
 * Turns the settings of {@code railgun broker} into where the broker sits ({@link ClusterLayout}) and
 * its data directory: a single broker without {@code --broker-id}, else broker I of a cluster on this
 * machine ({@code --cluster-size}, {@code --base-port}) or across machines ({@code --voters}).
 * Pure; conflicting or missing options are {@link ConfigException}s that say what to pass.
 */
final class BrokerLayouts {
    /** The layout and the data directory of one broker. */
    record Placed(ClusterLayout layout, Path dataDir) {}

    private BrokerLayouts() {
    }

    /** @param layers highest precedence first: flags, environment */
    static Placed resolve(List<ConfigLayer> layers) {
        SettingValue<Path> dataDir = SettingValue.pick(BrokerSettings.DATA_DIR, layers);
        SettingValue<Integer> port = SettingValue.pick(BrokerSettings.PORT, layers);
        SettingValue<Integer> id = SettingValue.pick(BrokerSettings.BROKER_ID, layers);
        SettingValue<Integer> size = SettingValue.pick(BrokerSettings.CLUSTER_SIZE, layers);
        SettingValue<Integer> basePort = SettingValue.pick(BrokerSettings.BASE_PORT, layers);
        SettingValue<String> host = SettingValue.pick(BrokerSettings.HOST, layers);
        SettingValue<String> voters = SettingValue.pick(BrokerSettings.VOTERS, layers);
        SettingValue<String> clusterId = SettingValue.pick(BrokerSettings.CLUSTER_ID, layers);

        if (List.of("0.0.0.0", "::", "[::]").contains(host.value())) {
            throw new ConfigException(ConfigException.INVALID_VALUE, host.origin() + " " + host.value() + ": a broker"
                    + " advertises this address to its clients and the other brokers, so it must be one they can reach"
                    + " (this machine's name or IP address), not the wildcard");
        }
        if (id.value() == null) {
            for (SettingValue<?> clusterOnly : List.of(size, basePort, voters, clusterId)) {
                if (!clusterOnly.isDefault()) {
                    throw conflict(clusterOnly.origin() + " is for a broker of a cluster: add --broker-id I (1 to the"
                            + " cluster size), e.g. --broker-id 1 --cluster-size 3");
                }
            }
            return new Placed(ClusterLayout.single(host.value(), port.value()), dataDir.value());
        }
        if (!port.isDefault()) {
            throw conflict(port.origin() + " is for a single broker; a cluster's ports follow --base-port (broker I"
                    + " listens on base + " + ClusterLayout.PORT_STRIDE + "*(I-1)) or --voters");
        }
        ClusterLayout layout;
        try {
            if (voters.value() != null) {
                for (SettingValue<?> local : List.of(size, basePort, host)) {
                    if (!local.isDefault()) {
                        throw conflict(local.origin() + " and " + voters.origin() + " both place the brokers: --voters"
                                + " names every broker's host and controller port, so leave " + local.origin() + " out");
                    }
                }
                layout = ClusterLayout.ofVoters(id.value(), voters.value(), clusterId.value());
            } else if (size.value() == null) {
                throw new ConfigException(ConfigException.INVALID_VALUE, id.origin() + " needs the number of brokers:"
                        + " add --cluster-size N (the same for every broker), or --voters across machines");
            } else {
                layout = ClusterLayout.local(id.value(), size.value(), basePort.value(), host.value(), clusterId.value());
            }
        } catch (IllegalArgumentException e) {
            throw new ConfigException(ConfigException.INVALID_VALUE, e.getMessage());
        }
        Path dir = dataDir.isDefault() ? Path.of("data", "broker-" + id.value()) : dataDir.value();
        return new Placed(layout, dir);
    }

    private static ConfigException conflict(String message) {
        return new ConfigException(ConfigException.CONFLICT, message);
    }
}
