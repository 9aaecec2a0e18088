package io.railgun.node.http;

import com.fasterxml.jackson.core.JsonGenerator;
import com.sun.net.httpserver.HttpExchange;
import io.railgun.node.frontend.ApiException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;

/**
 * One HTTP exchange as the endpoints see it: its matched path, its body (read within the size limit,
 * Content-Type checked) and one response (JSON, the error format, or empty). Used by the one
 * virtual thread that handles the request.
 */
final class ApiRequest {
    static final String JSON_TYPE = "application/json; charset=utf-8";
    /** Most of an unwanted request body read (and dropped) so the client gets the error answer. */
    static final long DISCARD_LIMIT_BYTES = 64L << 20;
    private final HttpExchange exchange;
    private final RequestPath path;
    private final long maxBodyBytes;
    private int status;
    private boolean responded;

    ApiRequest(HttpExchange exchange, RequestPath path, long maxBodyBytes) {
        this.exchange = exchange;
        this.path = path;
        this.maxBodyBytes = maxBodyBytes;
    }

    String stream() {
        return path.stream();
    }

    String metric() {
        return path.metric();
    }

    /** The raw (still percent-encoded) query string, or null. */
    String rawQuery() {
        return exchange.getRequestURI().getRawQuery();
    }

    /**
     * Reads the body into {@code into} (its previous content is dropped).
     *
     * @throws ApiException 415 {@code unsupported_media_type} unless the Content-Type is JSON or absent;
     *                      413 {@code body_too_large} beyond {@code maxBodyBytes} (by Content-Length
     *                      before reading, else after reading at most one byte more than the limit
     *                      into the buffer)
     */
    GrowableBytes readBody(GrowableBytes into) {
        checkContentType(exchange.getRequestHeaders().getFirst("Content-Type"));
        long declared = declaredLength();
        if (declared > maxBodyBytes) {
            throw tooLarge();
        }
        try {
            // not closed here: the JDK's close would drain only 64 KiB; see discardUnreadBody
            if (!into.readFrom(exchange.getRequestBody(), maxBodyBytes)) {
                throw tooLarge();
            }
        } catch (IOException e) {
            throw ApiException.badRequest("unreadable_body", "the request body could not be read completely ("
                    + e.getMessage() + "); send it again");
        }
        return into;
    }

    /**
     * Reads and drops what is left of the request body (up to {@value #DISCARD_LIMIT_BYTES} bytes),
     * before an error is answered. Most clients send the whole body before reading the response: if
     * the server answered and closed the connection while they still send, they would see a
     * connection reset instead of the 413 (or 401, 415 ...). A body declared larger than the limit is
     * not read: the server then closes the connection after answering.
     */
    void discardUnreadBody() {
        if (declaredLength() > DISCARD_LIMIT_BYTES) {
            return;
        }
        try {
            InputStream in = exchange.getRequestBody();
            byte[] sink = new byte[8192];
            long budget = DISCARD_LIMIT_BYTES;
            int n;
            while (budget > 0 && (n = in.read(sink, 0, (int) Math.min(sink.length, budget))) >= 0) {
                budget -= n;
            }
        } catch (IOException e) {
            // the client is gone or sent garbage: the answer will fail or the connection close, nothing to add
        }
    }

    /** The Content-Length header, or -1 when absent or not a number (the server refuses malformed ones). */
    private long declaredLength() {
        String declared = exchange.getRequestHeaders().getFirst("Content-Length");
        if (declared == null) {
            return -1;
        }
        try {
            return Long.parseLong(declared.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** A fresh buffer holding the body (for the endpoints off the hot path). */
    GrowableBytes readBody() {
        return readBody(new GrowableBytes(512));
    }

    void respondJson(int code, JsonBody body) throws IOException {
        GrowableBytes out = new GrowableBytes(512);
        writeJson(out, body);
        respond(code, JSON_TYPE, out);
    }

    static void writeJson(GrowableBytes out, JsonBody body) throws IOException {
        try (JsonGenerator g = Json.FACTORY.createGenerator(out)) {
            body.write(g);
        }
    }

    /** Sends {@code body}'s bytes with a fixed Content-Length; a JSON body ends with a newline (for terminals). */
    void respond(int code, String contentType, GrowableBytes body) throws IOException {
        if (JSON_TYPE.equals(contentType) && body.length() > 0 && body.array()[body.length() - 1] != '\n') {
            body.write('\n');
        }
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        markResponded(code);
        exchange.sendResponseHeaders(code, body.length() == 0 ? -1 : body.length());
        if (body.length() > 0) {
            exchange.getResponseBody().write(body.array(), 0, body.length());
        }
    }

    /** A response without body (204 after a DELETE). */
    void respondEmpty(int code) throws IOException {
        markResponded(code);
        exchange.sendResponseHeaders(code, -1);
    }

    /** Answers {@code {"error": {"code", "message"}}} with Retry-After when the refusal has one. */
    void respondError(ApiException e) throws IOException {
        if (e.retryAfterSeconds() > 0) {
            exchange.getResponseHeaders().set("Retry-After", Integer.toString(e.retryAfterSeconds()));
        }
        respondJson(e.status(), g -> ReplyJson.writeError(g, e));
    }

    void setHeader(String name, String value) {
        exchange.getResponseHeaders().set(name, value);
    }

    boolean responded() {
        return responded;
    }

    /** The status sent, or 0 before any response. */
    int status() {
        return status;
    }

    private void markResponded(int code) {
        if (responded) {
            throw new IllegalStateException("a response was already sent (status " + status + ")");
        }
        responded = true;
        status = code;
    }

    private ApiException tooLarge() {
        return new ApiException(413, "body_too_large", "the request body is larger than the limit of " + maxBodyBytes
                + " bytes; send less per request (split a batch into several)");
    }

    private static void checkContentType(String contentType) {
        if (contentType == null || contentType.isBlank()) {
            return; // absent: assumed JSON, as curl -d users expect
        }
        String[] parts = contentType.split(";");
        String media = parts[0].strip().toLowerCase(Locale.ROOT);
        boolean json = media.equals("application/json") || media.startsWith("application/") && media.endsWith("+json");
        boolean utf8 = true;
        for (int i = 1; i < parts.length; i++) {
            String param = parts[i].strip().toLowerCase(Locale.ROOT);
            if (param.startsWith("charset=")) {
                String charset = param.substring("charset=".length()).replace("\"", "");
                utf8 = charset.equals("utf-8") || charset.equals("utf8");
            }
        }
        if (!json || !utf8) {
            String curl = media.equals("application/x-www-form-urlencoded") ? " (curl -d sends this type by default: add "
                    + "-H 'Content-Type: application/json')" : "";
            throw new ApiException(415, "unsupported_media_type", "Content-Type '" + contentType + "' is not supported; "
                    + "send the body as UTF-8 JSON with 'Content-Type: application/json'" + curl);
        }
    }

    /** Writes a JSON response body. */
    @FunctionalInterface
    interface JsonBody {
        void write(JsonGenerator g) throws IOException;
    }
}
