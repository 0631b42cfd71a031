package io.triplerpc.transport.netty.internal.server;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.DuplexChannel;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.http.HttpObjectDecoder;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpServerUpgradeHandler;
import io.netty.handler.codec.http2.CleartextHttp2ServerUpgradeHandler;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2FrameTypes;
import io.netty.handler.codec.http2.Http2ServerUpgradeCodec;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ApplicationProtocolNegotiationHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.AsciiString;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.triplerpc.Status;
import io.triplerpc.WriteStats;
import io.triplerpc.internal.stream.ConnectionView;
import io.triplerpc.internal.stream.KeepAlive;
import io.triplerpc.internal.stream.ServerTransport;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.internal.stream.ServerTransportOptions;
import io.triplerpc.transport.netty.internal.ConnectionListeners;
import io.triplerpc.transport.netty.internal.CloseAfterWrites;
import io.triplerpc.transport.netty.internal.EventLoops;
import io.triplerpc.transport.netty.internal.IoTransport;
import io.triplerpc.transport.netty.internal.Tls;
import io.triplerpc.transport.netty.internal.write.ForcefulCloseCommand;
import io.triplerpc.transport.netty.internal.write.GracefulCloseCommand;
import io.triplerpc.transport.netty.internal.write.WriteQueue;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The listening socket of a server and its connections. Each connection starts with protocol
 * detection (with TLS configured, a connection that does not start with a TLS record is refused
 * unless cleartext is allowed beside TLS) and ends up with a {@link NettyServerHandler} (HTTP/2, by prior knowledge or h2c upgrade)
 * or an {@link Http1ServerHandler} (HTTP/1.1).
 */
final class NettyServerTransport implements ServerTransport {

  private static final Logger log = LoggerFactory.getLogger(NettyServerTransport.class);

  private final EventLoopGroup bossGroup;
  private final EventLoopGroup workerGroup;
  private final ChannelGroup connections = new DefaultChannelGroup("triple-connections", GlobalEventExecutor.INSTANCE);
  private final CompletableFuture<Void> termination = new CompletableFuture<>();
  private final SslContext sslContext;
  /**
   * The write queues of the HTTP/2 connections open now; guarded by itself with {@link #closedQueues}. A
   * lock taken when a connection opens or closes and when stats are read, never per call: it keeps a
   * closing connection from being counted twice or not at all.
   */
  private final Set<WriteQueue> openQueues = new HashSet<>();
  /** What the queues of closed connections wrote: commands, flushes. Guarded by {@link #openQueues}. */
  private final long[] closedQueues = new long[2];
  /** Told after each change of the open connections and of the closed ones' counts. */
  private final ConnectionListeners connectionListeners = new ConnectionListeners();
  /** What all HTTP/2 connections hold for clients that have not taken it, against the server-wide limit. */
  private final ServerBacklog backlog;
  private volatile Channel serverChannel;
  /** The {@code Alt-Svc} value of every response when HTTP/3 is served too, else null; set once bound. */
  private volatile AsciiString altSvc;
  private volatile boolean shuttingDown;

  private NettyServerTransport(
      EventLoopGroup bossGroup, EventLoopGroup workerGroup, SslContext sslContext, long maxTotalPendingOutboundBytes) {
    this.bossGroup = bossGroup;
    this.workerGroup = workerGroup;
    this.sslContext = sslContext;
    this.backlog = new ServerBacklog(maxTotalPendingOutboundBytes);
  }

  /** The length of a TLS record header, which tells TLS from cleartext. */
  private static final int TLS_RECORD_HEADER_LENGTH = 5;

  /**
   * Binds {@code address}. Waits for the bind to finish: this is server start-up, never a call path,
   * and the caller is promised a bound port when it returns.
   */
  static NettyServerTransport start(
      InetSocketAddress address, ServerTransportOptions options, ServerTransportListener listener) throws IOException {
    IoTransport io = IoTransport.resolve(options.transport());
    EventLoopGroup boss = io.newGroup(1, "triple-server-boss");
    EventLoopGroup workers = io.newGroup(options.ioThreads(), "triple-server-io");
    SslContext sslContext = options.tls() == null ? null : Tls.serverContext(options.tls());
    NettyServerTransport transport =
        new NettyServerTransport(boss, workers, sslContext, options.maxTotalPendingOutboundBytes());
    ServerBootstrap bootstrap = new ServerBootstrap()
        .group(boss, workers)
        .channel(io.serverSocketChannel())
        .option(ChannelOption.SO_REUSEADDR, true)
        .childOption(ChannelOption.TCP_NODELAY, true)
        .childOption(ChannelOption.SO_KEEPALIVE, true)
        .childOption(ChannelOption.ALLOCATOR, ServerAllocator.get())
        .childHandler(new ChannelInitializer<Channel>() {
          @Override
          protected void initChannel(Channel channel) {
            if (transport.shuttingDown) {
              // Accepted while the listener was closing: as if it were closed already ("no new connections
              // or calls", TripleServer.shutdown), so the client takes its calls to another server.
              channel.close();
              return;
            }
            transport.connections.add(channel);
            // Added after the group's own listener: the group has let go of the channel when it runs.
            channel.closeFuture().addListener(closed -> transport.connectionsChanged());
            transport.connectionsChanged();
            transport.initConnection(channel, listener, options);
          }
        });
    transport.serverChannel =
        EventLoops.awaitBind(bootstrap.bind(address), String.valueOf(address), () -> shutdownGroups(boss, workers));
    if (options.http3() != null) {
      String value = options.http3().altSvc(transport.localAddress().getPort());
      transport.altSvc = value == null ? null : AsciiString.of(value);
    }
    log.info("Triple server listening on {} ({})", transport.localAddress(), io);
    return transport;
  }

  /**
   * The pipeline of a new connection, before its first bytes. With TLS configured, a TLS record
   * first means TLS, and ALPN then picks HTTP/2 or HTTP/1.1; otherwise (and without TLS) the
   * connection is cleartext, see {@link #initCleartext}.
   */
  void initConnection(Channel channel, ServerTransportListener listener, ServerTransportOptions options) {
    if (IoTransport.writesLater(channel)) {
      channel.pipeline().addFirst(new CloseAfterWrites(options.drainGraceMillis()));
    }
    if (listener.countsTraffic()) {
      // Nearest the socket, so that it counts the bytes as they are sent and received.
      channel.pipeline().addFirst(ConnectionTraffic.NAME, new ConnectionTraffic());
    }
    if (KeepAlive.on(options.timers().handshakeTimeoutNanos())) {
      HandshakeTimeout.start(channel, options.timers().handshakeTimeoutNanos());
    }
    if (sslContext == null) {
      initCleartext(channel, listener, options);
    } else {
      channel.pipeline().addLast(new TlsDetector(listener, options));
    }
  }

  /**
   * Cleartext: the HTTP/2 preface leaves the HTTP/2 handler alone in the pipeline; anything else is
   * HTTP/1.1, which may upgrade to h2c (then the same handler takes over and the HTTP/1.1 handlers
   * leave).
   */
  void initCleartext(Channel channel, ServerTransportListener listener, ServerTransportOptions options) {
    NettyServerHandler http2 = NettyServerHandler.create(listener, options, this);
    HttpServerCodec http1Codec = new HttpServerCodec(
        HttpObjectDecoder.DEFAULT_MAX_INITIAL_LINE_LENGTH, options.limits().maxHeaderListSize(),
        HttpObjectDecoder.DEFAULT_MAX_CHUNK_SIZE);
    HttpServerUpgradeHandler upgrade = new Http1ServerHandler.UpgradeHandler(http1Codec,
        protocol -> AsciiString.contentEquals(Http2CodecUtil.HTTP_UPGRADE_PROTOCOL_NAME, protocol)
            ? new Http2ServerUpgradeCodec(http2) : null,
        options.limits().maxInboundMessageSize());
    Http1ReadTimeouts timeouts = readTimeouts(options);
    channel.pipeline()
        .addLast(Http1ReadTimeouts.BYTES_NAME, timeouts.bytes())
        .addLast(new CleartextHttp2ServerUpgradeHandler(http1Codec, upgrade, http2))
        .addLast(Http1ReadTimeouts.MESSAGES_NAME, timeouts.messages())
        .addLast(Http1ServerHandler.NAME, new Http1ServerHandler(listener, options.limits().maxInboundMessageSize(), options.cors()));
    advertiseHttp3(channel.pipeline());
  }

  /** Puts the {@code Alt-Svc} of HTTP/3, if served, on the HTTP/1.1 responses of {@code pipeline}. */
  private void advertiseHttp3(ChannelPipeline pipeline) {
    AsciiString value = altSvc;
    if (value != null) {
      pipeline.addBefore(Http1ServerHandler.NAME, AltSvc.Http1.NAME, new AltSvc.Http1(value));
    }
  }

  /** The {@code Alt-Svc} value of HTTP/3 for this server's responses, or null. */
  AsciiString altSvc() {
    return altSvc;
  }

  private static Http1ReadTimeouts readTimeouts(ServerTransportOptions options) {
    return new Http1ReadTimeouts(
        options.timers().httpHeaderReadTimeoutNanos(), options.timers().httpBodyIdleTimeoutNanos());
  }

  /** Tells a TLS connection from a cleartext one by its first record, then steps aside. */
  private final class TlsDetector extends ByteToMessageDecoder {
    private final ServerTransportListener listener;
    private final ServerTransportOptions options;

    TlsDetector(ServerTransportListener listener, ServerTransportOptions options) {
      this.listener = listener;
      this.options = options;
    }

    /** Set once a cleartext connection was refused: what it still sends is dropped. */
    private boolean refused;

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
      if (refused) {
        in.skipBytes(in.readableBytes());
        return;
      }
      if (in.readableBytes() < TLS_RECORD_HEADER_LENGTH) {
        return;
      }
      ChannelPipeline pipeline = ctx.pipeline();
      if (SslHandler.isEncrypted(in, false)) {
        pipeline.addAfter(ctx.name(), null, sslContext.newHandler(ctx.alloc()));
        pipeline.addLast(new Alpn(listener, options));
      } else if (options.plaintextAlongsideTls()) {
        initCleartext(ctx.channel(), listener, options);
      } else {
        refused = true;
        refuseCleartext(ctx, in);
        return;
      }
      // What was read so far goes on to the handlers just added.
      pipeline.remove(this);
    }
  }

  /**
   * Closes a cleartext connection to a TLS-only port, telling the client why in its own protocol where
   * that is cheap: a GOAWAY INADEQUATE_SECURITY after the HTTP/2 preface, a 400 to an HTTP/1.x request
   * line. Nothing it sent is parsed further.
   */
  private static void refuseCleartext(ChannelHandlerContext ctx, ByteBuf in) {
    log.debug("Closed a cleartext connection from {}: this port serves TLS only", ctx.channel().remoteAddress());
    ByteBuf reply;
    if (in.getByte(in.readerIndex()) == 'P' && in.getByte(in.readerIndex() + 1) == 'R') {
      reply = ctx.alloc().buffer(HTTP2_TLS_REQUIRED.length).writeBytes(HTTP2_TLS_REQUIRED);
    } else if (Character.isUpperCase(in.getByte(in.readerIndex()))) {
      reply = ctx.alloc().buffer(HTTP1_TLS_REQUIRED.length).writeBytes(HTTP1_TLS_REQUIRED);
    } else {
      reply = null;
    }
    in.skipBytes(in.readableBytes());
    if (reply == null) {
      ctx.close();
    } else {
      ctx.writeAndFlush(reply).addListener(written -> closeAfterLingering(ctx.channel()));
    }
  }

  /** How long a refused connection may keep sending after our answer, before it is closed anyway. */
  private static final long LINGER_SECONDS = 2;

  /**
   * Closes our side and lets the client's bytes in flight arrive (discarded) before the socket closes:
   * closing at once with its unread bytes in our buffer resets the connection, and a client still
   * writing its preface and first request would see "connection reset" instead of the answer. The
   * client's own close, or the linger time, ends the connection.
   */
  private static void closeAfterLingering(Channel channel) {
    if (channel instanceof DuplexChannel && channel.isActive()) {
      ((DuplexChannel) channel).shutdownOutput();
      channel.eventLoop().schedule(() -> channel.close(), LINGER_SECONDS, TimeUnit.SECONDS);
    } else {
      channel.close();
    }
  }

  private static final String TLS_REQUIRED = "This port serves TLS only: connect with TLS (https://).";

  /**
   * A server preface (empty SETTINGS) and GOAWAY(INADEQUATE_SECURITY, the reason). Its last stream id
   * is the highest there is, as when a connection ends without GOAWAY: with 0, clients such as
   * grpc-java take the call for unprocessed and retry it transparently, on new connections refused the
   * same way, until their retry limit (INTERNAL "Too many transparent retries") instead of failing at
   * once with this reason.
   */
  private static final byte[] HTTP2_TLS_REQUIRED = http2TlsRequired();

  private static final byte[] HTTP1_TLS_REQUIRED = ("HTTP/1.1 400 Bad Request\r\n"
      + "content-type: text/plain; charset=utf-8\r\n"
      + "connection: close\r\n"
      + "content-length: " + (TLS_REQUIRED.length() + 1) + "\r\n\r\n"
      + TLS_REQUIRED + "\n").getBytes(StandardCharsets.US_ASCII);

  private static byte[] http2TlsRequired() {
    byte[] reason = TLS_REQUIRED.getBytes(StandardCharsets.US_ASCII);
    ByteBuffer frames = ByteBuffer.allocate(9 + 9 + 8 + reason.length);
    frames.put(new byte[] {0, 0, 0, Http2FrameTypes.SETTINGS, 0, 0, 0, 0, 0});
    int length = 8 + reason.length;
    frames.put((byte) (length >>> 16)).put((byte) (length >>> 8)).put((byte) length)
        .put(Http2FrameTypes.GO_AWAY).put((byte) 0).putInt(0)
        .putInt(Integer.MAX_VALUE)
        .putInt((int) Http2Error.INADEQUATE_SECURITY.code())
        .put(reason);
    return frames.array();
  }

  /** After the TLS handshake: HTTP/2 for "h2", HTTP/1.1 (no upgrade) for "http/1.1" or no ALPN. */
  private final class Alpn extends ApplicationProtocolNegotiationHandler {
    private final ServerTransportListener listener;
    private final ServerTransportOptions options;

    Alpn(ServerTransportListener listener, ServerTransportOptions options) {
      super(ApplicationProtocolNames.HTTP_1_1);
      this.listener = listener;
      this.options = options;
    }

    @Override
    protected void configurePipeline(ChannelHandlerContext ctx, String protocol) {
      if (ApplicationProtocolNames.HTTP_2.equals(protocol)) {
        ctx.pipeline().addLast(NettyServerHandler.create(listener, options, NettyServerTransport.this));
        return;
      }
      Http1ReadTimeouts timeouts = readTimeouts(options);
      ctx.pipeline()
          .addLast(Http1ReadTimeouts.BYTES_NAME, timeouts.bytes())
          .addLast(new HttpServerCodec(HttpObjectDecoder.DEFAULT_MAX_INITIAL_LINE_LENGTH, options.limits().maxHeaderListSize(),
              HttpObjectDecoder.DEFAULT_MAX_CHUNK_SIZE))
          .addLast(Http1ReadTimeouts.MESSAGES_NAME, timeouts.messages())
          .addLast(Http1ServerHandler.NAME, new Http1ServerHandler(listener, options.limits().maxInboundMessageSize(), options.cors()));
      advertiseHttp3(ctx.pipeline());
    }

    @Override
    protected void handshakeFailure(ChannelHandlerContext ctx, Throwable cause) {
      log.debug("TLS handshake with {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
      ctx.close();
    }
  }

  /** The server-wide backlog every HTTP/2 connection publishes its own in. */
  ServerBacklog backlog() {
    return backlog;
  }

  boolean isShuttingDown() {
    return shuttingDown;
  }

  /** An HTTP/2 connection's queue starts: {@link #writeStats()} counts it. Once per connection. */
  void queueOpened(WriteQueue queue) {
    synchronized (openQueues) {
      openQueues.add(queue);
    }
  }

  /**
   * An HTTP/2 connection closed, and its queue writes no more: its counts move to the closed ones in one
   * step, so the totals never dip.
   */
  void queueClosed(WriteQueue queue) {
    synchronized (openQueues) {
      if (openQueues.remove(queue)) {
        closedQueues[0] += queue.commandsWritten();
        closedQueues[1] += queue.flushes();
      }
    }
    connectionsChanged();
  }

  private void connectionsChanged() {
    connectionListeners.changed();
  }

  @Override
  public void onConnectionsChanged(Runnable listener) {
    connectionListeners.add(listener);
  }

  @Override
  public CompletableFuture<Void> writesSettled() {
    List<CompletableFuture<Void>> loops = new ArrayList<>();
    // Every loop, not only those of the connections open now: a connection that just closed releases what
    // it held on its loop too. Each loop runs tasks one at a time, in order: this one runs after any drain
    // or release in progress.
    for (EventExecutor loop : workerGroup) {
      loops.add(CompletableFuture.runAsync(() -> {}, loop));
    }
    return CompletableFuture.allOf(loops.toArray(new CompletableFuture<?>[0]));
  }

  @Override
  public int openConnections() {
    return connections.size();
  }

  @Override
  public List<CompletableFuture<ConnectionView>> describeConnections() {
    List<CompletableFuture<ConnectionView>> views = new ArrayList<>();
    for (Channel connection : connections) {
      CompletableFuture<ConnectionView> view = new CompletableFuture<>();
      try {
        connection.eventLoop().execute(() -> {
          try {
            view.complete(describe(connection));
          } catch (RuntimeException e) {
            view.completeExceptionally(e);
          }
        });
      } catch (RejectedExecutionException e) {
        view.completeExceptionally(e);
      }
      views.add(view);
    }
    return views;
  }

  /** {@code connection} as it is now. On its event loop. */
  private static ConnectionView describe(Channel connection) {
    ChannelPipeline pipeline = connection.pipeline();
    ConnectionTraffic traffic = ConnectionTraffic.of(connection);
    NettyServerHandler http2 = pipeline.get(NettyServerHandler.class);
    Http1ServerHandler http1 = pipeline.get(Http1ServerHandler.class);
    String protocol;
    int streams;
    long idleMillis;
    if (http2 != null) {
      protocol = "HTTP/2";
      streams = http2.connection().numActiveStreams();
      idleMillis = http2.idleMillis();
    } else if (http1 != null) {
      protocol = "HTTP/1.1";
      streams = http1.requestsInFlight();
      idleMillis = -1;
    } else {
      protocol = "undetected";
      streams = 0;
      idleMillis = -1;
    }
    boolean isHttp2 = "HTTP/2".equals(protocol);
    return new ConnectionView(
        String.valueOf(connection.remoteAddress()).replaceFirst("^/", ""),
        protocol,
        pipeline.get(SslHandler.class) != null,
        traffic == null ? 0 : traffic.openedAtMillis,
        streams,
        isHttp2 ? http2.streamsByProtocol() : java.util.Map.of(),
        traffic == null ? -1 : traffic.bytesIn(),
        traffic == null ? -1 : traffic.bytesOut(),
        isHttp2 ? http2.flowControl() : null,
        isHttp2 ? http2.keepAliveState() : null,
        idleMillis);
  }

  @Override
  public WriteStats writeStats() {
    synchronized (openQueues) {
      long commands = closedQueues[0];
      long flushes = closedQueues[1];
      for (WriteQueue queue : openQueues) {
        commands += queue.commandsWritten();
        flushes += queue.flushes();
      }
      return new WriteStats(commands, flushes);
    }
  }

  @Override
  public InetSocketAddress localAddress() {
    return (InetSocketAddress) serverChannel.localAddress();
  }

  @Override
  public void shutdown() {
    if (shuttingDown || termination.isDone()) {
      return;
    }
    closeConnections(connection -> {
      NettyServerHandler handler = connection.pipeline().get(NettyServerHandler.class);
      Http1ServerHandler http1 = connection.pipeline().get(Http1ServerHandler.class);
      if (handler != null) {
        handler.writeQueue().enqueue(new GracefulCloseCommand(GracefulCloseCommand.SHUTDOWN), true);
      } else if (http1 != null) {
        http1.startGracefulShutdown();
      } else {
        connection.close();
      }
    });
  }

  @Override
  public void shutdownNow() {
    if (termination.isDone()) {
      return;
    }
    closeConnections(connection -> {
      NettyServerHandler handler = connection.pipeline().get(NettyServerHandler.class);
      if (handler != null) {
        // Through the queue, after the frames queued before it: GOAWAY, then close at once.
        handler.writeQueue().enqueue(
            new ForcefulCloseCommand(Status.UNAVAILABLE.withDescription("Server is shutting down now")), true);
      } else {
        // Straight to the socket: HTTP/1.1, or no protocol chosen yet.
        connection.unsafe().close(connection.voidPromise());
      }
    });
  }

  /**
   * Stops accepting, then runs {@code close} for each connection on its event loop; the server terminates
   * once every connection has closed.
   */
  private void closeConnections(Consumer<Channel> close) {
    shuttingDown = true;
    serverChannel.close().addListener(closed -> {
      for (Channel connection : connections) {
        connection.eventLoop().execute(() -> close.accept(connection));
      }
      terminateWhenConnectionsClose();
    });
  }

  private void terminateWhenConnectionsClose() {
    connections.newCloseFuture().addListener(done -> {
      if (!connections.isEmpty()) {
        terminateWhenConnectionsClose();
        return;
      }
      shutdownGroups(bossGroup, workerGroup).whenComplete((v, t) -> termination.complete(null));
    });
  }

  private static CompletableFuture<Void> shutdownGroups(EventLoopGroup boss, EventLoopGroup workers) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    boss.shutdownGracefully(0, 5, TimeUnit.SECONDS);
    workers.shutdownGracefully(0, 5, TimeUnit.SECONDS).addListener(f ->
        boss.terminationFuture().addListener(g -> done.complete(null)));
    return done;
  }

  @Override
  public CompletableFuture<Void> terminationFuture() {
    return termination;
  }
}
