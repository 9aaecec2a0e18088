package io.railgun.node.cli;

import io.railgun.node.broker.BrokerCredentials;
import io.railgun.node.broker.EmbeddedBroker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Model.CommandSpec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code railgun broker}: a standalone single-node Kafka broker (KRaft) on 127.0.0.1 for development
 * clusters and tests. With {@code --sasl}, both listeners take SASL/PLAIN only, as the user of
 * {@link BrokerCredentials} (generated in the data directory on first use), and the command prints
 * the {@code --kafka-property} flags that let nodes in. Waits until SIGTERM (or Ctrl-C), which closes
 * the broker in a shutdown hook. Runs on the main thread.
 */
final class BrokerCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(BrokerCommand.class);

    /** Starts a broker; {@code EmbeddedBroker.start} in production, a fake in tests. */
    @FunctionalInterface
    interface BrokerLauncher {
        EmbeddedBroker start(Path dataDir, int port, Map<String, String> overrides) throws Exception;
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
        int port;
        boolean sasl;
        try {
            List<ConfigLayer> layers = List.of(
                    CommandSpecs.flags(spec.commandLine().getParseResult(), BrokerSettings.ALL),
                    Environment.forBroker(env));
            dataDir = SettingValue.pick(BrokerSettings.DATA_DIR, layers).value();
            port = SettingValue.pick(BrokerSettings.PORT, layers).value();
            sasl = SettingValue.pick(BrokerSettings.SASL, layers).value();
        } catch (ConfigException e) {
            err.println("railgun broker: " + e.getMessage());
            return Main.EXIT_CONFIG;
        }
        String problem = StartupChecks.dataDir(dataDir, "--data-dir");
        if (problem == null) {
            problem = StartupChecks.port(StartupChecks.BROKER_HOST, port, "--port", null);
        }
        if (problem != null) {
            err.println("railgun broker: " + problem);
            return Main.EXIT_FAILURE;
        }
        BrokerCredentials credentials = null;
        if (sasl) {
            try {
                credentials = BrokerCredentials.loadOrCreate(dataDir);
            } catch (IOException e) {
                err.println("railgun broker: cannot keep the SASL credentials in " + ValueTypes.PATH.format(dataDir) + ": "
                        + Failures.reason(e));
                return Main.EXIT_FAILURE;
            }
        }
        EmbeddedBroker broker;
        try {
            broker = launcher.start(dataDir, port, credentials == null ? Map.of() : credentials.brokerOverrides());
        } catch (Exception e) {
            LOG.debug("broker start-up failed", e);
            err.println("railgun broker: cannot start the broker: " + StartupFailure.describeBroker(e, dataDir));
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
        out.println("Kafka broker (KRaft) listening on " + broker.bootstrapServers()
                + (credentials == null ? "" : " (SASL/PLAIN)") + ", data in " + ValueTypes.PATH.format(dataDir));
        if (credentials != null) {
            out.println(nodeFlags(broker.bootstrapServers(), credentials));
        }
        out.flush();
        stopped.await();
        return Main.EXIT_OK;
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
