package io.railgun.node.frontend;

/**
 * A request the node refuses, with the HTTP status, a machine code and a message that says what is
 * wrong and how to fix it; the HTTP layer answers {@code {"error": {"code", "message"}}} (SPEC §3).
 */
public final class ApiException extends RuntimeException {
    private final int status;
    private final String code;
    private final int retryAfterSeconds;

    public ApiException(int status, String code, String message) {
        this(status, code, message, 0);
    }

    private ApiException(int status, String code, String message, int retryAfterSeconds) {
        super(message, null, false, false);
        this.status = status;
        this.code = code;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public static ApiException badRequest(String code, String message) {
        return new ApiException(400, code, message);
    }

    public static ApiException notFound(String code, String message) {
        return new ApiException(404, code, message);
    }

    public static ApiException conflict(String code, String message) {
        return new ApiException(409, code, message);
    }

    /** 503 with a Retry-After header: the node could not answer in time; the request may be retried. */
    public static ApiException unavailable(String code, String message, int retryAfterSeconds) {
        return new ApiException(503, code, message, retryAfterSeconds);
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    /** Seconds for the Retry-After header, or 0 for none. */
    public int retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
