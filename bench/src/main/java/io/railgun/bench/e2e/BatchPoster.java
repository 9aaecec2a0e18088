package io.railgun.bench.e2e;

import io.railgun.client.RailgunException;
import io.railgun.client.RawResponse;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Sends a pre-serialised batch body to {@code POST /v1/streams/{stream}/events:batch} and completes
 * with the response as it arrived, as {@code RailgunClient.sendJsonAsync} does for one event (the
 * client has no raw batch call): an HTTP/1.1 JDK client configured as the Railgun client is (no
 * redirects, connect and request timeouts, replies completed on its selector thread with {@code
 * --client-executor direct}); no reply completes exceptionally with a {@link RailgunException}
 * {@code timeout} or {@code unreachable}, so the tally classifies both paths' failures alike.
 * Thread-safe.
 */
final class BatchPoster implements Poster {
    private final HttpClient http;
    private final URI uri;
    private final Duration timeout;

    BatchPoster(URI base, String stream, Duration timeout, boolean directExecutor) {
        String prefix = base.toString().endsWith("/") ? base.toString().substring(0, base.toString().length() - 1)
                : base.toString();
        this.uri = URI.create(prefix + "/v1/streams/" + URLEncoder.encode(stream, StandardCharsets.UTF_8)
                .replace("+", "%20") + "/events:batch");
        this.timeout = timeout;
        HttpClient.Builder b = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(timeout);
        if (directExecutor) {
            b.executor(Runnable::run);
        }
        this.http = b.build();
    }

    @Override
    public CompletableFuture<RawResponse> post(byte[] body) {
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", "application/json")
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofByteArray(body)).build();
        return http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).handle((response, failure) -> {
            if (failure != null) {
                Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                        ? failure.getCause() : failure;
                boolean timedOut = cause instanceof HttpTimeoutException && !(cause instanceof HttpConnectTimeoutException);
                throw new RailgunException(0, timedOut ? RailgunException.TIMEOUT : RailgunException.UNREACHABLE,
                        (timedOut ? "no reply within " + timeout : "cannot reach the node") + " for POST " + uri + ": "
                                + cause, 0, cause);
            }
            return new RawResponse(response.statusCode(), response.body(), 0);
        });
    }

    @Override
    public void close() {
        http.close();
    }
}
