package io.railgun.client;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;

/**
 * A {@link RailgunClient}'s one {@link HttpClient} (HTTP/1.1, kept-alive connections, no
 * redirects): sends a request once and returns whatever response came, or turns the lack of one
 * into a {@link RailgunException} of status 0 ({@code unreachable}, {@code timeout}, {@code
 * interrupted}). Any status is returned as it is: deciding what a status means is {@link
 * Responses}'s job, sending again {@link Retrier}'s. Thread-safe.
 */
final class Transport implements AutoCloseable {
    private final HttpClient http;
    private final Duration requestTimeout;

    /**
     * @param sslContext null for the JDK's default trust store
     * @param executor   where asynchronous results complete; null for the HttpClient's own pool
     */
    Transport(Duration requestTimeout, SSLContext sslContext, Executor executor) {
        this.requestTimeout = requestTimeout;
        HttpClient.Builder http = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(requestTimeout);
        if (sslContext != null) {
            http.sslContext(sslContext);
        }
        if (executor != null) {
            http.executor(executor);
        }
        this.http = http.build();
    }

    /** Sends and waits: any response, else a RailgunException of status 0. */
    HttpResponse<byte[]> exchange(HttpRequest request) {
        try {
            return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw transportFailure(request, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RailgunException(0, RailgunException.INTERRUPTED,
                    "interrupted while waiting for " + request.method() + " " + request.uri(), 0, e);
        }
    }

    /** Any response, or a failed future of a RailgunException when there is none. */
    CompletableFuture<HttpResponse<byte[]>> exchangeAsync(HttpRequest request) {
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).handle((response, failure) -> {
            if (failure != null) {
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause() : failure;
                throw transportFailure(request, cause);
            }
            return response;
        });
    }

    private RailgunException transportFailure(HttpRequest request, Throwable cause) {
        String what = request.method() + " " + request.uri();
        if (cause instanceof HttpTimeoutException && !(cause instanceof HttpConnectTimeoutException)) {
            return new RailgunException(0, RailgunException.TIMEOUT, "no reply to " + what + " within " + requestTimeout
                    + "; it may or may not have been applied (resending an event is safe: its eventId is deduplicated)",
                    0, cause);
        }
        return new RailgunException(0, RailgunException.UNREACHABLE, "cannot reach the Railgun node for " + what + ": "
                + cause + "; check that it runs (./railgun start) and that the base URI is right", 0, cause);
    }

    /** Waits for the requests in flight, then releases the connections and threads. */
    @Override
    public void close() {
        http.close();
    }
}
