package io.railgun.node.http;

import io.railgun.node.frontend.ApiException;
import java.util.List;
import java.util.function.Function;

/**
 * Node-to-node endpoints under {@value #PREFIX} (peer recovery: {@code docs/distribution.md}),
 * served by the same HTTP server as the public API but not part of it: they are not in the OpenAPI
 * document nor in {@link Endpoint}, and always need the <b>admin</b> token when tokens are
 * configured (peers of a cluster share it). The dispatcher checks the token, then hands the request
 * over. Called concurrently on the server's virtual threads: implementations are thread-safe and
 * may block.
 */
public interface InternalApi {
    String PREFIX = "/internal/";

    /** Whether a raw request path belongs to the internal API. */
    static boolean owns(String rawPath) {
        return rawPath != null && rawPath.startsWith(PREFIX);
    }

    /** The route label of a request for the request metrics ({@code "GET /internal/v1/tasks/{topic}/..."}). */
    String route(String method, String rawPath);

    /**
     * Answers a request (bodies are not read: every internal endpoint is a GET).
     *
     * @param header a request header's first value by name, or null
     * @throws ApiException for a refusal: 4xx with a stable code, or 503 with Retry-After
     */
    Response handle(String method, String rawPath, Function<String, String> header);

    /**
     * A response: status, content type, {@code body[0, length)} (copied by the server) and extra
     * headers as name, value pairs.
     */
    record Response(int status, String contentType, byte[] body, int length, List<String> headers) {}
}
