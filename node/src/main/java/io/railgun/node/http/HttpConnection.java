package io.railgun.node.http;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
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
 * <p>Jobs: the read side, assembling requests and refusing those that need no handler, is
 * {@link RequestReceiver}'s, and {@link HttpResponses} builds the responses; this class keeps the
 * requests in order, writes their responses, runs the connection's timer and closes it.
 *
 * <p>Not thread-safe: everything runs on the channel's event loop but {@link #respond}, which the
 * handling thread calls and which hands the response over to the loop.
 */
final class HttpConnection extends ChannelInboundHandlerAdapter implements ChannelFutureListener {
    private static final System.Logger LOG = System.getLogger(HttpConnection.class.getName());
    /** How long a connection closing after its last response waits for the client to close its side. */
    private static final long LINGER_NS = TimeUnit.SECONDS.toNanos(2);

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

    private final Settings settings;
    private final RequestReceiver receiver;
    private final ArrayDeque<IncomingRequest> ready = new ArrayDeque<>(2);
    private final Runnable onTimer = this::onTimer;
    private ChannelHandlerContext ctx;
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
        this.receiver = new RequestReceiver(this, settings);
    }

    /** The handler to put before the HTTP codec: it sees a request's first bytes, for the header timeout. */
    ChannelInboundHandlerAdapter readWatch() {
        return new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext c, Object msg) {
                receiver.bytesArrived();
                c.fireChannelRead(msg);
            }
        };
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        this.ctx = context;
        receiver.restartClock();
        if (context.channel().isActive()) {
            updateTimer();
        }
    }

    @Override
    public void channelActive(ChannelHandlerContext context) throws Exception {
        receiver.restartClock();
        updateTimer();
        super.channelActive(context);
    }

    @Override
    public void channelInactive(ChannelHandlerContext context) throws Exception {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
        receiver.dropPartial();
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
                receiver.malformed(ctx, head.decoderResult().cause());
                return;
            }
            receiver.onHead(ctx, head);
        }
        if (msg instanceof HttpContent content) {
            receiver.onContent(ctx, content);
        }
    }

    /** Whether no request is in service or waiting for its turn. */
    boolean nothingPending() {
        return !inService && ready.isEmpty();
    }

    /** A request received whole: it waits for its turn (and reads stop while others wait). */
    void complete(IncomingRequest in) {
        in.complete = true;
        ready.add(in);
        if (inService && !paused) {
            paused = true;
            ctx.channel().config().setAutoRead(false);
        }
        serveNext();
        updateTimer();
    }

    /** A refused request after which the connection takes no more: answered in its turn, then closed. */
    void discardAfter(IncomingRequest in) {
        discarding = true;
        complete(in);
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
        DefaultFullHttpResponse r = HttpResponses.full(ctx.alloc(), code, contentType, body, length, headers, close);
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
        receiver.restartClock();
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
        if (!inService && ready.isEmpty() && !receiver.receiving()) {
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
        return receiver.deadlineNs();
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
        if (writing || discarding || receiver.idle()) {
            // the client reads no response, lingers, or sent nothing for the idle timeout
            ctx.close();
            return;
        }
        // a request's head or body came too slowly: 408, then close
        receiver.timedOut();
    }
}
