package io.railgun.node.cli.client;

/**
 * A failure of a client command that is not the node's answer (a bad input file, an unusable
 * option value): its one-line message, which says how to fix it, and the exit code.
 */
public final class CommandFailure extends RuntimeException {
    private final int exitCode;

    public CommandFailure(int exitCode, String message) {
        super(message, null, false, false);
        this.exitCode = exitCode;
    }

    /** A bad command line or input: {@link ExitCode#USAGE}. */
    public static CommandFailure usage(String message) {
        return new CommandFailure(ExitCode.USAGE, message);
    }

    public int exitCode() {
        return exitCode;
    }
}
