package io.railgun.node.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.railgun.node.NodeConfig;
import io.railgun.node.cluster.ClusterReport;
import io.railgun.node.frontend.ApiException;
import io.railgun.node.frontend.FrontEnd;
import io.railgun.node.ops.NodeMetrics;
import io.railgun.node.ops.Readiness;
import java.io.IOException;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;

/**
 * The node's HTTP API (SPEC §3) on Netty's HTTP/1.1 codec (epoll transport where its native library
 * loads, else NIO): plain HTTP, or HTTPS when {@link NodeConfig#tlsKeystore()} is set. Event loops
 * accept connections, parse requests and write responses ({@link HttpConnection}); events and small
 * batches to a stream the front-end already sends to are handled on the loop, every other request
 * on its own virtual thread ({@link ApiDispatcher#serve}). Routes, errors, limits and tokens are described in
 * {@link ApiDispatcher}; the JSON in {@link StreamJson}, {@link EventJson}, {@link ReplyJson},
 * {@link MetricJson} and {@link PointReadKey}.
 *
 * <p>Connections: at most {@link NodeConfig#maxConnections()} open, and
 * {@link NodeConfig#maxConnectionsPerAddress()} from one client address; one over either cap is
 * closed as soon as it is accepted (plain HTTP: after a 503 {@code too_many_connections}), before any
 * byte of it is read. Idle, slow-head and slow-body timeouts: {@link HttpConnection}.
 *
 * <p>Lifecycle: {@link #start} binds and serves; {@link #close} stops accepting connections, answers new
 * requests 503 {@code stopping}, lets the requests in flight finish (waiting at most the request
 * timeout plus one second), then closes every connection. Thread-safe; {@code close} is idempotent.
 */
public final class HttpApi implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(HttpApi.class.getName());
    /** Longest request line (method, target, version): 414 {@code uri_too_long} beyond. */
    static final int MAX_REQUEST_LINE_BYTES = 16 * 1024;
    /** Most bytes of request headers: 431 {@code headers_too_large} beyond. */
    static final int MAX_HEADER_BYTES = 32 * 1024;
    /** Largest piece of a body the codec hands over at once (a piece per read, at most this). */
    private static final int MAX_CHUNK_BYTES = 64 * 1024;
    private static final long REFUSAL_LOG_INTERVAL_NS = TimeUnit.SECONDS.toNanos(10);

    private final EventLoopGroup loops;
    private final Channel server;
    private final ChannelGroup channels;
    private final ApiDispatcher dispatcher;
    private final ExecutorService handlers;
    private final boolean tls;
    private final int drainSeconds;
    private final AtomicBoolean closed = new AtomicBoolean();

    private HttpApi(EventLoopGroup loops, Channel server, ChannelGroup channels, ApiDispatcher dispatcher,
                    ExecutorService handlers, boolean tls, int drainSeconds) {
        this.loops = loops;
        this.server = server;
        this.channels = channels;
        this.dispatcher = dispatcher;
        this.handlers = handlers;
        this.tls = tls;
        this.drainSeconds = drainSeconds;
    }

    /**
     * Binds {@code config.host():config.port()} (port 0 picks a free one) and starts serving.
     *
     * @param metrics   where requests, events and replies are counted, and what {@code GET /metrics} shows
     * @param readiness what {@code GET /health/ready} answers
     * @throws IOException when the address cannot be bound
     * @throws IllegalArgumentException when the TLS keystore cannot be used
     */
    public static HttpApi start(NodeConfig config, FrontEnd frontEnd, NodeMetrics metrics, Readiness readiness)
            throws IOException {
        return start(config, ApiBackend.of(frontEnd), metrics, readiness, null);
    }

    /** Starts with the node-to-node endpoints of {@code internal} as well (see {@link InternalApi}). */
    public static HttpApi start(NodeConfig config, FrontEnd frontEnd, NodeMetrics metrics, Readiness readiness,
                                InternalApi internal) throws IOException {
        return start(config, ApiBackend.of(frontEnd), metrics, readiness, internal);
    }

    /**
     * As {@link #start(NodeConfig, FrontEnd, NodeMetrics, Readiness, InternalApi)}, with {@code GET
     * /v1/cluster} served from {@code cluster}.
     */
    public static HttpApi start(NodeConfig config, FrontEnd frontEnd, Supplier<ClusterReport> cluster, NodeMetrics metrics,
            Readiness readiness, InternalApi internal) throws IOException {
        return start(config, ApiBackend.of(frontEnd, cluster), metrics, readiness, internal);
    }

    /** Starts over any backend, always ready: the seam tests use to stand in for the front-end. */
    static HttpApi start(NodeConfig config, ApiBackend backend, NodeMetrics metrics) throws IOException {
        return start(config, backend, metrics, Readiness.ALWAYS);
    }

    /** Starts over any backend and readiness. */
    static HttpApi start(NodeConfig config, ApiBackend backend, NodeMetrics metrics, Readiness readiness)
            throws IOException {
        return start(config, backend, metrics, readiness, null);
    }

    static HttpApi start(NodeConfig config, ApiBackend backend, NodeMetrics metrics, Readiness readiness,
                         InternalApi internal) throws IOException {
        SSLContext ssl = config.tlsKeystore() == null ? null
                : ServerTls.context(config.tlsKeystore(), config.tlsKeystorePassword());
        long fdLimit = NodeConfig.fileDescriptorLimit();
        if (fdLimit > 0 && config.maxConnections() > fdLimit * 3 / 4) {
            LOG.log(System.Logger.Level.WARNING, "--max-connections " + config.maxConnections() + " is close to the "
                    + "process's file descriptor limit (" + fdLimit + "): a flood of connections could leave the "
                    + "embedded broker and the tasks' state without descriptors; lower it, or raise 'ulimit -n'");
        }
        boolean epoll = Epoll.isAvailable();
        IoHandlerFactory io = epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory();
        Class<? extends ServerChannel> serverClass = epoll ? EpollServerSocketChannel.class
                : NioServerSocketChannel.class;
        int loopThreads = Math.max(1, Math.min(4, Runtime.getRuntime().availableProcessors() / 2));
        EventLoopGroup loops = new MultiThreadIoEventLoopGroup(loopThreads, new DefaultThreadFactory("http-io", true),
                io);
        ExecutorService handlers = Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("http-", 0).factory());
        ApiDispatcher dispatcher = new ApiDispatcher(config, backend, metrics, readiness, internal);
        ChannelGroup channels = new DefaultChannelGroup("http", GlobalEventExecutor.INSTANCE);
        HttpConnection.Settings settings = new HttpConnection.Settings(dispatcher, handlers, config.maxBodyBytes(),
                TimeUnit.MILLISECONDS.toNanos(config.idleTimeoutMs()),
                TimeUnit.MILLISECONDS.toNanos(config.headerTimeoutMs()),
                TimeUnit.MILLISECONDS.toNanos(config.bodyTimeoutMs()));
        ConnectionLimits limits = new ConnectionLimits(config.maxConnections(), config.maxConnectionsPerAddress());
        HttpDecoderConfig decoder = new HttpDecoderConfig().setMaxInitialLineLength(MAX_REQUEST_LINE_BYTES)
                .setMaxHeaderSize(MAX_HEADER_BYTES).setMaxChunkSize(MAX_CHUNK_BYTES);
        Refuser refuser = new Refuser(ssl != null);
        ServerBootstrap bootstrap = new ServerBootstrap().group(loops).channel(serverClass)
                .option(ChannelOption.SO_BACKLOG, 1024)
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.SO_KEEPALIVE, true)
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        InetAddress address = ((InetSocketAddress) ch.remoteAddress()).getAddress();
                        ConnectionLimits.Refusal full = limits.acquire(address);
                        if (full != null) {
                            refuser.refuse(ch, full, address, limits);
                            return;
                        }
                        ch.closeFuture().addListener(f -> limits.release(address));
                        channels.add(ch);
                        if (ssl != null) {
                            SSLEngine engine = ssl.createSSLEngine();
                            engine.setUseClientMode(false);
                            SslHandler handler = new SslHandler(engine);
                            handler.setHandshakeTimeoutMillis(config.headerTimeoutMs());
                            ch.pipeline().addLast(handler);
                        }
                        HttpConnection connection = new HttpConnection(settings);
                        ch.pipeline().addLast(connection.readWatch(), new HttpServerCodec(decoder), connection);
                    }
                });
        Channel server;
        try {
            server = bootstrap.bind(new InetSocketAddress(config.host(), config.port())).syncUninterruptibly().channel();
        } catch (Exception e) {
            loops.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            handlers.shutdownNow();
            throw new IOException("cannot listen on " + config.host() + ":" + config.port() + " (" + e.getMessage()
                    + "); choose another --port or stop what uses it", e);
        }
        int drainSeconds = (int) Math.min(3600, (config.requestTimeoutMs() + 999) / 1000 + 1);
        HttpApi api = new HttpApi(loops, server, channels, dispatcher, handlers, ssl != null, drainSeconds);
        LOG.log(System.Logger.Level.INFO, "HTTP API listening on " + api.uri() + " (" + (epoll ? "epoll" : "nio")
                + ", " + loopThreads + " event loop" + (loopThreads == 1 ? "" : "s") + "; at most "
                + config.maxConnections() + " connections, " + config.maxConnectionsPerAddress() + " per address)");
        return api;
    }

    /** The bound address (the actual port when 0 was asked). */
    public InetSocketAddress address() {
        return (InetSocketAddress) server.localAddress();
    }

    /** The base URI, e.g. {@code http://127.0.0.1:7070} or {@code https://...}. */
    public URI uri() {
        InetSocketAddress a = address();
        String host = a.getAddress() instanceof Inet6Address ? "[" + a.getAddress().getHostAddress() + "]"
                : a.getAddress().getHostAddress();
        return URI.create((tls ? "https" : "http") + "://" + host + ":" + a.getPort());
    }

    /**
     * Stops accepting connections, answers new requests 503, waits for the requests in flight (at most
     * the request timeout plus one second), then closes every connection and stops the event loops.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        server.close().syncUninterruptibly();
        dispatcher.drain();
        for (Channel ch : channels) {
            HttpConnection c = ch.pipeline().get(HttpConnection.class);
            if (c != null) {
                ch.eventLoop().execute(c::closeWhenIdle);
            }
        }
        long deadline = System.nanoTime() + drainSeconds * 1_000_000_000L;
        while ((!channels.isEmpty() || dispatcher.inFlight() > 0) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(10);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        channels.close().awaitUninterruptibly(1, TimeUnit.SECONDS);
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(2, TimeUnit.SECONDS);
        handlers.shutdown();
        try {
            if (!handlers.awaitTermination(1, TimeUnit.SECONDS)) {
                handlers.shutdownNow();
            }
        } catch (InterruptedException e) {
            handlers.shutdownNow();
            Thread.currentThread().interrupt();
        }
        LOG.log(System.Logger.Level.INFO, "HTTP API stopped");
    }

    /**
     * Closes a connection over a cap as soon as it is open: plain HTTP after a 503
     * {@code too_many_connections} (written without reading anything), TLS at once (a handshake would
     * cost more than the refusal is worth). Logs at most one warning every ten seconds.
     */
    @ChannelHandler.Sharable
    private static final class Refuser extends ChannelInboundHandlerAdapter {
        private final boolean tls;
        private final ByteBuf answer;
        private final AtomicLong lastLogNs = new AtomicLong(System.nanoTime() - REFUSAL_LOG_INTERVAL_NS);

        Refuser(boolean tls) {
            this.tls = tls;
            GrowableBytes body = new GrowableBytes(256);
            try {
                ApiRequest.writeJson(body, g -> ReplyJson.writeError(g, ApiException.unavailable(
                        "too_many_connections", "the node has as many connections open as it allows (in all, or from "
                                + "this address); reuse a kept-alive connection, or retry in a moment", 1)));
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            body.write('\n');
            String head = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: " + ApiRequest.JSON_TYPE
                    + "\r\nCache-Control: no-store\r\nRetry-After: 1\r\nConnection: close\r\nContent-Length: "
                    + body.length() + "\r\n\r\n";
            byte[] headBytes = head.getBytes(StandardCharsets.US_ASCII);
            ByteBuf b = Unpooled.buffer(headBytes.length + body.length());
            b.writeBytes(headBytes).writeBytes(body.array(), 0, body.length());
            this.answer = Unpooled.unreleasableBuffer(b.asReadOnly());
        }

        void refuse(Channel ch, ConnectionLimits.Refusal full, InetAddress address, ConnectionLimits limits) {
            ch.pipeline().addLast(this);
            long now = System.nanoTime();
            long last = lastLogNs.get();
            if (now - last >= REFUSAL_LOG_INTERVAL_NS && lastLogNs.compareAndSet(last, now)) {
                LOG.log(System.Logger.Level.WARNING, full == ConnectionLimits.Refusal.NODE
                        ? "refusing connections: " + limits.open() + " open, as many as --max-connections ("
                                + limits.maxConnections() + ") allows"
                        : "refusing connections from " + address.getHostAddress() + ": it has "
                                + limits.maxPerAddress() + " open, as many as --max-connections-per-address allows");
            }
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            if (tls) {
                ctx.close();
            } else {
                ctx.writeAndFlush(answer.duplicate()).addListener(ChannelFutureListener.CLOSE);
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ReferenceCountUtil.release(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }
}
