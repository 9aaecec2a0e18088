package io.railgun.node.http;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.railgun.node.NodeConfig;
import io.railgun.node.frontend.FrontEnd;
import io.railgun.node.ops.NodeMetrics;
import io.railgun.node.ops.Readiness;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The node's HTTP API (SPEC §3) on the JDK's HTTP server: plain HTTP, or HTTPS when
 * {@link NodeConfig#tlsKeystore()} is set. Each request runs on its own virtual thread. Routes,
 * errors, limits and tokens are described in {@link ApiDispatcher}; the JSON in {@link StreamJson},
 * {@link EventJson}, {@link ReplyJson}, {@link MetricJson} and {@link PointReadKey}.
 *
 * <p>Lifecycle: {@link #start} binds and serves; {@link #close} stops accepting connections, lets the
 * requests in flight finish (waiting at most the request timeout plus one second), then stops.
 * Thread-safe; {@code close} is idempotent.
 */
public final class HttpApi implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(HttpApi.class.getName());
    private final HttpServer server;
    private final ApiDispatcher dispatcher;
    private final ExecutorService executor;
    private final boolean tls;
    private final int drainSeconds;
    private final AtomicBoolean closed = new AtomicBoolean();

    private HttpApi(HttpServer server, ApiDispatcher dispatcher, ExecutorService executor, boolean tls, int drainSeconds) {
        this.dispatcher = dispatcher;
        this.server = server;
        this.executor = executor;
        this.tls = tls;
        this.drainSeconds = drainSeconds;
    }

    /**
     * Binds {@code config.host():config.port()} (port 0 picks a free one) and starts serving.
     *
     * @param metrics   where requests, events and replies are counted, and what {@code GET /metrics} shows
     * @param readiness what {@code GET /health/ready} answers
     * @throws IOException when the address cannot be bound
     * @throws IllegalArgumentException when the TLS keystore cannot be used
     */
    public static HttpApi start(NodeConfig config, FrontEnd frontEnd, NodeMetrics metrics, Readiness readiness)
            throws IOException {
        return start(config, ApiBackend.of(frontEnd), metrics, readiness);
    }

    /** Starts over any backend, always ready: the seam tests use to stand in for the front-end. */
    static HttpApi start(NodeConfig config, ApiBackend backend, NodeMetrics metrics) throws IOException {
        return start(config, backend, metrics, Readiness.ALWAYS);
    }

    /** Starts over any backend and readiness. */
    static HttpApi start(NodeConfig config, ApiBackend backend, NodeMetrics metrics, Readiness readiness)
            throws IOException {
        // the JDK server closes idle keep-alive connections beyond 200, and a client sending on one
        // then gets no reply: allow as many as a benchmark injector or a busy front-end keeps
        if (System.getProperty("sun.net.httpserver.maxIdleConnections") == null) {
            System.setProperty("sun.net.httpserver.maxIdleConnections", "4096");
        }
        InetSocketAddress bind = new InetSocketAddress(config.host(), config.port());
        HttpServer server;
        if (config.tlsKeystore() != null) {
            HttpsServer https = HttpsServer.create();
            https.setHttpsConfigurator(new HttpsConfigurator(ServerTls.context(config.tlsKeystore(),
                    config.tlsKeystorePassword())));
            server = https;
        } else {
            server = HttpServer.create();
        }
        ExecutorService executor = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("http-", 0).factory());
        server.setExecutor(executor);
        ApiDispatcher dispatcher = new ApiDispatcher(config, backend, metrics, readiness);
        server.createContext("/", dispatcher);
        try {
            server.bind(bind, 0);
        } catch (IOException e) {
            executor.shutdownNow();
            throw new IOException("cannot listen on " + config.host() + ":" + config.port() + " (" + e.getMessage()
                    + "); choose another --port or stop what uses it", e);
        }
        server.start();
        int drainSeconds = (int) Math.min(3600, (config.requestTimeoutMs() + 999) / 1000 + 1);
        HttpApi api = new HttpApi(server, dispatcher, executor, config.tlsKeystore() != null, drainSeconds);
        LOG.log(System.Logger.Level.INFO, "HTTP API listening on " + api.uri());
        return api;
    }

    /** The bound address (the actual port when 0 was asked). */
    public InetSocketAddress address() {
        return server.getAddress();
    }

    /** The base URI, e.g. {@code http://127.0.0.1:7070} or {@code https://...}. */
    public URI uri() {
        InetSocketAddress a = address();
        String host = a.getAddress() instanceof Inet6Address ? "[" + a.getAddress().getHostAddress() + "]"
                : a.getAddress().getHostAddress();
        return URI.create((tls ? "https" : "http") + "://" + host + ":" + a.getPort());
    }

    /**
     * Stops accepting connections, waits for the requests in flight (at most the request timeout plus
     * one second), then closes every connection and stops the handler threads.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        // HttpServer.stop(delay) may wait its whole delay for a connection a client has just closed:
        // wait for our own count of requests in flight instead, then stop at once
        dispatcher.drain();
        long deadline = System.nanoTime() + drainSeconds * 1_000_000_000L;
        while (dispatcher.inFlight() > 0 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        server.stop(0);
        executor.shutdown();
        try {
            if (!executor.awaitTermination(1, TimeUnit.SECONDS)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
        LOG.log(System.Logger.Level.INFO, "HTTP API stopped");
    }
}
