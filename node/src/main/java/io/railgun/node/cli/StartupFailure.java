package io.railgun.node.cli;

import io.railgun.node.NodeConfig;

import java.net.BindException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;

/** Turns an exception from a node's or broker's start-up into one line: the causes' reasons and a hint. */
final class StartupFailure {

    private StartupFailure() {
    }

    static String describe(Throwable failure, NodeConfig config) {
        return describe(failure, "choose another with --port and --broker-port, 0 picks a free one", config.dataDir(),
                config.kafka());
    }

    /** @param cluster whether the broker is one of a cluster, whose ports follow {@code --base-port} */
    static String describeBroker(Throwable failure, Path dataDir, boolean cluster) {
        return describe(failure, cluster ? "choose another with --base-port (every broker of the cluster alike)"
                : "choose another with --port, 0 picks a free one", dataDir, null);
    }

    /**
     * E.g. {@code Address already in use (another process holds a port: choose another with --port...)}.
     *
     * @param portHint  what to do about a port in use: the flags that choose the ports
     * @param kafka     the external Kafka's bootstrap servers, or null
     */
    static String describe(Throwable failure, String portHint, Path dataDir, String kafka) {
        List<String> reasons = new ArrayList<>();
        String hint = null;
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable t = failure; t != null && seen.add(t); t = t.getCause()) {
            if (t instanceof BindException) {
                hint = "another process holds a port: " + portHint;
            } else if (t instanceof AccessDeniedException) {
                hint = "check the permissions of the data directory " + dataDir.toAbsolutePath() + " (--data-dir)";
            } else if (kafka != null && t.getClass().getSimpleName().contains("Timeout")) {
                hint = "is Kafka reachable at " + kafka + "? check --kafka and the kafka-property settings";
            }
            // A wrapper without a message of its own, or whose message is its cause's toString(), adds nothing.
            boolean bareWrapper = t.getCause() != null
                    && (t.getMessage() == null || t.getMessage().equals(t.getCause().toString()));
            String reason = Failures.reason(t);
            if (!bareWrapper && reasons.stream().noneMatch(r -> r.contains(reason))) {
                reasons.add(reason);
            }
        }
        String message = String.join(": ", reasons);
        // The node's own messages often name the flag to change already; then the hint adds nothing.
        return hint == null || message.contains("--") ? message : message + " (" + hint + ")";
    }
}
