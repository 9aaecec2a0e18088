package io.railgun.node.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.railgun.node.frontend.ApiException;
import java.util.concurrent.TimeUnit;

/**
 * The read side of one {@link HttpConnection}: turns the messages of Netty's HTTP codec into whole
 * {@link IncomingRequest}s (head, raw target, body within {@code --max-body-bytes}, how to answer)
 * and hands each to the connection, in order. Decides the refusals that need no handler: an
 * invalid target, an unsupported {@code Expect}, a body over the limit, a malformed request or
 * body, a head or body that came too slowly (408); after a malformed or slow request the connection
 * takes no more. Tracks the phase of the request being received, for the connection's timeouts.
 *
 * <p>Not thread-safe: called on the channel's event loop only.
 */
final class RequestReceiver {
    /** Pieces of one body kept apart before they are merged (a body arrives in pieces of one read each). */
    private static final int MAX_BODY_PIECES = 1024;

    private enum Phase {
        /** Between requests: no byte of the next one yet. */
        IDLE,
        /** Some bytes of a request came, its head is not complete. */
        HEAD,
        /** The head came, the body is coming. */
        BODY
    }

    private final HttpConnection connection;
    private final HttpConnection.Settings settings;
    private Phase phase = Phase.IDLE;
    private long phaseStartNs;
    /** The request whose head came and whose body is coming, or null. */
    private IncomingRequest receiving;

    RequestReceiver(HttpConnection connection, HttpConnection.Settings settings) {
        this.connection = connection;
        this.settings = settings;
    }

    /** Bytes came (before the codec): if between requests, a request's head has started. */
    void bytesArrived() {
        if (phase == Phase.IDLE) {
            phase = Phase.HEAD;
            phaseStartNs = System.nanoTime();
        }
    }

    /** Starts the clock of the current phase again (the connection opened, or answered a request). */
    void restartClock() {
        phaseStartNs = System.nanoTime();
    }

    /** Whether no byte of a next request has come. */
    boolean idle() {
        return phase == Phase.IDLE;
    }

    /** Whether a request's body is being received. */
    boolean receiving() {
        return receiving != null;
    }

    /** When the current phase times out: idle, head or body timeout after its start. */
    long deadlineNs() {
        return phaseStartNs + switch (phase) {
            case IDLE -> settings.idleNs();
            case HEAD -> settings.headerNs();
            case BODY -> settings.bodyNs();
        };
    }

    /** Releases the body of the request being received, if any, and forgets it. */
    void dropPartial() {
        if (receiving != null) {
            receiving.dropBody();
            receiving = null;
        }
    }

    void onHead(ChannelHandlerContext ctx, HttpRequest head) {
        IncomingRequest in = new IncomingRequest(head);
        receiving = in;
        phase = Phase.BODY;
        phaseStartNs = System.nanoTime();
        in.close = !HttpUtil.isKeepAlive(head);
        in.keepAliveHeader = !in.close && head.protocolVersion().equals(HttpVersion.HTTP_1_0);
        if (!splitTarget(in, head.uri())) {
            in.refusal = ApiException.badRequest("invalid_uri", "the request target '" + RequestTarget.printable(head.uri())
                    + "' is not a valid URI path: send an absolute path (/v1/streams/...) with only URI characters, "
                    + "percent-encoding the others as %XX (and '%' itself as %25)");
        }
        long declared = HttpUtil.getContentLength(head, -1L);
        String expect = head.headers().get(HttpHeaderNames.EXPECT);
        boolean continueExpected = false;
        if (expect != null && head.protocolVersion().equals(HttpVersion.HTTP_1_1)) {
            if (!expect.strip().equalsIgnoreCase("100-continue")) {
                in.refusal = new ApiException(417, "expectation_failed", "'Expect: " + RequestTarget.printable(expect)
                        + "' is not supported; send the request without it (or with 'Expect: 100-continue')");
                in.close = true;
                connection.complete(in);
                return;
            }
            continueExpected = true;
        }
        if (declared > settings.maxBodyBytes()) {
            in.tooLarge = true;
            if (continueExpected || declared > ApiRequest.DISCARD_LIMIT_BYTES) {
                // answered at once, without reading the body: the connection closes after the answer
                in.close = true;
                connection.complete(in);
                return;
            }
        } else if (continueExpected && in.refusal == null && connection.nothingPending()) {
            ctx.writeAndFlush(HttpResponses.continue100());
        }
    }

    void onContent(ChannelHandlerContext ctx, HttpContent content) {
        IncomingRequest in = receiving;
        if (in == null) {
            content.release();
            return;
        }
        boolean last = content instanceof LastHttpContent;
        if (content.decoderResult().isFailure()) {
            content.release();
            receiving = null;
            if (!in.complete) {
                in.dropBody();
                malformedBody(ctx, in, content.decoderResult().cause());
            }
            return;
        }
        ByteBuf data = content.content();
        int n = data.readableBytes();
        in.received += n;
        if (in.complete || in.tooLarge || in.refusal != null) {
            content.release();
            if (!in.complete && in.received > ApiRequest.DISCARD_LIMIT_BYTES) {
                in.close = true;
                connection.complete(in);
            }
        } else if (in.received > settings.maxBodyBytes()) {
            // a chunked body (or more than its Content-Length said) over the limit: dropped from here on
            content.release();
            in.dropBody();
            in.tooLarge = true;
        } else if (n == 0) {
            content.release();
        } else if (in.body == null) {
            in.body = data; // the decoder's own slice: no copy
        } else {
            CompositeByteBuf pieces;
            if (in.body instanceof CompositeByteBuf c) {
                pieces = c;
            } else {
                pieces = ctx.alloc().compositeBuffer(MAX_BODY_PIECES);
                pieces.addComponent(true, in.body);
                in.body = pieces;
            }
            pieces.addComponent(true, data);
        }
        if (last) {
            receiving = null;
            phase = Phase.IDLE;
            phaseStartNs = System.nanoTime();
            if (!in.complete) {
                connection.complete(in);
            }
        }
    }

    /** The codec could not parse a request line or its headers: answer in order, then close. */
    void malformed(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof PrematureChannelClosureException || !ctx.channel().isActive()) {
            return; // the client closed mid-request: nobody to answer
        }
        dropPartial();
        refuseAndClose(placeholder(), CodecRefusals.of(cause));
    }

    private void malformedBody(ChannelHandlerContext ctx, IncomingRequest in, Throwable cause) {
        if (cause instanceof PrematureChannelClosureException || !ctx.channel().isActive()) {
            return;
        }
        refuseAndClose(in, ApiException.badRequest("bad_request", "the request body is malformed ("
                + cause.getMessage() + "); send a Content-Length or a valid chunked body"));
    }

    /** The head or the body of the request being received did not come in time: 408, then close. */
    void timedOut() {
        boolean head = phase == Phase.HEAD;
        dropPartial();
        refuseAndClose(placeholder(), new ApiException(408, "request_timeout", head
                ? "the request head (request line and headers) did not come within "
                        + TimeUnit.NANOSECONDS.toMillis(settings.headerNs()) + " ms of its first byte"
                : "the request body did not come within " + TimeUnit.NANOSECONDS.toMillis(settings.bodyNs())
                        + " ms of its head; send it at once after the headers"));
    }

    /** Answers {@code in} with {@code refusal} in its turn; the connection takes no more requests. */
    private void refuseAndClose(IncomingRequest in, ApiException refusal) {
        in.refusal = refusal;
        in.close = true;
        phase = Phase.IDLE;
        connection.discardAfter(in);
    }

    /** Stands for a request whose head could not be read. */
    private static IncomingRequest placeholder() {
        return new IncomingRequest(new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/"));
    }

    /**
     * Splits an origin-form ({@code /path?query}) or absolute-form ({@code http://host/path?query})
     * request target into {@code in}'s raw path and query; false when it is malformed: not a path,
     * characters a URI cannot hold, or a bad percent escape in the path (the query's escapes are the
     * point reads' to check, with their own error).
     */
    private static boolean splitTarget(IncomingRequest in, String uri) {
        String[] parts = RequestTarget.split(uri);
        if (parts == null) {
            return false;
        }
        in.rawPath = parts[0];
        in.rawQuery = parts[1];
        return true;
    }
}
