package io.railgun.client;

import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import javax.net.ssl.SSLHandshakeException;

/**
 * When and how long a {@link RailgunClient} waits before sending a failed request again: exponential
 * backoff with jitter, honouring {@code Retry-After}. Opt-in: a client built without
 * {@link RailgunClient.Builder#retry} uses {@link #none()} and sends every request once.
 *
 * <p>A failed request is sent again, with the same body (so an event keeps its {@code eventId}),
 * when its {@link RailgunException#isRetriable() error is retriable} (no reply: {@code unreachable}
 * or {@code timeout}; 429, 502, 503, 504) and repeating it is safe:
 * <ul>
 *   <li>reads, {@code PUT} of a stream definition and event sends ({@code send}, {@code sendBatch}
 *       and their async forms) always are: the node counts an event id once and answers a repeat
 *       with {@code "duplicate": true} and the current values, which are the event's;</li>
 *   <li>{@code addMetrics}, {@code deleteStream} and {@code deleteMetric} are sent again only when
 *       the request never reached the node (connection refused, connect timeout, TLS handshake):
 *       after a 503 the change may have been made (a second POST of the same statement would be
 *       400 {@code duplicate_metric}), so read the stream or its metrics first;</li>
 *   <li>{@code sendJsonAsync} (the injectors' fast path) and {@code health} are never retried.</li>
 * </ul>
 *
 * <p>The wait before retry {@code n} (1, 2, ...) is {@code b/2 + random * b/2} with {@code b =
 * min(maxBackoff, initialBackoff * 2^(n-1))}, and at least the reply's {@code Retry-After} (every 503
 * of the node carries {@code Retry-After: 1}), capped at {@link #MAX_RETRY_AFTER}. The same policy
 * as the Python client's {@code RetryPolicy}.
 *
 * <p>Immutable and thread-safe.
 */
public final class RetryPolicy {
    /** The longest {@code Retry-After} honoured: a larger one waits this long. */
    public static final Duration MAX_RETRY_AFTER = Duration.ofSeconds(30);

    private static final RetryPolicy NONE = new RetryPolicy(1, Duration.ZERO, Duration.ZERO, null);

    private final int maxAttempts;
    private final Duration initialBackoff;
    private final Duration maxBackoff;
    private final DoubleSupplier random;

    private RetryPolicy(int maxAttempts, Duration initialBackoff, Duration maxBackoff, DoubleSupplier random) {
        this.maxAttempts = maxAttempts;
        this.initialBackoff = initialBackoff;
        this.maxBackoff = maxBackoff;
        this.random = random;
    }

    /** Every request is sent once (the default). */
    public static RetryPolicy none() {
        return NONE;
    }

    /**
     * Up to {@code maxAttempts} sends of a request, waiting from about {@code initialBackoff},
     * doubling each time, up to {@code maxBackoff} (Retry-After may ask for more), e.g. {@code
     * exponential(5, Duration.ofMillis(100), Duration.ofSeconds(5))}.
     *
     * @throws IllegalArgumentException unless {@code maxAttempts >= 1} and {@code 0 <= initialBackoff
     *                                  <= maxBackoff}
     */
    public static RetryPolicy exponential(int maxAttempts, Duration initialBackoff, Duration maxBackoff) {
        Objects.requireNonNull(initialBackoff, "initialBackoff");
        Objects.requireNonNull(maxBackoff, "maxBackoff");
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, not " + maxAttempts);
        }
        if (initialBackoff.isNegative() || initialBackoff.compareTo(maxBackoff) > 0) {
            throw new IllegalArgumentException("need 0 <= initialBackoff <= maxBackoff, not " + initialBackoff
                    + " and " + maxBackoff);
        }
        return new RetryPolicy(maxAttempts, initialBackoff, maxBackoff, null);
    }

    /** This policy with {@code random} (values in [0, 1)) as the jitter's source: for tests. */
    RetryPolicy withRandom(DoubleSupplier random) {
        return new RetryPolicy(maxAttempts, initialBackoff, maxBackoff, Objects.requireNonNull(random, "random"));
    }

    /** How many times a request is sent at most; 1 means no retries. */
    public int maxAttempts() {
        return maxAttempts;
    }

    /**
     * The wait before retry number {@code retry} (1 for the first), after a reply whose
     * Retry-After was {@code retryAfterSeconds} (0 when it had none).
     */
    public Duration delay(int retry, int retryAfterSeconds) {
        double factor = Math.pow(2, Math.min(retry - 1, 62));
        long backoffNs = (long) Math.min((double) maxBackoff.toNanos(), initialBackoff.toNanos() * factor);
        double jitter = random == null ? ThreadLocalRandom.current().nextDouble() : random.getAsDouble();
        Duration wait = Duration.ofNanos(backoffNs / 2 + (long) (jitter * (backoffNs / 2)));
        Duration floor = Duration.ofSeconds(retryAfterSeconds);
        if (floor.compareTo(MAX_RETRY_AFTER) > 0) {
            floor = MAX_RETRY_AFTER;
        }
        return wait.compareTo(floor) < 0 ? floor : wait;
    }

    /**
     * True when a request that failed with {@code failure} on send number {@code attempt} goes
     * again; {@code idempotent} says whether repeating it after the node may have applied it is safe.
     */
    public boolean shouldRetry(RailgunException failure, int attempt, boolean idempotent) {
        if (attempt >= maxAttempts || !failure.isRetriable()) {
            return false;
        }
        return idempotent || neverSent(failure);
    }

    /** No connection was made, so the node cannot have seen the request. */
    private static boolean neverSent(RailgunException failure) {
        if (failure.status() != 0 || !RailgunException.UNREACHABLE.equals(failure.code())) {
            return false;
        }
        for (Throwable t = failure.getCause(); t != null; t = t.getCause()) {
            if (t instanceof ConnectException || t instanceof HttpConnectTimeoutException
                    || t instanceof SSLHandshakeException) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return maxAttempts == 1 ? "RetryPolicy.none()"
                : "RetryPolicy.exponential(" + maxAttempts + ", " + initialBackoff + ", " + maxBackoff + ")";
    }
}
