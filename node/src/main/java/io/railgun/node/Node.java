package io.railgun.node;

/**
 * One Railgun node (paper §3): front-end, back-end (processor units running tasks) and messaging
 * layer in one process, over an external Kafka cluster or an embedded single-node broker.
 */
public final class Node implements AutoCloseable {

    /** Starts a node: the embedded broker when {@code config.kafka()} is null, then the layers; returns once serving. */
    public static Node start(NodeConfig config) {
        throw new UnsupportedOperationException("not yet");
    }

    /** The HTTP API's base URI, e.g. {@code http://127.0.0.1:7070} (the actual port when 0 was asked). */
    public java.net.URI uri() {
        throw new UnsupportedOperationException("not yet");
    }

    /** The Kafka bootstrap servers the node uses (the embedded broker's when it runs one). */
    public String bootstrapServers() {
        throw new UnsupportedOperationException("not yet");
    }

    /** Blocks until {@link #close()} has completed (from another thread or a shutdown hook). */
    public void awaitTermination() throws InterruptedException {
        throw new UnsupportedOperationException("not yet");
    }

    /**
     * Graceful shutdown: stops accepting requests, finishes those in flight, takes a final checkpoint
     * of every task, leaves the consumer group, stops the embedded broker. Idempotent.
     */
    @Override
    public void close() {
        throw new UnsupportedOperationException("not yet");
    }
}
