package io.railgun.node.cli.client;

import java.io.InputStream;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * What the client commands take from the process, injected so that tests can give their own:
 * the environment (the {@code RAILGUN_*} variables), standard input ({@code send -}) and whether
 * stderr and stdout are terminals (the progress bar of {@code send}).
 *
 * @param env              the environment, e.g. {@link System#getenv()}
 * @param stdin            standard input
 * @param stderrIsTerminal true when stderr is an interactive terminal
 * @param stdoutIsTerminal true when stdout is an interactive terminal
 */
public record ClientContext(Map<String, String> env, Supplier<InputStream> stdin, BooleanSupplier stderrIsTerminal,
                            BooleanSupplier stdoutIsTerminal) {

    /** The running process: its environment, {@link System#in} and its terminals. */
    public static ClientContext system(Map<String, String> env) {
        return new ClientContext(env, () -> System.in, Terminal::stderrIsTerminal, Terminal::stdoutIsTerminal);
    }
}
