package io.railgun.node.broker;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.BindException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;

/**
 * The ports of an {@link EmbeddedBroker}'s listeners: a free one found by binding port 0 and
 * releasing it, a fixed one checked before Kafka binds it, and whether a failed start was a port
 * taken in between (then start-up is retried with new ports). Stateless; any thread.
 */
final class BrokerPorts {
    private BrokerPorts() {}

    /** A port nobody listens on now: bound to port 0 and released (someone may take it before Kafka binds it). */
    static int free(String host) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(host), 0), 1);
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot find a free port on " + host + " for the Kafka broker", e);
        }
    }

    /** Fails early, with a message that says what to do, when a port asked for is taken. */
    static int requireFree(String host, int port) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.bind(new InetSocketAddress(InetAddress.getByName(host), port), 1);
            return port;
        } catch (IOException e) {
            throw new IllegalStateException("the Kafka broker port " + host + ":" + port + " is already in use"
                    + " (another broker or node?); stop that process or choose another port", e);
        }
    }

    /** Whether a start-up failure was a port taken between the check and Kafka's bind. */
    static boolean isBindFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BindException) {
                return true;
            }
        }
        return false;
    }
}
