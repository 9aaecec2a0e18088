package io.railgun.node.http;

import com.fasterxml.jackson.core.JsonGenerator;
import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.railgun.node.frontend.ApiException;
import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One HTTP request as the endpoints see it: its matched path, its body (received whole by the
 * connection before the request is handled, within the size limit; Content-Type checked when read)
 * and one response (JSON, the error format, or empty). Used by the one thread that handles the
 * request; the response is handed to its {@link HttpConnection}, which sends it in request order.
 */
final class ApiRequest {
    static final String JSON_TYPE = "application/json; charset=utf-8";
    /**
     * Most of an unwanted request body read (and dropped) so the client gets the error answer; a body
     * declared larger is not read: the answer comes at once and the connection closes after it.
     */
    static final long DISCARD_LIMIT_BYTES = 64L << 20;
    private final HttpConnection connection;
    private final HttpRequest head;
    private final String rawPath;
    private final String rawQuery;
    private final long maxBodyBytes;
    private final boolean bodyTooLarge;
    /** Set once; taken by {@link #releaseBody} through {@link #BODY} (two threads may race to release it). */
    private volatile ByteBuf body;
    private static final VarHandle BODY;

    static {
        try {
            BODY = MethodHandles.lookup().findVarHandle(ApiRequest.class, "body", ByteBuf.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
    private RequestPath path;
    private List<String> headers;
    private boolean close;
    private int status;
    private volatile boolean responded;

    /**
     * @param body         the whole body (owned by this request from now on: released when it ends), or null
     * @param bodyTooLarge the body was (or was declared) larger than {@code maxBodyBytes}: not kept
     */
    ApiRequest(HttpConnection connection, HttpRequest head, String rawPath, String rawQuery, ByteBuf body,
               boolean bodyTooLarge, long maxBodyBytes) {
        this.connection = connection;
        this.head = head;
        this.rawPath = rawPath;
        this.rawQuery = rawQuery;
        this.body = body;
        this.bodyTooLarge = bodyTooLarge;
        this.maxBodyBytes = maxBodyBytes;
    }

    String method() {
        return head.method().name();
    }

    /** The path as sent (still percent-encoded), or null when the request target was malformed. */
    String rawPath() {
        return rawPath;
    }

    /** The request target as sent, for logs. */
    String target() {
        return head.uri();
    }

    /** A request header's first value, or null. */
    String header(CharSequence name) {
        return head.headers().get(name);
    }

    void path(RequestPath matched) {
        this.path = matched;
    }

    String stream() {
        return path.stream();
    }

    String metric() {
        return path.metric();
    }

    /** The raw (still percent-encoded) query string, or null. */
    String rawQuery() {
        return rawQuery;
    }

    /**
     * Reads the body into {@code into} (its previous content is dropped): the one copy of the bytes the
     * connection received.
     *
     * @throws ApiException 415 {@code unsupported_media_type} unless the Content-Type is JSON or absent;
     *                      413 {@code body_too_large} beyond {@code maxBodyBytes} (by Content-Length
     *                      before receiving it, else while receiving it)
     */
    GrowableBytes readBody(GrowableBytes into) {
        checkContentType(head.headers().get(HttpHeaderNames.CONTENT_TYPE));
        if (bodyTooLarge) {
            throw tooLarge();
        }
        into.reset();
        ByteBuf b = body;
        if (b == null || !b.isReadable()) {
            return into;
        }
        if (!into.readFrom(b, maxBodyBytes)) {
            throw tooLarge();
        }
        return into;
    }

    /**
     * Kept for the endpoints: the connection has already received (or dropped) the whole body before
     * the request was handled, so the client reads the answer rather than a connection reset.
     */
    void discardUnreadBody() {
        // nothing left to read
    }

    /** Bytes of the body received (before it is read), 0 once released. */
    int bodyBytes() {
        ByteBuf b = body;
        return b == null ? 0 : b.readableBytes();
    }

    /**
     * Releases the body, once whoever calls it and however often: an inline event's body is released
     * by the event loop after the send and by the thread that answers it, which can be a processor
     * unit answering before the event loop gets there (seen at 20,000 ev/s: a double release, 500).
     */
    void releaseBody() {
        ByteBuf b = (ByteBuf) BODY.getAndSet(this, (ByteBuf) null);
        if (b != null) {
            b.release();
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

    /**
     * Sends {@code body}'s bytes with a fixed Content-Length; a JSON body ends with a newline (for
     * terminals). The bytes are copied: {@code body} can be reused as soon as this returns.
     */
    void respond(int code, String contentType, GrowableBytes body) throws IOException {
        if (JSON_TYPE.equals(contentType) && body.length() > 0 && body.array()[body.length() - 1] != '\n') {
            body.write('\n');
        }
        markResponded(code);
        connection.respond(code, contentType, body.array(), body.length(), headers, close);
    }

    /** Sends {@code body}[0, length) as is (copied: {@code body} can be reused once this returns). */
    void respondBytes(int code, String contentType, byte[] body, int length) throws IOException {
        markResponded(code);
        connection.respond(code, contentType, body, length, headers, close);
    }

    /** A response without body (204 after a DELETE). */
    void respondEmpty(int code) throws IOException {
        markResponded(code);
        connection.respond(code, null, null, 0, headers, close);
    }

    /** Answers {@code {"error": {"code", "message"}}} with Retry-After when the refusal has one. */
    void respondError(ApiException e) throws IOException {
        if (e.retryAfterSeconds() > 0) {
            setHeader("Retry-After", Integer.toString(e.retryAfterSeconds()));
        }
        respondJson(e.status(), g -> ReplyJson.writeError(g, e));
    }

    /** Sets a response header; {@code Connection: close} also closes the connection after the response. */
    void setHeader(String name, String value) {
        if (name.equalsIgnoreCase("Connection")) {
            close |= value.equalsIgnoreCase("close");
            return;
        }
        if (headers == null) {
            headers = new ArrayList<>(4);
        }
        for (int i = 0; i < headers.size(); i += 2) {
            if (headers.get(i).equalsIgnoreCase(name)) {
                headers.set(i + 1, value);
                return;
            }
        }
        headers.add(name);
        headers.add(value);
    }

    /** The connection closes after the response (a body too large to be read, a malformed request). */
    void closeAfterResponse() {
        close = true;
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
        status = code;
        responded = true;
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
