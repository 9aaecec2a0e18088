package io.railgun.node.cli.client;

/**
 * The exit codes of the client commands ({@code streams}, {@code metrics}, {@code send},
 * {@code read}), the same for all of them so that a script can rely on them. Every failure also
 * prints one line on stderr, starting with the command ({@code railgun send: ...}), that says what
 * to do.
 */
public final class ExitCode {
    /** Done. */
    public static final int OK = 0;
    /** The node answered with an error: its code, status and message are on stderr. */
    public static final int NODE_ERROR = 1;
    /** A bad command line, configuration or input file; nothing was sent. */
    public static final int USAGE = 2;
    /** The node could not be reached, or did not answer in time. */
    public static final int UNREACHABLE = 3;
    /** {@code send} stopped part-way: some events were counted, then an error stopped it. */
    public static final int PARTIAL = 4;

    /** The text of {@code --help}'s footer. */
    public static final String HELP = "Exit codes: 0 done; 1 the node answered with an error (code and message on"
            + " stderr); 2 bad command line, configuration or input file; 3 the node cannot be reached;"
            + " 4 send stopped after part of the input was counted.";

    private ExitCode() {
    }
}
