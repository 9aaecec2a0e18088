package io.railgun.node.http;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.railgun.engine.schema.StreamDefinition;
import io.railgun.node.NodeConfig;
import io.railgun.node.cluster.ClusterReport;
import io.railgun.node.frontend.ApiException;
import io.railgun.node.ops.NodeMetrics;
import io.railgun.node.ops.Readiness;
import java.io.IOException;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The one handler of the API: matches the path, checks the token, dispatches to the endpoint and
 * turns every outcome into a response. Order of checks: bearer token (401/403: nothing else is told to
 * an unauthenticated caller), path (404 {@code not_found}), method (405 {@code method_not_allowed}
 * with Allow), then the endpoint's own (415, 413, 400, its front-end's answers). Before a request is
 * handled, its connection has received its whole body (or dropped what was too large), so a client
 * refused reads the answer rather than a connection reset. An unexpected
 * exception is logged with its stack trace and an incident id, and answered 500 {@code internal};
 * the server keeps serving. Every request is counted and timed in {@link NodeMetrics}.
 * Thread-safe: called concurrently on the server's virtual threads ({@link #handle}), and on its event
 * loops for the refusals of the connections themselves ({@link #refuse}).
 */
final class ApiDispatcher {
    private static final System.Logger LOG = System.getLogger(ApiDispatcher.class.getName());
    private final NodeConfig config;
    private final NodeMetrics metrics;
    private final BearerAuth auth;
    private final StreamHandlers streams;
    private final MetricHandlers metricHandlers;
    private final EventHandlers events;
    private final OpsHandlers ops;
    private final ApiBackend backend;
    private final InternalApi internal; // null: no internal endpoints
    /**
     * Batches of up to this many body bytes (about 1,500 small events) are parsed on the event loop;
     * larger ones on a thread of their own, so one huge batch does not hold up the loop's other
     * connections.
     */
    static final int INLINE_BATCH_BYTES = 256 * 1024;
    private final java.util.concurrent.atomic.AtomicInteger inFlight = new java.util.concurrent.atomic.AtomicInteger();
    private volatile boolean draining;

    ApiDispatcher(NodeConfig config, ApiBackend backend, NodeMetrics metrics, Readiness readiness) {
        this(config, backend, metrics, readiness, null);
    }

    ApiDispatcher(NodeConfig config, ApiBackend backend, NodeMetrics metrics, Readiness readiness, InternalApi internal) {
        this.internal = internal;
        this.config = config;
        this.metrics = metrics;
        this.auth = new BearerAuth(config.ingestToken(), config.adminToken());
        this.streams = new StreamHandlers(backend);
        this.metricHandlers = new MetricHandlers(backend, config.requestTimeoutMs());
        this.events = new EventHandlers(backend, metrics, config.requestTimeoutMs(), config.maxBatchEvents());
        this.ops = new OpsHandlers(readiness);
        this.backend = backend;
    }

    /** Requests being handled now. */
    int inFlight() {
        return inFlight.get();
    }

    /** From now on, new requests are refused with 503 (the node is stopping); those in flight finish. */
    void drain() {
        draining = true;
    }

    /**
     * Serves one request whose body was received whole, from its connection's event loop: a single
     * event or a batch of at most {@value #INLINE_BATCH_BYTES} bytes to a stream the front-end can
     * send to without blocking is handled right here, parsed and
     * sent on the loop and answered from the thread that completes its reply (no thread hand-off on
     * the way in); every other request on a {@code handlers} thread ({@link #handle}).
     *
     * @throws java.util.concurrent.RejectedExecutionException when {@code handlers} is shut down
     */
    void serve(ApiRequest req, java.util.concurrent.Executor handlers) {
        RequestPath path = RequestPath.parse(req.rawPath());
        Endpoint endpoint = path == null ? null : Endpoint.find(path.shape(), req.method());
        boolean inline = endpoint == Endpoint.SEND_EVENT
                || endpoint == Endpoint.SEND_BATCH && req.bodyBytes() <= INLINE_BATCH_BYTES;
        if (inline && !draining && backend.sendsWithoutBlocking(path.stream())) {
            handleInline(req, path, endpoint);
        } else {
            handlers.execute(() -> handle(req));
        }
    }

    private void handleInline(ApiRequest req, RequestPath path, Endpoint endpoint) {
        inFlight.incrementAndGet();
        long startNs = System.nanoTime();
        req.path(path);
        Runnable done = () -> finish(req, endpoint.route, startNs);
        try {
            authorize(req.method(), path, endpoint, req);
            StreamDefinition stream = StreamHandlers.lookup(backend, req.stream());
            if (endpoint == Endpoint.SEND_EVENT) {
                events.sendInline(req, stream, done);
            } else {
                events.sendBatchInline(req, stream, done);
            }
            req.releaseBody(); // copied into the request's scratch
            return;
        } catch (ApiException e) {
            answer(req, e);
        } catch (RuntimeException | StackOverflowError e) {
            internal(req, e);
        }
        done.run();
    }

    /** The end of an inline request: whichever thread answered it. */
    private void finish(ApiRequest req, String route, long startNs) {
        try {
            req.releaseBody();
            if (!req.responded()) {
                internal(req, new IllegalStateException("the endpoint sent no response"));
            }
            metrics.recordRequest(route, req.responded() ? req.status() : 500, System.nanoTime() - startNs);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /** Answers a request whose front-end future failed: its ApiException, else 500 (logged). */
    static void failed(ApiRequest req, Throwable failure) {
        Throwable c = failure;
        while (c instanceof java.util.concurrent.CompletionException && c.getCause() != null) {
            c = c.getCause();
        }
        if (c instanceof ApiException api) {
            answer(req, api);
        } else {
            internal(req, c);
        }
    }

    /** Handles one request whose body was received whole; always answers it. */
    void handle(ApiRequest req) {
        inFlight.incrementAndGet();
        try {
            handleCounted(req);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    /**
     * Answers a request the connection refused before any endpoint (malformed, too long, too slow), and
     * counts it as {@value Endpoint#UNMATCHED}.
     */
    void refuse(ApiRequest req, ApiException e) {
        long startNs = System.nanoTime();
        try {
            answer(req, e);
        } finally {
            req.releaseBody();
            metrics.recordRequest(Endpoint.UNMATCHED, e.status(), System.nanoTime() - startNs);
        }
    }

    private void handleCounted(ApiRequest req) {
        long startNs = System.nanoTime();
        String method = req.method();
        RequestPath path = RequestPath.parse(req.rawPath());
        Endpoint endpoint = path == null ? null : Endpoint.find(path.shape(), method);
        boolean internalPath = internal != null && InternalApi.owns(req.rawPath());
        String route = endpoint != null ? endpoint.route
                : path != null ? Endpoint.disallowedRoute(path.shape())
                : internalPath ? internal.route(method, req.rawPath()) : Endpoint.UNMATCHED;
        req.path(path);
        try {
            if (draining) {
                req.setHeader("Connection", "close");
                throw ApiException.unavailable("stopping", "the node is shutting down; retry in a moment (or on another"
                        + " node)", 1);
            }
            if (internalPath) {
                dispatchInternal(method, req);
            } else {
                dispatch(method, path, endpoint, req);
            }
        } catch (ApiException e) {
            answer(req, e);
        } catch (IOException e) {
            // the client went away while we answered: nothing more can be sent
            LOG.log(System.Logger.Level.DEBUG, "response to " + method + " " + req.target() + " not sent", e);
        } catch (RuntimeException | StackOverflowError | OutOfMemoryError e) {
            internal(req, e);
        } finally {
            req.releaseBody();
            if (!req.responded()) {
                internal(req, new IllegalStateException("the endpoint sent no response"));
            }
            metrics.recordRequest(route, req.responded() ? req.status() : 500, System.nanoTime() - startNs);
        }
    }

    /** A node-to-node request ({@link InternalApi}): the admin token, then the internal handler. */
    private void dispatchInternal(String method, ApiRequest req) throws IOException {
        authorize(Scope.ADMIN, method, req);
        InternalApi.Response r = internal.handle(method, req.rawPath(), req::header);
        for (int i = 0; i + 1 < r.headers().size(); i += 2) {
            req.setHeader(r.headers().get(i), r.headers().get(i + 1));
        }
        req.respondBytes(r.status(), r.contentType(), r.body(), r.length());
    }

    /** The token check: 401/403 (nothing else is told to an unauthenticated caller). */
    private void authorize(String method, RequestPath path, Endpoint endpoint, ApiRequest req) {
        // unknown paths and methods need some valid token too, so they reveal nothing to strangers
        Scope needed = endpoint != null ? endpoint.scope
                : path != null && path.shape() == RequestPath.Shape.HEALTH ? Scope.NONE : Scope.INGEST;
        authorize(needed, method, req);
    }

    private void authorize(Scope needed, String method, ApiRequest req) {
        BearerAuth.Refusal refused = !auth.enabled() ? null : auth.check(
                req.header(HttpHeaderNames.AUTHORIZATION), needed, method + " " + req.rawPath());
        if (refused != null) {
            if (refused.challenge() != null) {
                req.setHeader("WWW-Authenticate", refused.challenge());
            }
            throw refused.error();
        }
    }

    private void dispatch(String method, RequestPath path, Endpoint endpoint, ApiRequest req) throws IOException {
        authorize(method, path, endpoint, req);
        if (path == null) {
            throw ApiException.notFound("not_found", "no endpoint at " + req.rawPath()
                    + "; the API serves /v1/streams[/{stream}[/metrics[/{name}] | /events | /events:batch]], "
                    + "/v1/cluster, /v1/openapi.json, /health[/live | /ready] and /metrics");
        }
        if (endpoint == null) {
            String allowed = Endpoint.allowed(path.shape());
            req.setHeader("Allow", allowed);
            throw new ApiException(405, "method_not_allowed", method + " is not allowed on " + path.shape().template
                    + "; use " + allowed);
        }
        switch (endpoint) {
            case HEALTH -> req.respondJson(200, g -> {
                g.writeStartObject();
                g.writeStringField("status", "ok");
                g.writeEndObject();
            });
            case HEALTH_LIVE -> ops.live(req);
            case HEALTH_READY -> ops.ready(req);
            case OPENAPI -> ops.openApi(req);
            case PROMETHEUS -> {
                GrowableBytes out = new GrowableBytes(16 * 1024);
                metrics.writeText(out);
                req.respond(200, metrics.textContentType(), out);
            }
            case CLUSTER -> {
                ClusterReport report = backend.cluster();
                req.respondJson(200, g -> ClusterJson.write(g, report));
            }
            case LIST_STREAMS -> streams.list(req);
            case PUT_STREAM -> streams.put(req);
            case GET_STREAM -> streams.get(req);
            case DELETE_STREAM -> streams.delete(req);
            case ADD_STATEMENT -> metricHandlers.add(req);
            case LIST_METRICS -> metricHandlers.list(req);
            case READ_METRIC -> metricHandlers.read(req);
            case DELETE_METRIC -> metricHandlers.remove(req);
            case SEND_EVENT -> events.send(req);
            case SEND_BATCH -> events.sendBatch(req);
        }
    }

    static void answer(ApiRequest req, ApiException e) {
        if (req.responded()) {
            LOG.log(System.Logger.Level.WARNING, "refusal after the response was sent: " + e.getMessage());
            return;
        }
        try {
            req.discardUnreadBody();
            req.respondError(e);
        } catch (IOException io) {
            LOG.log(System.Logger.Level.DEBUG, "error response not sent", io);
        }
    }

    static void internal(ApiRequest req, Throwable e) {
        String incident = Long.toHexString(ThreadLocalRandom.current().nextLong() >>> 16);
        LOG.log(System.Logger.Level.ERROR, "internal error " + incident + " on " + req.method() + " " + req.target(), e);
        answer(req, new ApiException(500, "internal", "internal error (incident " + incident + "): the node logged "
                + "the details; retry, and report the incident id if it persists"));
    }
}
