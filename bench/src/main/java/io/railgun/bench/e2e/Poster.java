package io.railgun.bench.e2e;

import io.railgun.client.RawResponse;
import java.util.concurrent.CompletableFuture;

/**
 * Sends a pre-serialised JSON body to one endpoint of the node and completes with the response as it
 * arrived; a request that got no response completes exceptionally with a {@code RailgunException}
 * {@code timeout} or {@code unreachable}, so the tally classifies every client's failures alike.
 * Thread-safe.
 */
interface Poster extends AutoCloseable {
    CompletableFuture<RawResponse> post(byte[] body);

    @Override
    void close();
}
