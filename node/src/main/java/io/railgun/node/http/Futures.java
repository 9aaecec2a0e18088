package io.railgun.node.http;

import io.railgun.node.frontend.ApiException;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Awaits the front-end's futures within the request timeout, turning outcomes into HTTP answers. */
final class Futures {
    /** Retry-After of a timed-out request: the node is busy or rebalancing, a second is a fair first wait. */
    static final int RETRY_AFTER_SECONDS = 1;

    private Futures() {}

    /**
     * The future's value, waiting at most {@code timeoutMs}.
     *
     * @throws ApiException 503 {@code timeout} (with Retry-After) when it does not complete in time;
     *                      the future's own ApiException when it completed with one
     * @throws CompletionException wrapping any other failure (a fault: the caller answers 500)
     */
    static <T> T await(CompletableFuture<T> future, long timeoutMs) {
        try {
            return future.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            throw ApiException.unavailable("timeout", "no reply within " + timeoutMs + " ms: the node is overloaded, "
                    + "starting or rebalancing; retry after the Retry-After delay (an event re-sent with the same id "
                    + "is counted once)", RETRY_AFTER_SECONDS);
        } catch (ExecutionException e) {
            throw rethrow(e.getCause());
        } catch (CancellationException e) {
            throw ApiException.unavailable("unavailable", "the request was cancelled (the node is shutting down); "
                    + "retry on another node or later", RETRY_AFTER_SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw ApiException.unavailable("unavailable", "the node is shutting down; retry on another node or later",
                    RETRY_AFTER_SECONDS);
        }
    }

    private static RuntimeException rethrow(Throwable cause) {
        Throwable c = cause;
        while (c instanceof CompletionException && c.getCause() != null) {
            c = c.getCause();
        }
        if (c instanceof ApiException api) {
            return api;
        }
        return new CompletionException(c);
    }
}
