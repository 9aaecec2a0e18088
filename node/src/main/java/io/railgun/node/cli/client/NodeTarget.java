package io.railgun.node.cli.client;

import io.railgun.client.RailgunClient;

import javax.net.ssl.SSLContext;
import java.net.URI;
import java.time.Duration;

/**
 * Where a client command sends its requests and with what: the node's URL, where that came from
 * (for error messages), the bearer token, the TLS context and the request timeout. Immutable.
 *
 * @param uri            the node's base URL
 * @param origin         how the URL was chosen: {@code --url}, {@code RAILGUN_PORT}, {@code the default} ...
 * @param token          the bearer token (the admin token when set, else the ingest token), or null
 * @param tokenOrigin    where the token came from, or null
 * @param sslContext     trusts the node's certificate (from {@code tls-keystore}), or null for the JDK's
 * @param requestTimeout how long a request waits for its reply
 */
public record NodeTarget(URI uri, String origin, String token, String tokenOrigin, SSLContext sslContext,
                         Duration requestTimeout) {

    /** A new client for this target; the caller closes it. */
    public RailgunClient client() {
        return RailgunClient.builder().baseUri(uri).token(token).sslContext(sslContext).requestTimeout(requestTimeout)
                .build();
    }

    /** {@code http://127.0.0.1:7070 (from --port)}. */
    public String describe() {
        return uri + " (" + origin + ")";
    }
}
