package io.railgun.node.cli;

import io.railgun.node.broker.BrokerCredentials;
import io.railgun.node.broker.ClusterLayout;
import io.railgun.node.broker.EmbeddedBroker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code railgun broker}: a standalone Kafka broker (KRaft) on 127.0.0.1 for development clusters
 * and tests, alone or, with {@code --broker-id}, one broker (and controller) of a KRaft cluster of
 * one process per broker ({@link BrokerLayouts}). With {@code --sasl}, both listeners take
 * SASL/PLAIN only, as the user of {@link BrokerCredentials} (generated on first use: in the data
 * directory of a single broker, in the parent of the data directories for a cluster, whose brokers
 * must share it), and the command prints the {@code --kafka-property} flags that let nodes in. Waits
 * until SIGTERM (or Ctrl-C), which closes the broker in a shutdown hook. Runs on the main thread.
 */
final class BrokerCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerCommand.class);

    /** Starts a broker; {@code EmbeddedBroker.start} in production, a fake in tests. */
    @FunctionalInterface
    interface BrokerLauncher {
        EmbeddedBroker start(Path dataDir, ClusterLayout layout, Map<String, String> overrides) throws Exception;
    }

    private final Map<String, String> env;
    private final BrokerLauncher launcher;
    private final CommandSpec spec;

    BrokerCommand(Map<String, String> env, BrokerLauncher launcher) {
        this.env = env;
        this.launcher = launcher;
        this.spec = CommandSpecs.broker(CommandSpec.wrapWithoutInspection(this));
    }

    CommandSpec spec() {
        return spec;
    }

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        Path dataDir;
        ClusterLayout layout;
        boolean sasl;
        try {
            List<ConfigLayer> layers = List.of(
                    CommandSpecs.flags(spec.commandLine().getParseResult(), BrokerSettings.ALL),
                    Environment.forBroker(env));
            BrokerLayouts.Placed placed = BrokerLayouts.resolve(layers);
            dataDir = placed.dataDir();
            layout = placed.layout();
            sasl = SettingValue.pick(BrokerSettings.SASL, layers).value();
        } catch (ConfigException e) {
            err.println("railgun broker: " + e.getMessage());
            return Main.EXIT_CONFIG;
        }
        String problem = StartupChecks.dataDir(dataDir, "--data-dir");
        if (problem == null) {
            problem = layout.isSingle() ? StartupChecks.port(layout.host(), layout.clientPort(), "--port", null)
                    : StartupChecks.port(layout.host(), layout.clientPort(), "--base-port", "--host");
        }
        if (problem == null && !layout.isSingle()) {
            problem = StartupChecks.port(layout.host(), layout.controllerPort(), "--base-port", "--host");
        }
        if (problem != null) {
            err.println("railgun broker: " + problem);
            return Main.EXIT_FAILURE;
        }
        BrokerCredentials credentials = null;
        if (sasl) {
            Path credentialsDir = layout.isSingle() ? dataDir : dataDir.toAbsolutePath().normalize().getParent();
            try {
                credentials = layout.isSingle() ? BrokerCredentials.loadOrCreate(dataDir) : sharedCredentials(credentialsDir);
            } catch (IOException e) {
                err.println("railgun broker: cannot keep the SASL credentials in " + ValueTypes.PATH.format(credentialsDir)
                        + ": " + Failures.reason(e));
                return Main.EXIT_FAILURE;
            }
        }
        if (!layout.isSingle()) {
            out.println("Kafka broker " + layout.brokerId() + " of " + layout.size() + " (KRaft, cluster "
                    + (layout.clusterId()) + ") starting on " + layout.host() + ":" + layout.clientPort()
                    + ", controller on port " + layout.controllerPort() + ", data in " + ValueTypes.PATH.format(dataDir)
                    + "; it serves once a majority of the " + layout.size() + " brokers run");
            out.flush();
        }
        EmbeddedBroker broker;
        try {
            broker = launcher.start(dataDir, layout, credentials == null ? Map.of() : credentials.brokerOverrides());
        } catch (Exception e) {
            LOG.debug("broker start-up failed", e);
            err.println("railgun broker: cannot start the broker: " + StartupFailure.describeBroker(e, dataDir, !layout.isSingle()));
            return Main.EXIT_FAILURE;
        }
        var stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("Stopping the Kafka broker");
            try {
                broker.close();
            } catch (Exception e) {
                LOG.error("The Kafka broker did not stop cleanly", e);
            } finally {
                stopped.countDown();
            }
        }, "railgun-broker-shutdown"));
        String bootstrap = layout.isSingle() ? broker.bootstrapServers() : layout.bootstrapServers();
        out.println("Kafka broker " + (layout.isSingle() ? "" : layout.brokerId() + " of " + layout.size() + " ")
                + "(KRaft) listening on " + broker.bootstrapServers()
                + (credentials == null ? "" : " (SASL/PLAIN)") + ", data in " + ValueTypes.PATH.format(dataDir));
        if (credentials != null) {
            out.println(nodeFlags(bootstrap, credentials));
        } else if (!layout.isSingle()) {
            out.println("Nodes join the cluster with: ./railgun start --kafka " + bootstrap);
        }
        out.flush();
        stopped.await();
        return Main.EXIT_OK;
    }

    /**
     * The credentials the brokers of a cluster share, in {@code dir}: made by the first broker to come,
     * under a file lock, so brokers started together do not each write their own.
     */
    private static BrokerCredentials sharedCredentials(Path dir) throws IOException {
        io.railgun.node.security.OwnerOnly.createDirectories(dir);
        Path lockFile = dir.resolve(BrokerCredentials.FILE + ".lock");
        try (FileChannel channel = FileChannel.open(lockFile, java.util.Set.of(StandardOpenOption.CREATE,
                StandardOpenOption.WRITE), io.railgun.node.security.OwnerOnly.fileAttributes(lockFile));
             FileLock ignored = channel.lock()) {
            return BrokerCredentials.loadOrCreate(dir);
        }
    }

    /** How nodes and other clients get in: the client configuration file, and the flags of a node. */
    static String nodeFlags(String bootstrap, BrokerCredentials credentials) {
        StringBuilder s = new StringBuilder("Kafka clients authenticate with the settings in ")
                .append(credentials.file()).append(" (e.g. kafka-topics.sh --command-config); nodes with:\n")
                .append("  ./railgun start --kafka ").append(bootstrap);
        credentials.clientProperties().forEach((k, v) -> s.append(" \\\n      --kafka-property '")
                .append(k).append('=').append(v).append('\''));
        return s.toString();
    }
}
