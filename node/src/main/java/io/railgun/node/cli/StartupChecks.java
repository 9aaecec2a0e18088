package io.railgun.node.cli;

import io.railgun.node.NodeConfig;
import io.railgun.node.security.OwnerOnly;

import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Checks made before a node or broker starts, so that the common mistakes (a port in use, a data
 * directory that cannot be written, a host that is not this machine's) fail with one clear line
 * instead of half-way through start-up. Racy by nature (another process may take the port a moment
 * later); the node's own errors remain the last word.
 */
final class StartupChecks {
    /** Where the embedded and the standalone brokers listen. */
    static final String BROKER_HOST = "127.0.0.1";

    private StartupChecks() {
    }

    /** The first problem with {@code config}, or null; creates the data directory. */
    static String check(NodeConfig config) {
        String problem = dataDir(config.dataDir(), "--data-dir");
        if (problem == null && config.tlsKeystore() != null
                && !(Files.isRegularFile(config.tlsKeystore()) && Files.isReadable(config.tlsKeystore()))) {
            problem = "the TLS keystore " + config.tlsKeystore().toAbsolutePath() + " is not a readable file"
                    + " (--tls-keystore)";
        }
        if (problem == null) {
            problem = port(config.host(), config.port(), "--port", "--host");
        }
        if (problem == null && config.kafka() == null) {
            problem = port(BROKER_HOST, config.brokerPort(), "--broker-port", null);
        }
        return problem;
    }

    /** Creates {@code dir} if needed (owner-only); null when it is a writable directory, else the problem. */
    static String dataDir(Path dir, String flag) {
        try {
            OwnerOnly.createDirectories(dir);
        } catch (IOException e) {
            return "cannot create the data directory " + dir.toAbsolutePath() + ": " + Failures.reason(e)
                    + " (choose another with " + flag + ")";
        }
        if (!Files.isWritable(dir)) {
            return "the data directory " + dir.toAbsolutePath() + " is not writable (choose another with " + flag + ")";
        }
        return null;
    }

    /**
     * Null when {@code host:port} can be listened on (port 0 always can), else the problem.
     *
     * @param hostFlag the flag that chose the host, or null when it is fixed
     */
    static String port(String host, int port, String portFlag, String hostFlag) {
        if (port == 0) {
            return null;
        }
        var address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            return "unknown host '" + host + "' (" + hostFlag + ")";
        }
        try (var socket = new ServerSocket()) {
            socket.setReuseAddress(true);
            socket.bind(address);
            return null;
        } catch (BindException e) {
            String reason = Failures.reason(e);
            String hint = reason.toLowerCase(Locale.ROOT).contains("in use") || hostFlag == null
                    ? "another process is listening there; choose another port with " + portFlag
                    + ", or 0 for a free one"
                    : "is " + host + " an address of this machine? " + hostFlag;
            return "cannot listen on " + host + ":" + port + ": " + reason + " (" + hint + ")";
        } catch (IOException e) {
            return "cannot listen on " + host + ":" + port + ": " + Failures.reason(e) + " (" + portFlag + ")";
        }
    }
}
