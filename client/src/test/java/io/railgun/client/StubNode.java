package io.railgun.client;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import javax.net.ssl.SSLContext;

/**
 * A stand-in for a Railgun node in client tests: an HTTP server on a free local port that records
 * every request and answers each with the next canned response (500 when none is left, so a
 * missing one shows up as an error). Requests are served on a small pool, in arrival order of
 * the canned responses.
 */
final class StubNode implements AutoCloseable {

    /** A request as the server saw it: raw (still percent-encoded) path and query. */
    record Recorded(String method, String rawPath, String rawQuery, Headers headers, byte[] body) {
        String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }

        String header(String name) {
            return headers.getFirst(name);
        }
    }

    private record Canned(int status, byte[] body, Map<String, String> headers, Duration delay) {}

    private final HttpServer server;
    private final ExecutorService executor = Executors.newFixedThreadPool(4);
    private final BlockingQueue<Canned> responses = new LinkedBlockingQueue<>();
    private final List<Recorded> requests = new CopyOnWriteArrayList<>();

    /** Plain HTTP. */
    StubNode() throws IOException {
        this(null);
    }

    /** HTTPS with {@code tls}'s key and certificate, or plain HTTP when null. */
    StubNode(SSLContext tls) throws IOException {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        if (tls == null) {
            server = HttpServer.create(address, 0);
        } else {
            HttpsServer https = HttpsServer.create(address, 0);
            https.setHttpsConfigurator(new HttpsConfigurator(tls));
            server = https;
        }
        server.createContext("/", this::handle);
        server.setExecutor(executor);
        server.start();
    }

    URI baseUri() {
        String scheme = server instanceof HttpsServer ? "https" : "http";
        return URI.create(scheme + "://127.0.0.1:" + server.getAddress().getPort());
    }

    StubNode reply(int status, String body) {
        return reply(status, body, Map.of());
    }

    StubNode reply(int status, String body, Map<String, String> headers) {
        responses.add(new Canned(status, body.getBytes(StandardCharsets.UTF_8), headers, Duration.ZERO));
        return this;
    }

    StubNode replyAfter(Duration delay, int status, String body) {
        responses.add(new Canned(status, body.getBytes(StandardCharsets.UTF_8), Map.of(), delay));
        return this;
    }

    List<Recorded> requests() {
        return requests;
    }

    Recorded lastRequest() {
        return requests.getLast();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body;
            try (InputStream in = exchange.getRequestBody()) {
                body = in.readAllBytes();
            }
            URI uri = exchange.getRequestURI();
            requests.add(new Recorded(exchange.getRequestMethod(), uri.getRawPath(), uri.getRawQuery(),
                    exchange.getRequestHeaders(), body));
            Canned canned = responses.poll();
            if (canned == null) {
                canned = new Canned(500, "no canned response left in the stub".getBytes(StandardCharsets.UTF_8), Map.of(),
                        Duration.ZERO);
            }
            if (!canned.delay().isZero()) {
                Thread.sleep(canned.delay());
            }
            canned.headers().forEach((name, value) -> exchange.getResponseHeaders().add(name, value));
            if (canned.body().length > 0 && !canned.headers().containsKey("Content-Type")) {
                exchange.getResponseHeaders().add("Content-Type", "application/json");
            }
            exchange.sendResponseHeaders(canned.status(), canned.body().length == 0 ? -1 : canned.body().length);
            if (canned.body().length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(canned.body());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
