package io.railgun.client;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;

/**
 * The typed client of Railgun's HTTP API (SPEC §3): one method per endpoint.
 *
 * <table>
 *   <caption>Endpoints</caption>
 *   <tr><th>Method</th><th>Request</th></tr>
 *   <tr><td>{@link #createStream}</td><td>{@code PUT /v1/streams/{stream}} (§3.1)</td></tr>
 *   <tr><td>{@link #stream}</td><td>{@code GET /v1/streams/{stream}}</td></tr>
 *   <tr><td>{@link #streams}</td><td>{@code GET /v1/streams}</td></tr>
 *   <tr><td>{@link #deleteStream}</td><td>{@code DELETE /v1/streams/{stream}}</td></tr>
 *   <tr><td>{@link #addMetrics}</td><td>{@code POST /v1/streams/{stream}/metrics} (§3.2)</td></tr>
 *   <tr><td>{@link #metrics}</td><td>{@code GET /v1/streams/{stream}/metrics}</td></tr>
 *   <tr><td>{@link #deleteMetric}</td><td>{@code DELETE /v1/streams/{stream}/metrics/{name}}</td></tr>
 *   <tr><td>{@link #send}, {@link #sendAsync}, {@link #sendJsonAsync}</td>
 *       <td>{@code POST /v1/streams/{stream}/events} (§3.3)</td></tr>
 *   <tr><td>{@link #sendBatch}, {@link #sendBatchAsync}</td>
 *       <td>{@code POST /v1/streams/{stream}/events:batch}</td></tr>
 *   <tr><td>{@link #read}</td><td>{@code GET /v1/streams/{stream}/metrics/{name}?field=value...} (§3.4)</td></tr>
 *   <tr><td>{@link #health}</td><td>{@code GET /health} (§3.5)</td></tr>
 * </table>
 *
 * <p>Every request carries {@code Accept: application/json}, JSON bodies {@code Content-Type:
 * application/json}, and, when a token is configured, {@code Authorization: Bearer <token>}. Names
 * in paths and point-read keys are percent-encoded (UTF-8). A non-2xx reply, or no reply at all,
 * is a {@link RailgunException}; expected outcomes of an event (duplicate, dropped as late) are
 * fields of its {@link EventReply}.
 *
 * <p>Retries are opt-in ({@link Builder#retry}): with a {@link RetryPolicy} other than {@link
 * RetryPolicy#none()}, a request that got a 503 (or no reply) is sent again, with the same body,
 * when that is safe; the exception of the last attempt is thrown when every attempt failed.
 *
 * <p>Thread-safe: one client is meant to be shared by all threads of an application. It holds one
 * {@link HttpClient} (HTTP/1.1, kept-alive connections); the futures of the asynchronous calls
 * complete on the configured executor (by default, the HttpClient's own pool), so callbacks that
 * block should move to another executor. {@link #close()} waits for requests in flight.
 *
 * <pre>{@code
 * try (RailgunClient client = RailgunClient.builder().baseUri("http://127.0.0.1:7070").build()) {
 *     EventReply reply = client.send("payments", Map.of("id", "e1", "card", "c1", "amount", 12.5));
 * }
 * }</pre>
 */
public final class RailgunClient implements AutoCloseable {
    /** {@code http://127.0.0.1:7070}, where {@code ./railgun start} listens. */
    public static final URI DEFAULT_BASE_URI = URI.create("http://127.0.0.1:7070");
    /** How long a request waits for its reply unless told otherwise. */
    public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);

    /** For {@link Retrier#call}: a request the node may receive twice (a read, a PUT of a definition, an event). */
    private static final boolean REPEATABLE = true;
    /** For {@link Retrier#call}: a change that must not be made twice (adding metrics, deleting). */
    private static final boolean CHANGE = false;

    private final Endpoints endpoints;
    private final Requests requests;
    private final Transport transport;
    private final Retrier retrier;

    private RailgunClient(Builder builder) {
        this.endpoints = new Endpoints(builder.baseUri);
        this.requests = new Requests(builder.token, builder.requestTimeout);
        this.transport = new Transport(builder.requestTimeout, builder.sslContext, builder.executor);
        this.retrier = new Retrier(transport, builder.retry, builder.pause, builder.executor);
    }

    /** A builder with the defaults: {@link #DEFAULT_BASE_URI}, no token, {@link #DEFAULT_REQUEST_TIMEOUT}. */
    public static Builder builder() {
        return new Builder();
    }

    /** The base URI the API's paths are appended to. */
    public URI baseUri() {
        return endpoints.base();
    }

    // --- streams (SPEC §3.1) ---------------------------------------------------------------

    /**
     * {@code PUT /v1/streams/{name}} with {@code spec}: creates the stream, or changes an existing
     * one's schema compatibly (a new nullable field).
     *
     * @return {@link StreamPutResult#CREATED} for 201, {@link StreamPutResult#UPDATED} for 200
     * @throws RailgunException 409 on an incompatible change, 400 on an invalid spec
     */
    public StreamPutResult createStream(String name, StreamSpec spec) {
        HttpResponse<byte[]> response =
                retrier.call(requests.json(endpoints.stream(name), "PUT", JsonCodec.streamSpec(spec)), REPEATABLE);
        return response.statusCode() == 201 ? StreamPutResult.CREATED : StreamPutResult.UPDATED;
    }

    /**
     * {@code GET /v1/streams/{name}}: the stream's current definition, in the shape of its PUT body.
     *
     * @throws RailgunException 404 when there is no such stream
     */
    public StreamSpec stream(String name) {
        return Responses.decode(get(endpoints.stream(name)), JsonCodec::streamSpec);
    }

    /**
     * {@code GET /v1/streams}, whose body is {@code {"streams": [{"name": "payments", "fields":
     * {...}, "eventId": ..., <the other attributes of the PUT body>}, ...]}}.
     *
     * @return stream name → definition, in the node's order (unmodifiable)
     */
    public Map<String, StreamSpec> streams() {
        return Collections.unmodifiableMap(
                Responses.decode(get(endpoints.streams()), JsonCodec::streams));
    }

    /**
     * {@code DELETE /v1/streams/{name}}.
     *
     * @throws RailgunException 404 when there is no such stream
     */
    public void deleteStream(String name) {
        retrier.call(requests.to(endpoints.stream(name)).DELETE().build(), CHANGE);
    }

    // --- metrics (SPEC §3.2) ---------------------------------------------------------------

    /**
     * {@code POST /v1/streams/{stream}/metrics} with {@code {"query": query}}, leaving {@code
     * backfill} to the node's default.
     *
     * @return the new metrics' names, from the 201 body {@code {"metrics": [...]}}
     * @throws RailgunException 400 on a syntax or semantic error (the message gives the position
     *                          and a hint), 404 for an unknown stream
     */
    public List<String> addMetrics(String stream, String query) {
        return addMetrics(stream, JsonCodec.metricsRequest(query, null));
    }

    /**
     * {@code POST /v1/streams/{stream}/metrics} with {@code {"query": query, "backfill": backfill}};
     * with backfill the new metrics are first computed from the events already stored.
     *
     * @return the new metrics' names
     * @throws RailgunException 400 on a syntax or semantic error, 404 for an unknown stream
     */
    public List<String> addMetrics(String stream, String query, boolean backfill) {
        return addMetrics(stream, JsonCodec.metricsRequest(query, backfill));
    }

    private List<String> addMetrics(String stream, byte[] body) {
        return Responses.decode(retrier.call(requests.json(endpoints.metrics(stream), "POST", body), CHANGE),
                JsonCodec::metricNames);
    }

    /**
     * {@code GET /v1/streams/{stream}/metrics}, whose body is {@code {"metrics": [{"name": ...,
     * "statement": ..., ...}, ...]}}.
     *
     * @return the stream's metrics in the node's order
     */
    public List<MetricInfo> metrics(String stream) {
        return Responses.decode(get(endpoints.metrics(stream)), JsonCodec::metricInfos);
    }

    /**
     * {@code DELETE /v1/streams/{stream}/metrics/{name}}.
     *
     * @throws RailgunException 404 for an unknown stream or metric
     */
    public void deleteMetric(String stream, String name) {
        retrier.call(requests.to(endpoints.metric(stream, name)).DELETE().build(), CHANGE);
    }

    // --- events (SPEC §3.3) ----------------------------------------------------------------

    /**
     * {@code POST /v1/streams/{stream}/events} with {@code event} as a JSON object (in the map's
     * iteration order; values Long/Integer, Double, String, Boolean, null, or an {@link
     * java.time.Instant} written as ISO-8601), and waits for the reply.
     *
     * @return every metric of the stream for this event, and whether it was a duplicate or dropped
     * @throws RailgunException 4xx for a bad event or unknown stream, 503 (with {@link
     *                          RailgunException#retryAfterSeconds()}) when the node could not answer
     *                          in time, status 0 when unreachable
     */
    public EventReply send(String stream, Map<String, ?> event) {
        return Responses.decode(
                retrier.call(requests.json(endpoints.events(stream), "POST", JsonCodec.write(event)), REPEATABLE),
                JsonCodec::eventReply);
    }

    /**
     * As {@link #send}, without blocking: the future completes with the reply, or exceptionally
     * with a {@link RailgunException} (wrapped in a {@link CompletionException} by {@code join}).
     */
    public CompletableFuture<EventReply> sendAsync(String stream, Map<String, ?> event) {
        HttpRequest request = requests.json(endpoints.events(stream), "POST", JsonCodec.write(event));
        return retrier.callAsync(request).thenApply(response -> Responses.decode(response, JsonCodec::eventReply));
    }

    /**
     * {@code POST /v1/streams/{stream}/events:batch} with the events as a JSON array.
     *
     * @return one reply per event, in the events' order
     * @throws RailgunException as {@link #send}; 413 when the batch is larger than the node accepts
     */
    public List<EventReply> sendBatch(String stream, List<? extends Map<String, ?>> events) {
        return Responses.decode(
                retrier.call(requests.json(endpoints.batch(stream), "POST", JsonCodec.write(events)), REPEATABLE),
                JsonCodec::eventReplies);
    }

    /** As {@link #sendBatch}, without blocking. */
    public CompletableFuture<List<EventReply>> sendBatchAsync(String stream, List<? extends Map<String, ?>> events) {
        HttpRequest request = requests.json(endpoints.batch(stream), "POST", JsonCodec.write(events));
        return retrier.callAsync(request).thenApply(response -> Responses.decode(response, JsonCodec::eventReplies));
    }

    /**
     * The fast path for load injectors: {@code POST /v1/streams/{stream}/events} with {@code
     * eventJson} sent as it is (one JSON object, UTF-8; not checked, not copied: do not change it
     * until the future completes), completing with the response as it arrived. No JSON is parsed
     * or written on the client's side.
     *
     * @return a future of the response, whatever its status (a non-2xx status is not an
     *         exception here); it completes exceptionally with a {@link RailgunException} only when
     *         there is no response (status 0: {@code unreachable}, {@code timeout}). Never retried:
     *         an injector measures each send.
     */
    public CompletableFuture<RawResponse> sendJsonAsync(String stream, byte[] eventJson) {
        HttpRequest request = requests.json(endpoints.events(stream), "POST", eventJson);
        return transport.exchangeAsync(request).thenApply(
                response -> new RawResponse(response.statusCode(), response.body(),
                        Responses.retryAfterSeconds(response)));
    }

    /**
     * Decodes a {@link RawResponse} of {@link #sendJsonAsync} as {@link #sendAsync} would have.
     *
     * @throws RailgunException when its status is not 2xx, or its body not an event reply
     */
    public EventReply decodeEventReply(RawResponse raw) {
        if (!raw.isSuccess()) {
            throw Responses.error(raw.status(), raw.body(), raw.retryAfterSeconds());
        }
        return Responses.decode(raw.status(), raw.body(), JsonCodec::eventReply);
    }

    // --- point reads (SPEC §3.4) -----------------------------------------------------------

    /**
     * {@code GET /v1/streams/{stream}/metrics/{metric}?field=value...}: the metric's current value
     * for {@code key} (one entry per GROUP BY field, values written with {@code String.valueOf}),
     * without sending an event.
     *
     * @throws IllegalArgumentException when a key value is null (the query string cannot say it)
     * @throws RailgunException         404 for an unknown stream or metric, 409 while the metric is
     *                                  being backfilled, 400 for a wrong key
     */
    public PointRead read(String stream, String metric, Map<String, ?> key) {
        return Responses.decode(get(endpoints.pointRead(stream, metric, key)),
                root -> JsonCodec.pointRead(root, metric, key));
    }

    // --- operations (SPEC §3.5) ------------------------------------------------------------

    /** {@code GET /health}: true when the node answers 2xx; false for any other status or no answer. */
    public boolean health() {
        try {
            HttpResponse<byte[]> response = transport.exchange(requests.to(endpoints.health()).GET().build());
            return response.statusCode() >= 200 && response.statusCode() < 300;
        } catch (RailgunException e) {
            return false;
        }
    }

    /**
     * {@code GET /v1/cluster} (admin scope): the nodes and every task's active and replica copies
     * with their lag, checkpoint age and recovery progress, as the node's JSON text (its shape is in
     * the node's OpenAPI document, schema {@code Cluster}; it grows as the cluster features do).
     *
     * @throws RailgunException 403 without an admin token, 503 when the node does not follow the cluster
     */
    public String clusterJson() {
        return new String(get(endpoints.cluster()).body(),
                java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Waits for the requests in flight, then releases the connections and threads. */
    @Override
    public void close() {
        transport.close();
    }

    /** {@code GET uri} (safe to repeat): a 2xx response, else the RailgunException of the last attempt. */
    private HttpResponse<byte[]> get(URI uri) {
        return retrier.call(requests.to(uri).GET().build(), REPEATABLE);
    }

    /**
     * Configures a {@link RailgunClient}. Not thread-safe; {@link #build()} may be called more than
     * once.
     */
    public static final class Builder {
        private URI baseUri = DEFAULT_BASE_URI;
        private String token;
        private Duration requestTimeout = DEFAULT_REQUEST_TIMEOUT;
        private SSLContext sslContext;
        private Executor executor;
        private RetryPolicy retry = RetryPolicy.none();
        private Pause pause = Pause.SYSTEM;

        private Builder() {}

        /** Where the node listens, e.g. {@code http://127.0.0.1:7070} or {@code https://node1:7443}. */
        public Builder baseUri(URI uri) {
            this.baseUri = Objects.requireNonNull(uri, "uri");
            return this;
        }

        public Builder baseUri(String uri) {
            return baseUri(URI.create(uri));
        }

        /** Sent as {@code Authorization: Bearer <token>} on every request; null sends none. */
        public Builder token(String bearerToken) {
            if (bearerToken != null && (bearerToken.isBlank() || bearerToken.chars().anyMatch(c -> c < 0x21 || c > 0x7E))) {
                throw new IllegalArgumentException("a bearer token must be non-empty printable ASCII without spaces");
            }
            this.token = bearerToken;
            return this;
        }

        /**
         * How long a request may wait for its reply (also the connect timeout); default
         * {@link #DEFAULT_REQUEST_TIMEOUT}.
         */
        public Builder requestTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "timeout");
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("request timeout must be positive, not " + timeout);
            }
            this.requestTimeout = timeout;
            return this;
        }

        /**
         * The TLS context for an {@code https} base URI, e.g. one whose trust manager trusts the
         * node's self-signed certificate; null uses the JDK's default trust store. Host names are
         * still verified against the certificate.
         */
        public Builder sslContext(SSLContext context) {
            this.sslContext = context;
            return this;
        }

        /** The executor asynchronous results complete on; null uses the HttpClient's own pool. */
        public Builder executor(Executor executor) {
            this.executor = executor;
            return this;
        }

        /**
         * When failed requests are sent again: e.g. {@code RetryPolicy.exponential(5,
         * Duration.ofMillis(100), Duration.ofSeconds(5))}; default {@link RetryPolicy#none()}, every
         * request is sent once.
         */
        public Builder retry(RetryPolicy policy) {
            this.retry = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** How the client waits between attempts; tests record the waits instead of waiting. */
        Builder pause(Pause pause) {
            this.pause = Objects.requireNonNull(pause, "pause");
            return this;
        }

        /** @throws IllegalArgumentException when the base URI is not http(s)://host[:port][/path] */
        public RailgunClient build() {
            return new RailgunClient(this);
        }
    }
}
