package io.railgun.client;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The URIs of SPEC §3 under one base URI, with names percent-encoded as path segments and point-read
 * keys as query parameters. Thread-safe.
 */
final class Endpoints {
    private final URI base;
    private final String prefix;
    private final ConcurrentHashMap<String, URI> eventUris = new ConcurrentHashMap<>();

    Endpoints(URI base) {
        Objects.requireNonNull(base, "base URI");
        String scheme = base.getScheme();
        if (!"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme) || base.getHost() == null) {
            throw new IllegalArgumentException("base URI must be http://host:port or https://host:port, not " + base);
        }
        if (base.getRawQuery() != null || base.getRawFragment() != null) {
            throw new IllegalArgumentException("base URI must have no query or fragment: " + base);
        }
        this.base = base;
        String text = base.toString();
        // a base with a path (behind a proxy) keeps it; the API's paths are appended to it
        this.prefix = text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
    }

    URI base() {
        return base;
    }

    URI health() {
        return URI.create(prefix + "/health");
    }

    URI cluster() {
        return URI.create(prefix + "/v1/cluster");
    }

    URI streams() {
        return URI.create(prefix + "/v1/streams");
    }

    URI stream(String stream) {
        return URI.create(streamPath(stream));
    }

    URI metrics(String stream) {
        return URI.create(streamPath(stream) + "/metrics");
    }

    URI metric(String stream, String metric) {
        return URI.create(streamPath(stream) + "/metrics/" + segment("metric name", metric));
    }

    /** Cached: the raw send path asks for it once per event. */
    URI events(String stream) {
        URI uri = eventUris.get(stream);
        if (uri == null) {
            uri = URI.create(streamPath(stream) + "/events");
            if (eventUris.size() < 10_000) {
                eventUris.put(stream, uri);
            }
        }
        return uri;
    }

    URI batch(String stream) {
        return URI.create(streamPath(stream) + "/events:batch");
    }

    /** {@code .../metrics/{name}?field=value&...}, one parameter per key field, in the map's order. */
    URI pointRead(String stream, String metric, Map<String, ?> key) {
        StringBuilder uri = new StringBuilder(streamPath(stream)).append("/metrics/").append(segment("metric name", metric));
        char separator = '?';
        for (Map.Entry<String, ?> entry : key.entrySet()) {
            Object value = entry.getValue();
            if (entry.getKey() == null || value == null) {
                throw new IllegalArgumentException("point read key of metric '" + metric + "' has a null name or value ("
                        + entry.getKey() + "=" + value + "); a point read names every GROUP BY field with a value");
            }
            uri.append(separator).append(percentEncode(entry.getKey())).append('=')
                    .append(percentEncode(String.valueOf(value)));
            separator = '&';
        }
        return URI.create(uri.toString());
    }

    private String streamPath(String stream) {
        return prefix + "/v1/streams/" + segment("stream name", stream);
    }

    /** A name as one path segment: never empty, and a '/' in it does not start another segment. */
    static String segment(String what, String value) {
        Objects.requireNonNull(value, what);
        if (value.isEmpty()) {
            throw new IllegalArgumentException(what + " must not be empty");
        }
        return percentEncode(value);
    }

    /**
     * RFC 3986: every UTF-8 byte but the unreserved characters is percent-encoded ('/', '?', '&',
     * '=', '+', ':' and ' ' included), so path and query decoders of every kind read the same value
     * (a space is {@code %20}, never the form encoding's {@code +}).
     */
    static String percentEncode(String value) {
        StringBuilder out = new StringBuilder(value.length());
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xFF;
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || c == '-' || c == '.' || c == '_' || c == '~') {
                out.append((char) c);
            } else {
                out.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xF, 16)));
            }
        }
        return out.toString();
    }
}
