package io.railgun.node.cli.client;

import io.railgun.client.RailgunClient;
import io.railgun.client.RailgunException;
import io.railgun.node.cli.ConfigException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import javax.net.ssl.SSLException;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.nio.channels.UnresolvedAddressException;
import java.util.concurrent.Callable;

/**
 * The frame of every client command: resolves the {@link NodeTarget} from the node options, opens
 * a client, runs the command, and turns failures into one line on stderr and an {@link ExitCode}:
 * a configuration error is 2, the node's error answer 1 (its code, status and message), no answer
 * 3. Subclasses are picocli commands with their own options; {@link NodeOptions} adds the shared
 * ones. Runs on the main thread.
 */
public abstract class ClientCommand implements Callable<Integer> {
    @Spec
    protected CommandSpec spec;
    protected final ClientContext context;

    protected ClientCommand(ClientContext context) {
        this.context = context;
    }

    /**
     * The command's work.
     *
     * @return the exit code
     * @throws RailgunException when the node answers with an error or cannot be reached
     * @throws CommandFailure   for a failure of the command's own (bad input)
     */
    protected abstract int run(RailgunClient client, NodeTarget target) throws Exception;

    @Override
    public final Integer call() throws Exception {
        NodeTarget target;
        try {
            target = NodeOptions.resolve(spec.commandLine().getParseResult(), context.env());
        } catch (ConfigException e) {
            err().println(name() + ": " + e.getMessage());
            return ExitCode.USAGE;
        }
        try (RailgunClient client = target.client()) {
            return run(client, target);
        } catch (RailgunException e) {
            err().println(name() + ": " + describe(e, target));
            return exitCode(e);
        } catch (CommandFailure e) {
            err().println(name() + ": " + e.getMessage());
            return e.exitCode();
        } finally {
            out().flush();
            err().flush();
        }
    }

    /** {@code railgun streams show}. */
    protected String name() {
        return spec.qualifiedName();
    }

    protected PrintWriter out() {
        return spec.commandLine().getOut();
    }

    protected PrintWriter err() {
        return spec.commandLine().getErr();
    }

    /** {@link ExitCode#UNREACHABLE} when there was no answer, else {@link ExitCode#NODE_ERROR}. */
    public static int exitCode(RailgunException e) {
        return e.status() == 0 ? ExitCode.UNREACHABLE : ExitCode.NODE_ERROR;
    }

    /** The failure in one line: the node's code, status and message, with a hint where one helps. */
    public static String describe(RailgunException e, NodeTarget target) {
        if (e.status() == 0) {
            if (RailgunException.TIMEOUT.equals(e.code())) {
                return "no reply from the node at " + target.describe() + " within "
                        + target.requestTimeout().toSeconds() + " s; it may be overloaded or stuck: see its log";
            }
            return "cannot reach the node at " + target.describe() + ": " + reason(e.getCause())
                    + "; start one with './railgun start', or give its address with --url URL or --port PORT"
                    + " (RAILGUN_URL, RAILGUN_PORT)";
        }
        String text = e.code() + " (HTTP " + e.status() + "): " + e.getMessage();
        if (e.status() == 401 || e.status() == 403) {
            text += "; give the node's token with --admin-token TOKEN (or --admin-token-file FILE, RAILGUN_ADMIN_TOKEN)"
                    + (target.tokenOrigin() == null ? "" : ", not the one from " + target.tokenOrigin());
        }
        return text;
    }

    private static String reason(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof ConnectException) {
                return "connection refused";
            }
            if (t instanceof UnresolvedAddressException) {
                return "unknown host";
            }
            if (t instanceof SSLException) {
                return "TLS failed (" + t.getMessage() + "); for a node with a self-signed certificate give its"
                        + " keystore with --tls-keystore FILE --tls-keystore-password PASSWORD";
            }
        }
        return cause == null ? "no connection" : String.valueOf(cause.getMessage() == null
                ? cause.getClass().getSimpleName() : cause.getMessage());
    }
}
