package io.railgun.node.cli;

import io.railgun.node.Node;
import io.railgun.node.NodeConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code railgun start}: resolves the configuration, starts a {@link Node}, prints where it serves
 * and waits. SIGTERM (or Ctrl-C) runs {@link Node#close()} in a shutdown hook: in-flight requests
 * finish, tasks checkpoint, the node leaves the group. Exit codes: 2 for a configuration error,
 * 1 when the node cannot start or stops without a signal. Runs on the main thread.
 */
final class StartCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(StartCommand.class);

    /** Starts a node; {@code Node::start} in production, a fake in tests. */
    @FunctionalInterface
    interface NodeLauncher {
        Node start(NodeConfig config) throws Exception;
    }

    private final Map<String, String> env;
    private final NodeLauncher launcher;
    private final CommandSpec spec;

    StartCommand(Map<String, String> env, NodeLauncher launcher) {
        this.env = env;
        this.launcher = launcher;
        this.spec = CommandSpecs.start(CommandSpec.wrapWithoutInspection(this));
    }

    CommandSpec spec() {
        return spec;
    }

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        ResolvedConfig resolved;
        try {
            ConfigLayer flags = CommandSpecs.flags(spec.commandLine().getParseResult(),
                    CommandSpecs.startFlagSettings());
            resolved = ConfigLoader.resolve(flags, env);
        } catch (ConfigException e) {
            err.println("railgun start: " + e.getMessage());
            return Main.EXIT_CONFIG;
        }
        NodeConfig config = resolved.config();
        LOG.info("Railgun {} starting node {} with:\n{}", VersionProvider.version(), config.nodeId(),
                resolved.describe().stripTrailing());
        resolved.warnings().forEach(w -> LOG.warn("{}", w));

        String problem = StartupChecks.check(config);
        if (problem != null) {
            err.println("railgun start: " + problem);
            return Main.EXIT_FAILURE;
        }
        Node node;
        try {
            node = launcher.start(config);
        } catch (Exception e) {
            LOG.debug("node start-up failed", e);
            err.println("railgun start: cannot start the node: " + StartupFailure.describe(e, config));
            return Main.EXIT_FAILURE;
        }

        var signalled = new AtomicBoolean();
        Thread hook = new Thread(() -> {
            signalled.set(true);
            LOG.info("Stopping node {}: finishing in-flight requests, checkpointing, leaving the group",
                    config.nodeId());
            try {
                node.close();
                LOG.info("Node {} stopped", config.nodeId());
            } catch (RuntimeException e) {
                LOG.error("Node {} did not stop cleanly", config.nodeId(), e);
            }
        }, "railgun-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);

        String kafka = config.kafka() == null ? "embedded at " + node.bootstrapServers() : node.bootstrapServers();
        out.println("Railgun node " + config.nodeId() + " serving " + node.uri() + " (Kafka: " + kafka + ", data: "
                + ValueTypes.PATH.format(config.dataDir()) + ")");
        out.flush();

        try {
            node.awaitTermination();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (signalled.get()) {
            return Main.EXIT_OK;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shutdownInProgress) {
            return Main.EXIT_OK;
        }
        err.println("railgun start: node " + config.nodeId() + " stopped without a shutdown signal (see the log)");
        return Main.EXIT_FAILURE;
    }
}
