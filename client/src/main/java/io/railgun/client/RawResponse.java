package io.railgun.client;

/**
 * An HTTP response as it arrived, not parsed: what {@link RailgunClient#sendJsonAsync} gives an
 * injector that measures latency and wants no JSON work on the client's side. For a 200 to {@code
 * POST /v1/streams/{stream}/events} the body is an {@link EventReply} (SPEC §3.3); otherwise it is
 * the error object of SPEC §3. {@link RailgunClient#decodeEventReply} turns either into the typed
 * result or a {@link RailgunException}, when the caller wants to.
 *
 * <p>The body array is not copied; callers must not change it.
 *
 * @param status            the HTTP status
 * @param body              the body bytes (UTF-8 JSON), empty when there was none
 * @param retryAfterSeconds the Retry-After header in seconds, 0 when absent
 */
public record RawResponse(int status, byte[] body, int retryAfterSeconds) {

    /** True for a 2xx status. */
    public boolean isSuccess() {
        return status >= 200 && status < 300;
    }

    /** The body decoded as UTF-8 (for logs and tests; the fast path does not need it). */
    public String bodyText() {
        return new String(body, java.nio.charset.StandardCharsets.UTF_8);
    }
}
