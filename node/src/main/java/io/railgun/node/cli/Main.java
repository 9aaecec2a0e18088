package io.railgun.node.cli;

import io.railgun.node.Node;
import io.railgun.node.broker.EmbeddedBroker;
import io.railgun.node.cli.client.ClientCommands;
import io.railgun.node.cli.client.ClientContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * The entry point of {@code ./railgun} (SPEC §2): {@code railgun start}, {@code railgun broker},
 * the client commands over the HTTP API ({@code streams}, {@code metrics}, {@code send},
 * {@code read}: {@link ClientCommands}), {@code railgun help COMMAND}, {@code --help},
 * {@code --version}. Exit codes: 0 done, 1 start-up failure (client commands: the node's error),
 * 2 bad command line or configuration (one line on stderr, no stack trace); the client commands
 * add 3 and 4 ({@link io.railgun.node.cli.client.ExitCode}).
 */
public final class Main {
    static final int EXIT_OK = 0;
    static final int EXIT_FAILURE = 1;
    static final int EXIT_CONFIG = 2;

    private static final Logger LOG = LoggerFactory.getLogger(Main.class);

    private Main() {
    }

    public static void main(String[] args) {
        if (args.length > 0 && ClientCommands.NAMES.contains(args[0])) {
            LogDefaults.quiet();
        } else {
            LogDefaults.apply();
        }
        int code = commandLine(System.getenv(), Node::start,
                EmbeddedBroker::start).execute(args);
        // During a shutdown (SIGTERM) this blocks until the hooks are done, and the JVM exits then.
        System.exit(code);
    }

    /**
     * The whole command line, with the environment and the launchers injected (tests pass their own).
     * Call {@link CommandLine#setOut}/{@link CommandLine#setErr} on the result to capture output.
     */
    static CommandLine commandLine(Map<String, String> env, StartCommand.NodeLauncher nodes,
                                   BrokerCommand.BrokerLauncher brokers) {
        return commandLine(env, nodes, brokers, ClientContext.system(env));
    }

    /** As above, with the client commands' standard input and terminals injected too. */
    static CommandLine commandLine(Map<String, String> env, StartCommand.NodeLauncher nodes,
                                   BrokerCommand.BrokerLauncher brokers, ClientContext client) {
        var root = new Root();
        CommandSpec top = CommandSpec.wrapWithoutInspection(root);
        root.spec = top;
        top.name("railgun");
        top.mixinStandardHelpOptions(true);
        top.versionProvider(new VersionProvider());
        top.usageMessage()
                .description("Exact real-time sliding-window aggregations, re-evaluated on every event.")
                .commandListHeading("%nCommands:%n")
                .width(100)
                .autoWidth(true)
                .footer("", "Run 'railgun COMMAND --help' for a command's options (flags, RAILGUN_* variables,"
                        + " config file keys and defaults). See docs/configuration.md.");
        var cl = new CommandLine(top);
        cl.addSubcommand("start", new CommandLine(new StartCommand(env, nodes).spec()));
        cl.addSubcommand("broker", new CommandLine(new BrokerCommand(env, brokers).spec()));
        // before the handlers below: picocli gives them to the subcommands present when they are set
        ClientCommands.addTo(cl, client);
        cl.addSubcommand("help", new CommandLine.HelpCommand());
        cl.setExpandAtFiles(false);
        cl.setParameterExceptionHandler(Main::badArguments);
        cl.setExecutionExceptionHandler((e, failed, parsed) -> {
            LOG.error("unexpected failure", e);
            failed.getErr().println(failed.getCommandSpec().qualifiedName() + ": unexpected failure: "
                    + Failures.reason(e));
            return EXIT_FAILURE;
        });
        return cl;
    }

    /** {@code railgun} without a command: the usage on stderr, exit code 2. */
    private static final class Root implements Callable<Integer> {
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter err = spec.commandLine().getErr();
            err.println("railgun: missing command: " + String.join(", ",
                    spec.subcommands().keySet().stream().filter(name -> !name.equals("help")).toList()));
            spec.commandLine().usage(err);
            return EXIT_CONFIG;
        }
    }

    private static int badArguments(CommandLine.ParameterException e, String[] args) {
        CommandLine cl = e.getCommandLine();
        PrintWriter err = cl.getErr();
        err.println(cl.getCommandSpec().qualifiedName() + ": " + e.getMessage());
        CommandLine.UnmatchedArgumentException.printSuggestions(e, err);
        err.println("Run '" + cl.getCommandSpec().qualifiedName() + " --help' for the "
                + (cl.getSubcommands().isEmpty() ? "options." : "commands."));
        err.flush();
        return EXIT_CONFIG;
    }
}
