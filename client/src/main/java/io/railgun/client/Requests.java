package io.railgun.client;

import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;

/**
 * Builds the requests of a {@link RailgunClient}: every one with its timeout, {@code Accept:
 * application/json} and, when a token is configured, {@code Authorization: Bearer <token>}; JSON
 * bodies with {@code Content-Type: application/json}. Immutable, so any thread may call it.
 */
final class Requests {
    private static final String JSON = "application/json";

    private final String authorization;
    private final Duration timeout;

    /** @param token the bearer token, or null to send no {@code Authorization} header */
    Requests(String token, Duration timeout) {
        this.authorization = token == null ? null : "Bearer " + token;
        this.timeout = timeout;
    }

    /** A request to {@code uri} with the common headers; the caller sets the method. */
    HttpRequest.Builder to(URI uri) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(timeout).header("Accept", JSON);
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return request;
    }

    /** A {@code method} request to {@code uri} with {@code body} as its JSON body (not copied). */
    HttpRequest json(URI uri, String method, byte[] body) {
        return to(uri).header("Content-Type", JSON).method(method, HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
    }
}
