package io.railgun.node.cli.client;

import io.railgun.node.cli.client.cluster.ClusterCommand;
import io.railgun.node.cli.client.metrics.MetricsAddCommand;
import io.railgun.node.cli.client.metrics.MetricsListCommand;
import io.railgun.node.cli.client.metrics.MetricsRemoveCommand;
import io.railgun.node.cli.client.read.ReadCommand;
import io.railgun.node.cli.client.send.SendCommand;
import io.railgun.node.cli.client.streams.StreamsCreateCommand;
import io.railgun.node.cli.client.streams.StreamsDeleteCommand;
import io.railgun.node.cli.client.streams.StreamsListCommand;
import io.railgun.node.cli.client.streams.StreamsShowCommand;
import io.railgun.node.cli.VersionProvider;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

import java.util.List;
import java.util.Set;

/**
 * The client commands of {@code ./railgun}, over the node's HTTP API: {@code streams}
 * (list, show, create, delete), {@code metrics} (add, list, remove), {@code send}, {@code read} and
 * {@code cluster}.
 * Each finds the node with the {@link NodeOptions} and exits with an {@link ExitCode}.
 */
public final class ClientCommands {
    /** The names of the top-level client commands. */
    public static final Set<String> NAMES = Set.of("streams", "metrics", "send", "read", "cluster");

    private ClientCommands() {
    }

    /** Adds the client commands to {@code root} ({@code railgun}). */
    public static void addTo(CommandLine root, ClientContext context) {
        var streams = new GroupCommand("streams", "Create, list, show and delete streams.");
        CommandLine streamsLine = new CommandLine(streams.spec());
        for (ClientCommand c : List.of(new StreamsListCommand(context), new StreamsShowCommand(context),
                new StreamsCreateCommand(context), new StreamsDeleteCommand(context))) {
            add(streamsLine, c);
        }
        root.addSubcommand("streams", streamsLine);

        var metrics = new GroupCommand("metrics", "Add, list and remove a stream's metrics.");
        CommandLine metricsLine = new CommandLine(metrics.spec());
        for (ClientCommand c : List.of(new MetricsAddCommand(context), new MetricsListCommand(context),
                new MetricsRemoveCommand(context))) {
            add(metricsLine, c);
        }
        root.addSubcommand("metrics", metricsLine);

        add(root, new SendCommand(context));
        add(root, new ReadCommand(context));
        add(root, new ClusterCommand(context));
    }

    private static void add(CommandLine parent, ClientCommand command) {
        CommandLine line = new CommandLine(command);
        CommandSpec spec = line.getCommandSpec();
        spec.mixinStandardHelpOptions(true);
        spec.versionProvider(new VersionProvider());
        spec.usageMessage().abbreviateSynopsis(true).sortOptions(false).width(100).autoWidth(true)
                .optionListHeading("%nOptions:%n")
                .footer("", "The node is found as by 'railgun start': flags, then RAILGUN_* variables, then the --config"
                        + " file, then http://127.0.0.1:7070. See docs/cli.md.", ExitCode.HELP);
        NodeOptions.addTo(spec);
        parent.addSubcommand(spec.name(), line);
    }
}
