package io.railgun.node.cli.client;

import io.railgun.node.cli.VersionProvider;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/**
 * A command that only holds others ({@code streams}, {@code metrics}): run alone, it prints which
 * ones there are and its usage on stderr, and exits with {@link ExitCode#USAGE}.
 */
final class GroupCommand implements Callable<Integer> {
    private final CommandSpec spec;

    GroupCommand(String name, String header) {
        this.spec = CommandSpec.wrapWithoutInspection(this);
        spec.name(name);
        spec.mixinStandardHelpOptions(true);
        spec.versionProvider(new VersionProvider());
        spec.usageMessage().header(header).commandListHeading("%nCommands:%n").width(100).autoWidth(true)
                .footer("", "Run 'railgun " + name + " COMMAND --help' for a command's options.", ExitCode.HELP);
    }

    CommandSpec spec() {
        return spec;
    }

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        err.println(spec.qualifiedName() + ": missing command: " + String.join(", ", spec.subcommands().keySet()));
        spec.commandLine().usage(err);
        return ExitCode.USAGE;
    }
}
