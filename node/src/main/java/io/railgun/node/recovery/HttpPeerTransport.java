package io.railgun.node.recovery;

import io.railgun.node.assignment.TaskId;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@link PeerTransport} over the JDK's {@link HttpClient} (HTTP/1.1; HTTPS peers are checked against
 * the JVM's trust store). Sends the admin token when the node has one: peers of a cluster share it.
 * Thread-safe.
 */
final class HttpPeerTransport implements PeerTransport {
    private static final Pattern CODE = Pattern.compile("\"code\"\\s*:\\s*\"([A-Za-z0-9_]+)\"");
    private static final Duration TIMEOUT = Duration.ofSeconds(60); // a manifest may wait for a snapshot
    private final HttpClient http;
    private final String token;

    HttpPeerTransport(String adminToken) {
        this.http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5))
                .followRedirects(HttpClient.Redirect.NEVER).build();
        this.token = adminToken;
    }

    @Override
    public byte[] manifest(String baseUrl, TaskId task) throws IOException, InterruptedException {
        HttpResponse<byte[]> r = send(request(baseUrl, TransferPath.manifest(task)).build());
        if (r.statusCode() != 200) {
            throw refusal(r, "manifest of " + task);
        }
        return r.body();
    }

    @Override
    public byte[] range(String baseUrl, TaskId task, long snapshotId, String file, long offset, int length)
            throws IOException, InterruptedException {
        HttpRequest req = request(baseUrl, TransferPath.file(task, snapshotId, file))
                .header("Range", "bytes=" + offset + "-" + (offset + length - 1)).build();
        HttpResponse<byte[]> r = send(req);
        if (r.statusCode() != 206 && !(r.statusCode() == 200 && offset == 0)) {
            throw refusal(r, file + " of snapshot " + snapshotId);
        }
        String range = r.headers().firstValue("Content-Range").orElse("");
        if (r.statusCode() == 206 && !range.startsWith("bytes " + offset + "-")) {
            throw new IOException("peer answered range '" + range + "' for bytes " + offset + "- of " + file);
        }
        if (r.body().length != length) {
            throw new IOException("peer sent " + r.body().length + " bytes of " + file + " at " + offset + ", not " + length);
        }
        return r.body();
    }

    private HttpRequest.Builder request(String baseUrl, String path) {
        String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path)).timeout(TIMEOUT).GET();
        if (token != null && !token.isEmpty()) {
            b.header("Authorization", "Bearer " + token);
        }
        return b;
    }

    private HttpResponse<byte[]> send(HttpRequest req) throws IOException, InterruptedException {
        return http.send(req, HttpResponse.BodyHandlers.ofByteArray());
    }

    private static PeerException refusal(HttpResponse<byte[]> r, String what) {
        String body = new String(r.body(), 0, Math.min(r.body().length, 500), StandardCharsets.UTF_8);
        Matcher m = CODE.matcher(body);
        String code = m.find() ? m.group(1) : "http_" + r.statusCode();
        return new PeerException(r.statusCode(), code, "peer refused " + what + ": " + r.statusCode() + " " + body.strip());
    }
}
