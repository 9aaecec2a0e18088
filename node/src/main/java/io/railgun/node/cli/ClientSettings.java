package io.railgun.node.cli;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.List;
import java.util.Locale;

/**
 * The settings only the client commands ({@code streams}, {@code metrics}, {@code send},
 * {@code read}) have, beside the ones they share with {@code start} (host, port, tokens, TLS
 * keystore, config file): where the node is, as one URL. A flag or an environment variable, never
 * a config file key (a node's config file has no use for it).
 */
public final class ClientSettings {
    /** {@code http(s)://HOST:PORT} with an optional path; what the commands talk to. */
    public static final ValueType<URI> HTTP_URL = new ValueType<>() {
        @Override
        public URI parse(String text) {
            URI uri;
            try {
                uri = new URI(text.endsWith("/") ? text.substring(0, text.length() - 1) : text);
            } catch (URISyntaxException e) {
                throw new IllegalArgumentException("not a URL (" + e.getReason() + "), e.g. http://127.0.0.1:7070");
            }
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
                throw new IllegalArgumentException("not an http:// or https:// URL with a host, e.g. http://127.0.0.1:7070");
            }
            if (uri.getQuery() != null || uri.getFragment() != null) {
                throw new IllegalArgumentException("a base URL without ?query or #fragment, e.g. http://127.0.0.1:7070");
            }
            return uri;
        }
    };

    public static final Setting<URI> URL = Setting.of("url", "URL", HTTP_URL, null,
                    "The node's HTTP API; wins over host, port and tls-keystore from the same or a lower source")
            .withDefaultText("http://HOST:PORT from host and port (https with tls-keystore): http://127.0.0.1:7070");

    /** The client commands' own settings. */
    public static final List<Setting<?>> ALL = List.of(URL);

    private ClientSettings() {
    }
}
