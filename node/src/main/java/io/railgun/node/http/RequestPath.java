package io.railgun.node.http;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;

/**
 * A request path matched against the API's path shapes (SPEC §3), with its decoded stream and metric
 * names. Segments are percent-decoded one by one ({@code +} stays a plus), so an encoded {@code /}
 * cannot split a name. One trailing slash is tolerated.
 *
 * @param shape  which path of the API
 * @param stream the {stream} segment, or null
 * @param metric the {name} segment of a metric, or null
 */
record RequestPath(Shape shape, String stream, String metric) {

    /** The paths of the API; {@code template} is also the route label of the request metrics. */
    enum Shape {
        HEALTH("/health"),
        HEALTH_LIVE("/health/live"),
        HEALTH_READY("/health/ready"),
        OPENAPI("/v1/openapi.json"),
        PROMETHEUS("/metrics"),
        CLUSTER("/v1/cluster"),
        STREAMS("/v1/streams"),
        STREAM("/v1/streams/{stream}"),
        METRICS("/v1/streams/{stream}/metrics"),
        METRIC("/v1/streams/{stream}/metrics/{name}"),
        EVENTS("/v1/streams/{stream}/events"),
        BATCH("/v1/streams/{stream}/events:batch");

        final String template;

        Shape(String template) {
            this.template = template;
        }
    }

    /** The matched path, or null when the path is none of the API's (or not decodable). */
    static RequestPath parse(String rawPath) {
        if (rawPath == null || rawPath.isEmpty()) {
            return null;
        }
        String p = rawPath.length() > 1 && rawPath.endsWith("/") ? rawPath.substring(0, rawPath.length() - 1) : rawPath;
        switch (p) {
            case "/health":
                return new RequestPath(Shape.HEALTH, null, null);
            case "/health/live":
                return new RequestPath(Shape.HEALTH_LIVE, null, null);
            case "/health/ready":
                return new RequestPath(Shape.HEALTH_READY, null, null);
            case "/v1/openapi.json":
                return new RequestPath(Shape.OPENAPI, null, null);
            case "/metrics":
                return new RequestPath(Shape.PROMETHEUS, null, null);
            case "/v1/cluster":
                return new RequestPath(Shape.CLUSTER, null, null);
            case "/v1/streams":
                return new RequestPath(Shape.STREAMS, null, null);
            default:
                break;
        }
        if (!p.startsWith("/v1/streams/")) {
            return null;
        }
        String[] seg = p.substring("/v1/streams/".length()).split("/", -1);
        String stream = decode(seg[0]);
        if (stream == null || stream.isEmpty()) {
            return null;
        }
        if (seg.length == 1) {
            return new RequestPath(Shape.STREAM, stream, null);
        }
        if (seg.length == 2) {
            return switch (seg[1]) {
                case "metrics" -> new RequestPath(Shape.METRICS, stream, null);
                case "events" -> new RequestPath(Shape.EVENTS, stream, null);
                case "events:batch" -> new RequestPath(Shape.BATCH, stream, null);
                default -> null;
            };
        }
        if (seg.length == 3 && seg[1].equals("metrics")) {
            String metric = decode(seg[2]);
            return metric == null || metric.isEmpty() ? null : new RequestPath(Shape.METRIC, stream, metric);
        }
        return null;
    }

    /** Percent-decodes one path segment as UTF-8; null when an escape is malformed. */
    static String decode(String segment) {
        if (segment.indexOf('%') < 0) {
            return segment;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(segment.length());
        for (int i = 0; i < segment.length(); i++) {
            char c = segment.charAt(i);
            if (c == '%') {
                if (i + 2 >= segment.length()) {
                    return null;
                }
                int hi = Character.digit(segment.charAt(i + 1), 16);
                int lo = Character.digit(segment.charAt(i + 2), 16);
                if (hi < 0 || lo < 0) {
                    return null;
                }
                out.write(hi << 4 | lo);
                i += 2;
            } else {
                byte[] b = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                out.write(b, 0, b.length);
            }
        }
        return out.toString(StandardCharsets.UTF_8);
    }
}
