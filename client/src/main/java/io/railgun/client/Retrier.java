package io.railgun.client;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * Sends a request through a {@link Transport} until it gets a 2xx response or its {@link
 * RetryPolicy} gives up, waiting between attempts as the {@link Pause} does; then throws (or fails
 * the future with) the RailgunException of the last attempt. Each attempt sends the same request,
 * body included. Thread-safe: the synchronous calls wait on the caller's thread, the asynchronous
 * ones complete on the configured executor.
 */
final class Retrier {
    private final Transport transport;
    private final RetryPolicy retry;
    private final Pause pause;
    private final Executor executor;

    /** @param executor where delayed attempts run; null for the common pool */
    Retrier(Transport transport, RetryPolicy retry, Pause pause, Executor executor) {
        this.transport = transport;
        this.retry = retry;
        this.pause = pause;
        this.executor = executor;
    }

    /**
     * Sends and waits, again as the retry policy says ({@code idempotent}: the request may be
     * repeated even when the node may have applied it); a 2xx response, else the RailgunException
     * of the last attempt.
     */
    HttpResponse<byte[]> call(HttpRequest request, boolean idempotent) {
        for (int attempt = 1; ; attempt++) {
            try {
                HttpResponse<byte[]> response = transport.exchange(request);
                Responses.requireSuccess(response);
                return response;
            } catch (RailgunException e) {
                if (!retry.shouldRetry(e, attempt, idempotent)) {
                    throw e;
                }
                try {
                    pause.sleep(retry.delay(attempt, e.retryAfterSeconds()));
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    e.addSuppressed(interrupted);
                    throw e;
                }
            }
        }
    }

    /**
     * As {@link #call} without blocking, for event sends (always safe to repeat): a future of a
     * 2xx response, or failed with the RailgunException of the last attempt.
     */
    CompletableFuture<HttpResponse<byte[]>> callAsync(HttpRequest request) {
        return attemptAsync(request, 1);
    }

    private CompletableFuture<HttpResponse<byte[]>> attemptAsync(HttpRequest request, int attempt) {
        return transport.exchangeAsync(request).thenApply(response -> {
            Responses.requireSuccess(response);
            return response;
        }).handle((response, failure) -> {
            if (failure == null) {
                return CompletableFuture.completedFuture(response);
            }
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                    ? failure.getCause() : failure;
            if (!(cause instanceof RailgunException e) || !retry.shouldRetry(e, attempt, true /* repeatable */)) {
                return CompletableFuture.<HttpResponse<byte[]>>failedFuture(cause);
            }
            Executor later = pause.after(retry.delay(attempt, e.retryAfterSeconds()), executor);
            return CompletableFuture.runAsync(() -> {}, later)
                    .thenCompose(ignored -> attemptAsync(request, attempt + 1));
        }).thenCompose(next -> next);
    }
}
