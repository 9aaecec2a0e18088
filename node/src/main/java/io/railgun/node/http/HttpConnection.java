package io.railgun.node.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.PrematureChannelClosureException;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpHeadersFactory;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.ScheduledFuture;
import io.railgun.node.frontend.ApiException;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One client connection of the HTTP API, on its event loop, after Netty's HTTP/1.1 codec: receives each
 * request whole (head and body, the body within {@code --max-body-bytes}), hands it to the dispatcher
 * ({@link ApiDispatcher#serve}: on the loop for events, else on a virtual thread), and writes the responses in the order of the requests: one request
 * is handled at a time per connection, and while one is, further pipelined requests wait, and reading
 * stops. Malformed requests (request line, headers, URI) are answered here, on the event loop, in the
 * SPEC §3 error format, and the connection closes after the answer.
 *
 * <p>Timeouts (no timer per request: one per connection ticks at most every shortest timeout):
 * between requests, {@code idleNs} without a byte closes the connection; once a byte of a request came,
 * its head must be complete within {@code headerNs}, then its body within {@code bodyNs} (else 408
 * {@code request_timeout} and close); a response the client does not read within {@code idleNs}
 * closes it. While a request is handled, the handler's own timeout ({@code --request-timeout}) rules.
 *
 * <p>Not thread-safe: everything runs on the channel's event loop but {@link #respond}, which the
 * handling thread calls and which hands the response over to the loop.
 */
final class HttpConnection extends ChannelInboundHandlerAdapter implements ChannelFutureListener {
    private static final System.Logger LOG = System.getLogger(HttpConnection.class.getName());
    /** Pieces of one body kept apart before they are merged (a body arrives in pieces of one read each). */
    private static final int MAX_BODY_PIECES = 1024;
    /** How long a connection closing after its last response waits for the client to close its side. */
    private static final long LINGER_NS = TimeUnit.SECONDS.toNanos(2);
    private static final HttpHeadersFactory RESPONSE_HEADERS = DefaultHttpHeadersFactory.headersFactory()
            .withValidation(false);
    private static final HttpHeadersFactory RESPONSE_TRAILERS = DefaultHttpHeadersFactory.trailersFactory()
            .withValidation(false);
    private static final CharSequence NO_STORE = HttpHeaderValues.NO_STORE;

    /**
     * What every connection shares.
     *
     * @param handlers where requests are handled (one virtual thread each)
     */
    record Settings(ApiDispatcher dispatcher, Executor handlers, long maxBodyBytes, long idleNs, long headerNs,
                    long bodyNs) {
        /** The timer's period: the shortest timeout. */
        long tickNs() {
            return Math.min(idleNs, Math.min(headerNs, bodyNs));
        }
    }

    private enum Phase {
        /** Between requests: no byte of the next one yet. */
        IDLE,
        /** Some bytes of a request came, its head is not complete. */
        HEAD,
        /** The head came, the body is coming. */
        BODY
    }

    private final Settings settings;
    private final ArrayDeque<IncomingRequest> ready = new ArrayDeque<>(2);
    private final Runnable onTimer = this::onTimer;
    private ChannelHandlerContext ctx;
    private Phase phase = Phase.IDLE;
    private long phaseStartNs;
    /** The request whose head came and whose body is coming, or null. */
    private IncomingRequest receiving;
    /** A request is being handled, or its response written. */
    private boolean inService;
    private boolean writing;
    private long writeStartNs;
    private boolean closeAfterWrite;
    /** The node is stopping: close after the response in service. */
    private boolean draining;
    /** The client closed its side: close once every request received is answered. */
    private boolean inputShut;
    /** Reads stopped: requests wait for the one in service. */
    private boolean paused;
    /** No more requests are taken: the connection closes after what it answers now. */
    private boolean discarding;
    private long lingerUntilNs;
    private ScheduledFuture<?> timer;
    private long timerAtNs;

    HttpConnection(Settings settings) {
        this.settings = settings;
    }

    /** The handler to put before the HTTP codec: it sees a request's first bytes, for the header timeout. */
    ChannelInboundHandlerAdapter readWatch() {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext c, Object msg) {
                if (phase == Phase.IDLE) {
                    phase = Phase.HEAD;
                    phaseStartNs = System.nanoTime();
                }
                c.fireChannelRead(msg);
            }
        };
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        this.ctx = context;
        phaseStartNs = System.nanoTime();
        if (context.channel().isActive()) {
            updateTimer();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext context) throws Exception {
        phaseStartNs = System.nanoTime();
        updateTimer();
        super.channelActive(context);
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) throws Exception {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        if (receiving != null) {
            receiving.dropBody();
            receiving = null;
        }
        for (IncomingRequest in : ready) {
            in.dropBody();
        }
        ready.clear();
        super.channelInactive(context);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
        // an I/O error (connection reset) or a TLS failure: nothing can be answered on this connection
        LOG.log(System.Logger.Level.DEBUG, "HTTP connection " + context.channel().remoteAddress() + " failed", cause);
        context.close();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext context, Object evt) throws Exception {
        if (evt instanceof ChannelInputShutdownEvent) {
            inputShut = true;
            if (!inService && ready.isEmpty()) {
                context.close();
            }
            return;
        }
        super.userEventTriggered(context, evt);
    }

    @Override
    public void channelRead(ChannelHandlerContext context, Object msg) {
        if (discarding) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof HttpRequest head) {
            if (head.decoderResult().isFailure()) {
                ReferenceCountUtil.release(msg);
                malformed(head, head.decoderResult().cause());
                return;
            }
            onHead(head);
        }
        if (msg instanceof HttpContent content) {
            onContent(content);
        }
    }

    private void onHead(HttpRequest head) {
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
                complete(in);
                return;
            }
            continueExpected = true;
        }
        if (declared > settings.maxBodyBytes()) {
            in.tooLarge = true;
            if (continueExpected || declared > ApiRequest.DISCARD_LIMIT_BYTES) {
                // answered at once, without reading the body: the connection closes after the answer
                in.close = true;
                complete(in);
                return;
            }
        } else if (continueExpected && in.refusal == null && !inService && ready.isEmpty()) {
            ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE,
                    Unpooled.EMPTY_BUFFER, RESPONSE_HEADERS, RESPONSE_TRAILERS));
        }
    }

    private void onContent(HttpContent content) {
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
                malformedBody(in, content.decoderResult().cause());
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
                complete(in);
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
                complete(in);
            }
        }
    }

    /** The codec could not parse a request line or its headers: answer in order, then close. */
    private void malformed(HttpRequest head, Throwable cause) {
        if (cause instanceof PrematureChannelClosureException || !ctx.channel().isActive()) {
            return; // the client closed mid-request: nobody to answer
        }
        if (receiving != null) {
            receiving.dropBody();
            receiving = null;
        }
        IncomingRequest in = new IncomingRequest(new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/"));
        in.refusal = CodecRefusals.of(cause);
        in.close = true;
        discarding = true;
        phase = Phase.IDLE;
        complete(in);
    }

    private void malformedBody(IncomingRequest in, Throwable cause) {
        if (cause instanceof PrematureChannelClosureException || !ctx.channel().isActive()) {
            return;
        }
        in.refusal = ApiException.badRequest("bad_request", "the request body is malformed (" + cause.getMessage()
                + "); send a Content-Length or a valid chunked body");
        in.close = true;
        discarding = true;
        phase = Phase.IDLE;
        complete(in);
    }

    /** A request received whole: it waits for its turn (and reads stop while others wait). */
    private void complete(IncomingRequest in) {
        in.complete = true;
        ready.add(in);
        if (inService && !paused) {
            paused = true;
            ctx.channel().config().setAutoRead(false);
        }
        serveNext();
        updateTimer();
    }

    private void serveNext() {
        if (inService || ready.isEmpty()) {
            return;
        }
        IncomingRequest in = ready.poll();
        inService = true;
        ApiRequest req = new ApiRequest(this, in.head, in.rawPath, in.rawQuery, in.body, in.tooLarge,
                settings.maxBodyBytes());
        in.body = null;
        if (in.close) {
            req.closeAfterResponse();
        } else if (in.keepAliveHeader) {
            req.setHeader("Keep-Alive", "timeout=" + TimeUnit.NANOSECONDS.toSeconds(settings.idleNs()));
        }
        if (in.refusal != null) {
            settings.dispatcher().refuse(req, in.refusal);
            return;
        }
        try {
            settings.dispatcher().serve(req, settings.handlers());
        } catch (RejectedExecutionException e) {
            req.closeAfterResponse();
            settings.dispatcher().refuse(req, ApiException.unavailable("stopping", "the node is shutting down; retry "
                    + "in a moment (or on another node)", 1));
        }
    }

    /**
     * Sends the response of the request in service; called once per request, from any thread. The
     * bytes are copied before this returns.
     *
     * @param headers more headers, as name, value, name, value ..., or null
     */
    void respond(int code, String contentType, byte[] body, int length, List<String> headers, boolean close) {
        ByteBuf content = length == 0 ? Unpooled.EMPTY_BUFFER : ctx.alloc().ioBuffer(length).writeBytes(body, 0, length);
        DefaultFullHttpResponse r = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(code),
                content, RESPONSE_HEADERS, RESPONSE_TRAILERS);
        HttpHeaders h = r.headers();
        if (contentType != null) {
            h.set(HttpHeaderNames.CONTENT_TYPE, contentType);
            h.set(HttpHeaderNames.CACHE_CONTROL, NO_STORE);
        }
        if (code != 204 && code != 304) {
            h.setInt(HttpHeaderNames.CONTENT_LENGTH, length);
        }
        h.set(HttpHeaderNames.DATE, HttpDate.now());
        if (headers != null) {
            for (int i = 0; i < headers.size(); i += 2) {
                h.set(headers.get(i), headers.get(i + 1));
            }
        }
        if (close) {
            h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        } else if (h.contains("Keep-Alive")) {
            h.set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
        }
        if (ctx.executor().inEventLoop()) {
            write(r, close);
        } else {
            try {
                ctx.executor().execute(() -> write(r, close));
            } catch (RejectedExecutionException e) {
                r.release(); // the server has stopped
            }
        }
    }

    private void write(DefaultFullHttpResponse r, boolean close) {
        writing = true;
        writeStartNs = System.nanoTime();
        closeAfterWrite = close || draining;
        if (closeAfterWrite && !close) {
            r.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
        ctx.writeAndFlush(r).addListener(this);
        updateTimer();
    }

    /** The response in service was written (or failed). */
    @Override
    public void operationComplete(ChannelFuture future) {
        writing = false;
        inService = false;
        if (!future.isSuccess()) {
            ctx.close();
            return;
        }
        if (closeAfterWrite) {
            lingerClose();
            return;
        }
        phaseStartNs = System.nanoTime();
        if (!ready.isEmpty()) {
            serveNext();
        } else if (inputShut) {
            ctx.close();
            return;
        } else if (paused) {
            paused = false;
            ctx.channel().config().setAutoRead(true);
        }
        updateTimer();
    }

    /**
     * Closes after the last response: the write side first, so a client still sending a body it was
     * refused reads the answer rather than a reset; then the rest once the client closes its side or
     * after {@link #LINGER_NS}.
     */
    private void lingerClose() {
        discarding = true;
        for (IncomingRequest in : ready) {
            in.dropBody();
        }
        ready.clear();
        if (!(ctx.channel() instanceof DuplexChannel duplex) || inputShut) {
            ctx.close();
            return;
        }
        lingerUntilNs = System.nanoTime() + LINGER_NS;
        if (paused) {
            paused = false;
            ctx.channel().config().setAutoRead(true);
        }
        if (ctx.pipeline().get(io.netty.handler.ssl.SslHandler.class) != null) {
            // TLS: close_notify and close now (a half-closed TLS connection cannot be read on sensibly)
            ctx.close();
            return;
        }
        duplex.shutdownOutput();
        updateTimer();
    }

    /** The node is stopping: close now if nothing is under way, else after the response in service. */
    void closeWhenIdle() {
        draining = true;
        if (!inService && ready.isEmpty() && receiving == null) {
            ctx.close();
        }
    }

    private long deadline() {
        if (discarding && !inService && ready.isEmpty()) {
            return lingerUntilNs == 0 ? 0 : lingerUntilNs;
        }
        if (writing) {
            return writeStartNs + settings.idleNs();
        }
        if (inService || !ready.isEmpty()) {
            return 0; // the node's turn: the handler's own timeout rules
        }
        return phaseStartNs + switch (phase) {
            case IDLE -> settings.idleNs();
            case HEAD -> settings.headerNs();
            case BODY -> settings.bodyNs();
        };
    }

    /** Arms the timer unless it fires before the deadline anyway (it then re-arms itself). */
    private void updateTimer() {
        long d = deadline();
        if (d == 0 || !ctx.channel().isActive()) {
            return;
        }
        long now = System.nanoTime();
        long at = Math.min(d, now + settings.tickNs());
        if (timer != null) {
            if (timerAtNs - at <= 0) {
                return;
            }
            timer.cancel(false);
        }
        timerAtNs = at;
        timer = ctx.executor().schedule(onTimer, Math.max(0, at - now), TimeUnit.NANOSECONDS);
    }

    private void onTimer() {
        timer = null;
        if (!ctx.channel().isActive()) {
            return;
        }
        long d = deadline();
        if (d == 0) {
            return;
        }
        if (System.nanoTime() - d < 0) {
            updateTimer();
            return;
        }
        if (writing || discarding || phase == Phase.IDLE) {
            // the client reads no response, lingers, or sent nothing for the idle timeout
            ctx.close();
            return;
        }
        // a request's head or body came too slowly: 408, then close
        boolean head = phase == Phase.HEAD;
        if (receiving != null) {
            receiving.dropBody();
            receiving = null;
        }
        IncomingRequest in = new IncomingRequest(new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/"));
        in.refusal = new ApiException(408, "request_timeout", head
                ? "the request head (request line and headers) did not come within "
                        + TimeUnit.NANOSECONDS.toMillis(settings.headerNs()) + " ms of its first byte"
                : "the request body did not come within " + TimeUnit.NANOSECONDS.toMillis(settings.bodyNs())
                        + " ms of its head; send it at once after the headers");
        in.close = true;
        discarding = true;
        phase = Phase.IDLE;
        complete(in);
    }

    /**
     * Splits an origin-form ({@code /path?query}) or absolute-form ({@code http://host/path?query})
     * request target into {@code in}'s raw path and query; false when it is malformed: not a path,
     * characters a URI cannot hold, or a bad percent escape in the path (the query's escapes are the
     * point reads' to check, with their own error).
     */
    static boolean splitTarget(IncomingRequest in, String uri) {
        String[] parts = RequestTarget.split(uri);
        if (parts == null) {
            return false;
        }
        in.rawPath = parts[0];
        in.rawQuery = parts[1];
        return true;
    }

}
