package io.railgun.client;

/**
 * A request that did not succeed. Either the node answered with a non-2xx status, in which case
 * {@link #code()} and {@link #getMessage()} come from the error object of SPEC §3, {@code {"error":
 * {"code": "<machine_code>", "message": "<what is wrong and how to fix it>"}}}, or the node could
 * not be asked, in which case {@link #status()} is 0.
 *
 * <p>The codes the client itself gives:
 * <ul>
 *   <li>{@code unreachable} (status 0): no connection (refused, reset, TLS failure, connect
 *       timeout);</li>
 *   <li>{@code timeout} (status 0): connected but no reply within the request timeout; the
 *       request may or may not have been applied (an event may be resent: its {@code eventId}
 *       makes it count once);</li>
 *   <li>{@code interrupted} (status 0): the calling thread was interrupted while waiting;</li>
 *   <li>{@code http_<status>}: a non-2xx reply whose body is not the error object (the body's
 *       text is the message, e.g. from a proxy);</li>
 *   <li>{@code bad_response}: a 2xx reply whose body is not the JSON SPEC §3 describes.</li>
 * </ul>
 *
 * <p>Unchecked: the typed calls of {@link RailgunClient} throw it, and the futures of the
 * asynchronous ones complete exceptionally with it.
 */
public final class RailgunException extends RuntimeException {
    /** Code of a request that could not reach the node. */
    public static final String UNREACHABLE = "unreachable";
    /** Code of a request the node did not answer within the request timeout. */
    public static final String TIMEOUT = "timeout";
    /** Code of a synchronous call whose thread was interrupted. */
    public static final String INTERRUPTED = "interrupted";
    /** Code of a 2xx reply whose body could not be read. */
    public static final String BAD_RESPONSE = "bad_response";

    private final int status;
    private final String code;
    private final int retryAfterSeconds;

    public RailgunException(int status, String code, String message, int retryAfterSeconds, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.code = code;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public RailgunException(int status, String code, String message) {
        this(status, code, message, 0, null);
    }

    /** The HTTP status, or 0 when there was no reply. */
    public int status() {
        return status;
    }

    /** The machine code: the node's {@code error.code}, or one of the client's codes above. */
    public String code() {
        return code;
    }

    /** The Retry-After header in seconds (sent with 503 when the node could not answer in time), else 0. */
    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /**
     * True when sending the same request again may succeed: no reply ({@code unreachable},
     * {@code timeout}), 429, 502, 503 and 504. Resending an event is safe: its id is deduplicated.
     */
    public boolean isRetriable() {
        return switch (status) {
            case 0 -> !INTERRUPTED.equals(code);
            case 429, 502, 503, 504 -> true;
            default -> false;
        };
    }
}
