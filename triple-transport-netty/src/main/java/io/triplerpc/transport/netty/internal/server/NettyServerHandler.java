package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpServerUpgradeHandler;
import io.netty.handler.codec.http2.CleartextHttp2ServerUpgradeHandler;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionAdapter;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.util.AsciiString;
import io.netty.util.ReferenceCountUtil;
import io.triplerpc.PeerInfo;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ServerConnectionTimers;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.internal.stream.ServerTransportOptions;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.transport.netty.internal.GrpcHttp2ConnectionHandler;
import io.triplerpc.transport.netty.internal.GrpcHttp2HandlerBuilder;
import io.triplerpc.transport.netty.internal.OutboundBacklog;
import io.triplerpc.transport.netty.internal.write.CancelStreamCommand;
import io.triplerpc.transport.netty.internal.write.FinishGracefulCloseCommand;
import io.triplerpc.transport.netty.internal.write.ForcefulCloseCommand;
import io.triplerpc.transport.netty.internal.write.GracefulCloseCommand;
import io.triplerpc.transport.netty.internal.write.RejectStreamCommand;
import io.triplerpc.transport.netty.internal.write.ResetStreamCommand;
import io.triplerpc.transport.netty.internal.write.SendBodyCommand;
import io.triplerpc.transport.netty.internal.write.SendDataCommand;
import io.triplerpc.transport.netty.internal.write.SendHeadCommand;
import io.triplerpc.transport.netty.internal.write.SendHeadersCommand;
import io.triplerpc.transport.netty.internal.write.SendPingCommand;
import io.triplerpc.transport.netty.internal.write.SendResponseCommand;
import io.triplerpc.transport.netty.internal.write.SendSettingsCommand;
import io.triplerpc.transport.netty.internal.write.WriteQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP/2 handler of one server connection: the connection's life (keepalive, idle and age
 * limits, GOAWAY and close, connection errors) and the commands of its {@link WriteQueue}. Each new
 * stream's request headers are checked as HTTP/2 requires, then its content type picks the
 * {@link ServerProtocol} that serves it (gRPC, or the web protocols: Connect, gRPC-Web), whose {@link ServerExchange} takes the
 * stream's later frames. Event loop only.
 */
final class NettyServerHandler extends GrpcHttp2ConnectionHandler {

  private static final Logger log = LoggerFactory.getLogger(NettyServerHandler.class);
  private static final AsciiString HOST = AsciiString.cached("host");
  private static final AsciiString CONNECT = AsciiString.cached("CONNECT");
  /** The PING between the two GOAWAYs of a graceful close. */
  static final long GOAWAY_PING_DATA = 0x7472697065L;
  /** The GOAWAY debug data grpc-java's and Go's clients look for to ping less often. */
  static final String TOO_MANY_PINGS = "too_many_pings";
  /** The GOAWAY debug data when a client resets most streams as it opens them (rapid reset). */
  static final String TOO_MANY_RESETS = "too_many_premature_resets";
  /** The stream an h2c upgrade request becomes (RFC 7540 3.2). */
  private static final int UPGRADE_STREAM_ID = 1;

  private final ServerTransportOptions options;
  private final NettyServerTransport transport;
  /** Each stream's {@link ServerExchange}, once its protocol opened it. */
  private final Http2Connection.PropertyKey exchangeKey;
  /** Which HEADERS on streams Netty no longer knows call for a connection error rather than a reset. */
  private final StreamIdChecks streamIds;
  private final GrpcProtocol grpc;
  private final WebProtocol web;
  private WriteQueue writeQueue;
  /** Judges the client's PINGs; set when the connection starts. */
  private KeepAliveEnforcer pings;
  /** Streams reset soon after they opened; null until the connection starts. */
  private PrematureResets resets;
  /** Closes the connection when idle or old; set when the connection starts. */
  private ConnectionLifetime lifetime;
  /** Response bytes the client has not taken yet. */
  private final OutboundBacklog backlog;
  /** This connection's part of the server's backlog; set when the handler is added. */
  private ServerBacklog.Share serverBacklog;
  /** This handler's context, for what the server asks of the connection from elsewhere; set when added. */
  private ChannelHandlerContext ctx;
  /** Whether the client's first SETTINGS arrived: the connection chose HTTP/2. */
  private boolean settingsRead;
  private boolean shuttingDown;
  /** Sends the second GOAWAY of a graceful close if the PING's ACK does not come first; null when none is due. */
  private ScheduledFuture<?> secondGoAwayTimeout;
  /** A {@link FinishGracefulCloseCommand} waits in the queue, and no forceful close came since. */
  private boolean secondGoAwayQueued;
  /** The connection, described when its first stream opens (after any TLS handshake); event loop only. */
  private PeerInfo peer;

  private NettyServerHandler(
      Http2ConnectionDecoder decoder,
      Http2ConnectionEncoder encoder,
      Http2Settings settings,
      ServerTransportListener listener,
      ServerTransportOptions options,
      NettyServerTransport transport,
      StreamIdChecks streamIds) {
    super(decoder, encoder, settings, options.limits());
    this.streamIds = streamIds;
    this.options = options;
    this.transport = transport;
    this.exchangeKey = connection().newKey();
    this.backlog = new OutboundBacklog(options.limits().maxPendingOutboundBytes(), new OutboundBacklog.Watcher() {
      @Override
      public void decongested() {
        NettyServerHandler.this.decongested();
      }

      @Override
      public void grew() {
        // A drain of many large messages would otherwise pass the server's limit by all of them at once.
        publishBacklog();
      }
    });
    int maxInboundMessageSize = options.limits().maxInboundMessageSize();
    this.grpc = new GrpcProtocol(this, listener, maxInboundMessageSize, backlog);
    this.web = new WebProtocol(this, listener, maxInboundMessageSize, options.cors());
    decoder.frameListener(new FrameListener());
    streamIds.onResponseFrameWritten(this::dataSent);
    connection().addListener(new Http2ConnectionAdapter() {
      @Override
      public void onStreamClosed(Http2Stream stream) {
        if (lifetime != null && connection().numActiveStreams() == 0) {
          lifetime.onIdle();
        }
        ServerExchange exchange = stream.getProperty(exchangeKey);
        if (exchange != null) {
          exchange.onClosed();
        }
      }
    });
    // Graceful shutdown waits for every call in flight; shutdownNow() is the way to cut it short.
    gracefulShutdownTimeoutMillis(-1);
  }

  static NettyServerHandler create(
      ServerTransportListener listener, ServerTransportOptions options, NettyServerTransport transport) {
    Http2Connection connection = newConnection(true);
    StreamIdChecks streamIds = new StreamIdChecks(connection);
    Http2Settings settings = new Http2Settings()
        .maxConcurrentStreams(options.maxConcurrentStreams())
        .initialWindowSize(options.limits().initialWindowSize())
        .maxHeaderListSize(options.limits().maxHeaderListSize());
    return GrpcHttp2HandlerBuilder.server(connection, streamIds, settings, options.limits(), (decoder, encoder, initialSettings) ->
        new NettyServerHandler(decoder,
            transport.altSvc() == null ? encoder : AltSvc.http2(encoder, transport.altSvc()),
            initialSettings, listener, options, transport, streamIds));
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
    this.ctx = ctx;
    writeQueue = new WriteQueue(ctx.channel());
    transport.queueOpened(writeQueue);
    serverBacklog = transport.backlog().join(ctx.channel().eventLoop(), new ServerBacklog.Connection() {
      @Override
      public void refuse(String reason) {
        refuseForServerBacklog(reason);
      }

      @Override
      public void decongested() {
        NettyServerHandler.this.decongested();
      }
    });
    super.handlerAdded(ctx);
    if (ctx.channel().isActive()) {
      // Added after protocol detection or an h2c upgrade: the connection was active before this handler.
      connectionStarted(ctx);
    }
  }

  /** The connection is active and this handler in place: commands flow, timers start. */
  private void connectionStarted(ChannelHandlerContext ctx) {
    writeQueue.markReady();
    ServerConnectionTimers timers = options.timers();
    pings = new KeepAliveEnforcer(
        ctx.executor().ticker(), timers.permitKeepAliveTimeNanos(), timers.permitKeepAliveWithoutCalls());
    resets = new PrematureResets(ctx.executor().ticker());
    startKeepAlive(ctx, options.keepAlive().timeNanos(), options.keepAlive().timeoutNanos(),
        options.keepAlive().withoutCalls());
    lifetime = new ConnectionLifetime(ctx.executor(), timers, new ConnectionLifetime.Connection() {
      @Override
      public boolean hasCalls() {
        return connection().numActiveStreams() > 0;
      }

      @Override
      public void closeGracefully(String reason) {
        writeQueue.enqueue(new GracefulCloseCommand(reason), true);
      }

      @Override
      public void closeForcefully() {
        writeQueue.enqueue(new ForcefulCloseCommand(
            Status.UNAVAILABLE.withDescription("Connection reached its maximum age and grace")), true);
      }
    });
    lifetime.start();
    if (transport.isShuttingDown()) {
      writeQueue.enqueue(new GracefulCloseCommand(GracefulCloseCommand.SHUTDOWN), true);
    }
  }

  /**
   * Protocol detection chose HTTP/2: the HTTP/1.1 handlers leave the pipeline, so that nothing but
   * this handler sees the connection's frames; an h2c upgrade request is answered on stream 1.
   */
  @Override
  public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
    if (evt instanceof CleartextHttp2ServerUpgradeHandler.PriorKnowledgeUpgradeEvent) {
      removeHttp1Handlers(ctx);
      return;
    }
    if (evt instanceof HttpServerUpgradeHandler.UpgradeEvent) {
      HttpServerUpgradeHandler.UpgradeEvent upgrade = (HttpServerUpgradeHandler.UpgradeEvent) evt;
      try {
        removeHttp1Handlers(ctx);
        upgraded(ctx, upgrade.upgradeRequest());
      } finally {
        upgrade.release();
      }
      return;
    }
    super.userEventTriggered(ctx, evt);
  }

  private static void removeHttp1Handlers(ChannelHandlerContext ctx) {
    for (String name : new String[] {Http1ReadTimeouts.BYTES_NAME, Http1ReadTimeouts.MESSAGES_NAME, AltSvc.Http1.NAME}) {
      if (ctx.pipeline().get(name) != null) {
        ctx.pipeline().remove(name);
      }
    }
    if (ctx.pipeline().get(Http1ServerHandler.NAME) != null) {
      ctx.pipeline().remove(Http1ServerHandler.NAME);
    }
  }

  /** The HTTP/1.1 request that upgraded the connection, now stream 1 (half-closed by the client). */
  private void upgraded(ChannelHandlerContext ctx, FullHttpRequest request) {
    Http2Stream stream = connection().stream(UPGRADE_STREAM_ID);
    if (stream == null) {
      // The upgrade completed as the connection closed (the request ended by the peer's EOF): no one to answer.
      return;
    }
    Http2Headers headers = Http1ServerHandler.toHttp2Headers(request);
    if (GrpcHeaders.isGrpcContentType(headers.get(GrpcHeaders.CONTENT_TYPE))) {
      // gRPC clients never upgrade; core's streams expect their messages as DATA frames.
      grpc.respondError(UPGRADE_STREAM_ID,
          Status.UNIMPLEMENTED.withDescription("gRPC needs HTTP/2 with prior knowledge, not an h2c upgrade"));
      return;
    }
    web.openUpgraded(ctx, stream, headers, request.content().retain());
  }

  /** Also when removed from a connection that closed before this handler saw it active. */
  @Override
  protected void handlerRemoved0(ChannelHandlerContext ctx) throws Exception {
    transport.queueClosed(writeQueue);
    serverBacklog.leave();
    super.handlerRemoved0(ctx);
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    super.channelActive(ctx);
    connectionStarted(ctx);
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
    PrematureResets rule = resets;
    if (rule == null) {
      super.channelRead(ctx, msg);
      return;
    }
    rule.readStarted();
    try {
      super.channelRead(ctx, msg);
    } finally {
      rule.readEnded();
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    if (secondGoAwayTimeout != null) {
      secondGoAwayTimeout.cancel(false);
      secondGoAwayTimeout = null;
    }
    if (lifetime != null) {
      lifetime.stop();
    }
    writeQueue.markFailed(Status.UNAVAILABLE.withDescription("Connection closed").asException());
    // The queue's last drain ran on this event loop: its counts are final.
    transport.queueClosed(writeQueue);
    // What the streams still hold is released as they close, below.
    serverBacklog.leave();
    super.channelInactive(ctx);
  }

  /**
   * Every write reaches the socket through here (the queue's drains, Netty's after a read): once the
   * socket took what it could, the server learns what this connection still holds, which for a client
   * that reads is what it held after the previous flush, and costs nothing shared.
   */
  @Override
  public void flush(ChannelHandlerContext ctx) {
    super.flush(ctx);
    publishBacklog();
  }

  /** Tells the server what this connection holds now. */
  private void publishBacklog() {
    backlog.mark();
    serverBacklog.publish(backlog.bytes());
  }

  /**
   * Whether calls should write no more ({@code isReady()} false): this connection or the server holds
   * half its limit or more of unread responses. Any thread.
   */
  boolean holdsBack() {
    return backlog.congested() || transport.backlog().congested();
  }

  /** The connection's or the server's backlog fell back: the calls held back may write again. Event loop. */
  private void decongested() {
    if (holdsBack()) {
      return;
    }
    try {
      connection().forEachActiveStream(http2Stream -> {
        ServerExchange exchange = http2Stream.getProperty(exchangeKey);
        if (exchange != null) {
          exchange.onDecongested();
        }
        return true;
      });
    } catch (Http2Exception e) {
      log.debug("Telling the streams of {} to write again failed", ctx.channel(), e);
    }
  }

  /**
   * The server holds more unread responses than its limit, and this connection the most of them: it goes
   * away as a connection past its own limit does. Event loop.
   */
  private void refuseForServerBacklog(String reason) {
    if (!ctx.channel().isActive()) {
      return;
    }
    closeForUnreadResponses(ctx, reason);
  }

  /** The streams open now by their call's protocol ({@code grpc}, {@code connect}...), in name order. Event loop. */
  java.util.Map<String, Integer> streamsByProtocol() {
    java.util.Map<String, Integer> counts = new java.util.TreeMap<>();
    try {
      connection().forEachActiveStream(http2Stream -> {
        ServerExchange exchange = http2Stream.getProperty(exchangeKey);
        counts.merge(exchange == null ? "opening" : exchange.protocol(), 1, Integer::sum);
        return true;
      });
    } catch (Http2Exception e) {
      // The visitor throws nothing.
      throw new IllegalStateException(e);
    }
    return counts;
  }

  /** How long the connection has had no stream open, or 0 while it has one (-1 before it started). Event loop. */
  long idleMillis() {
    return lifetime == null ? -1 : lifetime.idleMillis();
  }

  /** Response bytes the client has not taken yet. Event loop. */
  long backlogBytes() {
    return backlog.bytes();
  }

  /** The socket drained: the client reads. */
  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
    if (ctx.channel().isWritable()) {
      backlog.peerRead();
    }
    super.channelWritabilityChanged(ctx);
    publishBacklog();
  }

  /** The queue that runs this connection's commands, closes included; set when the handler is added. */
  @Override
  public WriteQueue writeQueue() {
    return writeQueue;
  }

  /**
   * First GOAWAY: no id limit yet, so streams already on the wire are still served, and a PING. Its
   * ACK (or, without one, the drain grace) brings the second GOAWAY, which names the last stream
   * this server processed; the connection closes once those streams end.
   */
  private void gracefulClose(ChannelHandlerContext ctx, GracefulCloseCommand command, ChannelPromise promise) {
    if (shuttingDown) {
      promise.setSuccess();
      return;
    }
    shuttingDown = true;
    if (lifetime != null) {
      lifetime.stop();
    }
    goAway(ctx, Integer.MAX_VALUE, Http2Error.NO_ERROR.code(),
        ByteBufUtil.writeAscii(ctx.alloc(), command.reason()), promise);
    encoder().writePing(ctx, false, GOAWAY_PING_DATA, ctx.newPromise());
    // Flushed by the queue's drain, right after this command.
    secondGoAwayTimeout = ctx.executor().schedule(
        this::secondGoAway, Math.max(0, options.drainGraceMillis()), TimeUnit.MILLISECONDS);
  }

  /**
   * The client answered the first GOAWAY's PING, or did not in time: every stream it sent before is
   * here. The second GOAWAY goes out behind what waits in the queue. Event loop, in a read or the timer.
   */
  private void secondGoAway() {
    if (secondGoAwayTimeout == null) {
      return;
    }
    secondGoAwayTimeout.cancel(false);
    secondGoAwayTimeout = null;
    secondGoAwayQueued = true;
    writeNow(new FinishGracefulCloseCommand());
  }

  /** The second GOAWAY names the last stream this server processed; the connection closes once those end. */
  private void finishGracefulClose(ChannelHandlerContext ctx, ChannelPromise promise) {
    if (!secondGoAwayQueued) {
      // A forceful close came first.
      promise.setSuccess();
      return;
    }
    secondGoAwayQueued = false;
    // Netty's close() sends no second GOAWAY once one went out, so name the last stream here.
    goAway(ctx, connection().remote().lastStreamCreated(), Http2Error.NO_ERROR.code(),
        io.netty.buffer.Unpooled.EMPTY_BUFFER, promise);
    // Through the pipeline, so that this handler's own close() waits for the streams in flight;
    // ctx.close() would start at the handler before this one and cut them off. (Not channel().close(),
    // the same on a socket, which on an EmbeddedChannel also cancels every scheduled task.)
    ctx.pipeline().close();
  }

  /**
   * Ends every stream in flight with the command's status, sends GOAWAY naming the last stream this
   * server processed, and closes once that is written, without waiting for the streams. No RST_STREAM:
   * the client sees its calls end with the connection (UNAVAILABLE), not as cancelled.
   */
  private void forcefulClose(ChannelHandlerContext ctx, ForcefulCloseCommand command, ChannelPromise promise)
      throws Http2Exception {
    endStreams(command.status());
    goAway(ctx, connection().remote().lastStreamCreated(), command.errorCode(),
        ByteBufUtil.writeAscii(ctx.alloc(), command.debugData()), ctx.newPromise())
        // ctx.close(), not this handler's close(), which would wait for the streams in flight.
        .addListener(written -> ctx.close(promise));
    ctx.flush();
  }

  /** Ends every stream in flight with {@code status}, and any graceful close under way. */
  private void endStreams(Status status) throws Http2Exception {
    shuttingDown = true;
    secondGoAwayQueued = false;
    if (secondGoAwayTimeout != null) {
      secondGoAwayTimeout.cancel(false);
      secondGoAwayTimeout = null;
    }
    if (lifetime != null) {
      lifetime.stop();
    }
    connection().forEachActiveStream(http2Stream -> {
      ServerExchange exchange = http2Stream.getProperty(exchangeKey);
      if (exchange != null) {
        exchange.abort(status);
      }
      http2Stream.close();
      return true;
    });
  }

  /** The client stopped answering: its calls are cancelled and the connection closes at once. */
  @Override
  protected void keepAliveFailed(ChannelHandlerContext ctx, Status status) {
    log.debug("Closing {}: {}", ctx.channel(), status.description());
    try {
      endStreams(status);
    } catch (Http2Exception e) {
      log.debug("Ending the streams of {} failed", ctx.channel(), e);
    }
    ctx.close();
  }

  /**
   * A connection error: GOAWAY naming the last stream this server opened, then close. Netty names
   * 2^31-1 instead (in case the error struck a stream before it was counted), which tells the client
   * that every stream it sent may have been processed; a stream whose headers failed to decode was not.
   * Netty's error handling calls this where it finds the error, in a read or while a command runs, so
   * the GOAWAY is written here and not queued: as Netty's other error frames, it is below the queue.
   */
  @Override
  protected void onConnectionError(
      ChannelHandlerContext ctx, boolean outbound, Throwable cause, Http2Exception http2Ex) {
    Http2Exception error = http2Ex != null ? http2Ex
        : new Http2Exception(Http2Error.INTERNAL_ERROR, cause.getMessage(), cause);
    if (error.shutdownHint() == Http2Exception.ShutdownHint.GRACEFUL_SHUTDOWN) {
      // Netty names the last stream opened for these itself, and waits for the streams in flight.
      super.onConnectionError(ctx, outbound, cause, http2Ex);
      return;
    }
    goAway(ctx, connection().remote().lastStreamCreated(), error.error().code(),
        Http2CodecUtil.toByteBuf(ctx, error), ctx.newPromise())
        // ctx.close(), not this handler's close(), which would wait for the streams in flight.
        .addListener(written -> ctx.close());
  }

  /**
   * A stream error; HEADERS on a stream the client skipped or that already ended become the
   * connection errors RFC 9113 asks for (see {@link StreamIdChecks}).
   */
  @Override
  protected void onStreamError(
      ChannelHandlerContext ctx, boolean outbound, Throwable cause, Http2Exception.StreamException http2Ex) {
    Http2Exception connectionError = outbound ? null : streamIds.connectionErrorFor(http2Ex);
    if (connectionError != null) {
      onConnectionError(ctx, false, connectionError, connectionError);
      return;
    }
    super.onStreamError(ctx, outbound, cause, http2Ex);
  }

  /** Every command this connection accepts; anything else is refused (its promise fails). */
  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
    // A gRPC call's commands.
    if (msg instanceof SendDataCommand) {
      grpc.sendData(ctx, (SendDataCommand) msg, promise);
    } else if (msg instanceof SendHeadersCommand) {
      grpc.sendHeaders(ctx, (SendHeadersCommand) msg, promise);
    } else if (msg instanceof SendResponseCommand) {
      grpc.sendResponse(ctx, (SendResponseCommand) msg, promise);
    } else if (msg instanceof CancelStreamCommand) {
      grpc.cancelStream(ctx, (CancelStreamCommand) msg, promise);
      // A web call's (Connect, gRPC-Web): an HTTP response's head and body, or a reset.
    } else if (msg instanceof SendBodyCommand) {
      web.sendBody(ctx, (SendBodyCommand) msg, promise);
    } else if (msg instanceof SendHeadCommand) {
      web.sendHead(ctx, (SendHeadCommand) msg, promise);
    } else if (msg instanceof ResetStreamCommand) {
      web.resetStream(ctx, (ResetStreamCommand) msg, promise);
      // A request answered without a call.
    } else if (msg instanceof RejectStreamCommand) {
      grpc.reject(ctx, (RejectStreamCommand) msg, promise);
      // The connection's.
    } else if (msg instanceof SendPingCommand) {
      encoder().writePing(ctx, false, ((SendPingCommand) msg).data(), promise);
    } else if (msg instanceof SendSettingsCommand) {
      encoder().writeSettings(ctx, ((SendSettingsCommand) msg).settings(), promise);
    } else if (msg instanceof GracefulCloseCommand) {
      gracefulClose(ctx, (GracefulCloseCommand) msg, promise);
    } else if (msg instanceof FinishGracefulCloseCommand) {
      finishGracefulClose(ctx, promise);
    } else if (msg instanceof ForcefulCloseCommand) {
      forcefulClose(ctx, (ForcefulCloseCommand) msg, promise);
    } else {
      // Anything else would reach the socket around the queue, out of order with the streams' frames.
      // Netty's own frames are written below this handler and never come here: SETTINGS and PING ACKs,
      // WINDOW_UPDATEs of its flow controller, and the RST_STREAM or GOAWAY its error handling sends for
      // a stream or connection error (see onStreamError, onConnectionError).
      ReferenceCountUtil.release(msg);
      throw new UnsupportedOperationException("Not a command of this connection: " + msg.getClass().getName());
    }
  }

  /**
   * After the response ended, a client still sending is told to stop: RST_STREAM NO_ERROR (RFC 9113 8.1).
   * Called while the command that ended the response runs: the reset is part of it, right behind its frames.
   */
  void stopClientSending(ChannelHandlerContext ctx, int streamId) {
    Http2Stream http2Stream = connection().stream(streamId);
    if (http2Stream != null && http2Stream.state() == Http2Stream.State.HALF_CLOSED_LOCAL) {
      encoder().writeRstStream(ctx, streamId, Http2Error.NO_ERROR.code(), ctx.newPromise());
    }
  }

  /**
   * Throws a stream error PROTOCOL_ERROR (RST_STREAM) for a malformed request (RFC 9113 8.1.1), before
   * any routing: a request without {@code :method}, {@code :scheme} or a non-empty {@code :path}
   * (CONNECT: with {@code :authority} and neither of the other two, 8.5), an {@code :authority} with
   * user info, or a {@code host} that names another authority (8.3.1).
   */
  private static void checkRequestHeaders(int streamId, Http2Headers headers) throws Http2Exception {
    CharSequence method = headers.method();
    CharSequence authority = headers.authority();
    CharSequence path = headers.path();
    String malformed = null;
    if (method == null) {
      malformed = "no :method";
    } else if (CONNECT.contentEquals(method)) {
      if (authority == null || headers.scheme() != null || path != null) {
        malformed = "CONNECT needs :authority and neither :scheme nor :path";
      }
    } else if (headers.scheme() == null) {
      malformed = "no :scheme";
    } else if (path == null || path.length() == 0) {
      malformed = "no :path";
    }
    if (malformed == null && authority != null) {
      CharSequence host = headers.get(HOST);
      if (AsciiString.indexOf(authority, '@', 0) >= 0) {
        malformed = ":authority with user info";
      } else if (host != null && !AsciiString.contentEqualsIgnoreCase(host, authority)) {
        malformed = "host " + host + " differs from :authority " + authority;
      }
    }
    if (malformed != null) {
      throw Http2Exception.streamError(streamId, Http2Error.PROTOCOL_ERROR, "Malformed request: %s", malformed);
    }
  }

  /** The connection, as services see it: described once, when its first stream opens. */
  PeerInfo peer(ChannelHandlerContext ctx) {
    if (peer == null) {
      peer = Peers.describe(ctx.channel(), true);
    }
    return peer;
  }

  /** The gRPC call on {@code streamId}, the stream opened last, announced a deadline {@code timeoutNanos} away. */
  void announcedTimeout(int streamId, long timeoutNanos) {
    resets.announcedTimeout(streamId, timeoutNanos);
  }

  /** Hands {@code stream}'s later frames to {@code exchange}. */
  void attach(Http2Stream stream, ServerExchange exchange) {
    stream.setProperty(exchangeKey, exchange);
  }

  /**
   * Headers or data reached the socket: the client's PINGs are forgiven (see {@link KeepAliveEnforcer}),
   * since receiving them is what makes clients ping (grpc-go's BDP estimation, for one).
   */
  private void dataSent() {
    if (pings != null) {
      pings.onDataSent();
    }
  }

  /**
   * After a write on {@code streamId}: past the backlog's limit, its call ends with RESOURCE_EXHAUSTED
   * ({@code endCall}) and the stream is reset (ENHANCE_YOUR_CALM); if a stream was reset for it before
   * and the client has not shown since that it reads, it does not read at all and the connection goes
   * away. Called while the command that wrote runs: the reset or the GOAWAY is part of it, written before
   * any later command (a body already queued for a web exchange would else count against the backlog
   * again, and close the connection where a reset was due).
   */
  void enforceBacklog(ChannelHandlerContext ctx, int streamId, Consumer<Status> endCall) {
    if (!backlog.over()) {
      return;
    }
    String waiting = backlog.bytes() + " bytes of responses waiting (limit " + backlog.limit() + ")";
    if (backlog.closeRatherThanReset()) {
      closeForUnreadResponses(ctx, waiting);
      return;
    }
    log.debug("Resetting stream {} of {}: the client does not read, {}", streamId, ctx.channel(), waiting);
    endCall.accept(Status.RESOURCE_EXHAUSTED.withDescription(
        "The client did not read this call's response: " + waiting + " on its connection"));
    encoder().writeRstStream(ctx, streamId, Http2Error.ENHANCE_YOUR_CALM.code(), ctx.newPromise());
    ctx.flush();
  }

  /** This connection's part of the server's backlog; set when the handler is added. */
  ServerBacklog.Share serverBacklog() {
    return serverBacklog;
  }

  /** Response bytes the client has not taken yet, which every protocol's writes count in. */
  OutboundBacklog backlog() {
    return backlog;
  }

  /**
   * The client reads none of its responses ({@link OutboundBacklog}): every call ends with
   * RESOURCE_EXHAUSTED, GOAWAY ENHANCE_YOUR_CALM, and the connection closes at once.
   */
  private void closeForUnreadResponses(ChannelHandlerContext ctx, String waiting) {
    log.debug("Closing {}: the client does not read, {}", ctx.channel(), waiting);
    Status status = Status.RESOURCE_EXHAUSTED.withDescription("The client does not read its responses: " + waiting);
    try {
      endStreams(status);
    } catch (Http2Exception e) {
      log.debug("Ending the streams of {} failed", ctx.channel(), e);
    }
    // The GOAWAY waits behind what the client does not read; the connection closes without waiting for it.
    goAway(ctx, connection().remote().lastStreamCreated(), Http2Error.ENHANCE_YOUR_CALM.code(),
        ByteBufUtil.writeAscii(ctx.alloc(), "client does not read: " + waiting), ctx.newPromise());
    ctx.flush();
    ctx.close();
  }

  private ServerExchange exchangeOf(int streamId) {
    Http2Stream stream = connection().stream(streamId);
    return stream == null ? null : stream.getProperty(exchangeKey);
  }

  /** The protocol of a new stream, by its content type. */
  private ServerProtocol protocolOf(Http2Headers headers) {
    return GrpcHeaders.isGrpcContentType(headers.get(GrpcHeaders.CONTENT_TYPE)) ? grpc : web;
  }

  /** Frames from the client. */
  private final class FrameListener extends HeadersListener {

    @Override
    public void onHeadersRead(
        ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding, boolean endOfStream)
        throws Http2Exception {
      // One stream lookup for a call's trailers or a new stream.
      Http2Stream http2Stream = connection().stream(streamId);
      ServerExchange exchange = http2Stream == null ? null : http2Stream.getProperty(exchangeKey);
      if (exchange != null) {
        exchange.onTrailers(ctx, endOfStream);
        return;
      }
      checkRequestHeaders(streamId, headers);
      resets.opened(streamId);
      protocolOf(headers).open(ctx, http2Stream, headers, endOfStream);
    }

    @Override
    protected int onData(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream) {
      ServerExchange exchange = exchangeOf(streamId);
      // A stream answered at once has no exchange: what it still sends is dropped.
      return exchange == null ? data.readableBytes() + padding : exchange.onData(ctx, data, padding, endOfStream);
    }

    @Override
    public void onSettingsRead(ChannelHandlerContext ctx, Http2Settings settings) {
      if (!settingsRead) {
        settingsRead = true;
        HandshakeTimeout.done(ctx.channel());
      }
    }

    /**
     * Netty has answered it already; a client that pings more often than permitted gets GOAWAY
     * ENHANCE_YOUR_CALM "too_many_pings", which grpc-java's and Go's clients take as a sign to ping
     * less, and the connection closes.
     */
    @Override
    public void onPingRead(ChannelHandlerContext ctx, long data) {
      if (!shuttingDown && !pings.pingAcceptable(connection().numActiveStreams() > 0)) {
        log.debug("Closing {}: the client pings too often", ctx.channel());
        writeNow(new ForcefulCloseCommand(Status.RESOURCE_EXHAUSTED.withDescription(
            "The client sent too many PINGs"), Http2Error.ENHANCE_YOUR_CALM.code(), TOO_MANY_PINGS));
      }
    }

    @Override
    protected void onOtherPingAck(ChannelHandlerContext ctx, long data) {
      if (data == GOAWAY_PING_DATA) {
        secondGoAway();
      }
    }

    /** The client opened its connection window: it reads. */
    @Override
    public void onWindowUpdateRead(ChannelHandlerContext ctx, int streamId, int windowSizeIncrement) {
      if (streamId == 0) {
        backlog.peerRead();
      }
    }

    @Override
    public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) throws Http2Exception {
      ServerExchange exchange = exchangeOf(streamId);
      if (exchange == null) {
        return;
      }
      exchange.onReset(errorCode);
      if (!shuttingDown && resets.reset(streamId)) {
        log.debug("Closing {}: {} of its {} streams were reset within a second", ctx.channel(), resets.premature(),
            resets.streams());
        writeNow(new ForcefulCloseCommand(Status.RESOURCE_EXHAUSTED.withDescription(
            "The client reset too many streams as soon as it opened them"), Http2Error.ENHANCE_YOUR_CALM.code(),
            TOO_MANY_RESETS));
      }
    }
  }
}
