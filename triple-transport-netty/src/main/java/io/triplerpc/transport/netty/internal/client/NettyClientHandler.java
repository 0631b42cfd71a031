package io.triplerpc.transport.netty.internal.client;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http2.Http2Connection;
import io.netty.handler.codec.http2.Http2ConnectionAdapter;
import io.netty.handler.codec.http2.Http2ConnectionDecoder;
import io.netty.handler.codec.http2.Http2ConnectionEncoder;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Settings;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.collection.IntObjectHashMap;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ClientTransportOptions;
import io.triplerpc.transport.netty.internal.GrpcHttp2ConnectionHandler;
import io.triplerpc.transport.netty.internal.GrpcHttp2HandlerBuilder;
import io.triplerpc.transport.netty.internal.OutboundBacklog;
import io.triplerpc.transport.netty.internal.write.CancelStreamCommand;
import io.triplerpc.transport.netty.internal.write.CreateStreamCommand;
import io.triplerpc.transport.netty.internal.write.ForcefulCloseCommand;
import io.triplerpc.transport.netty.internal.write.SendDataCommand;
import io.triplerpc.transport.netty.internal.write.SendPingCommand;
import io.triplerpc.transport.netty.internal.write.SendSettingsCommand;
import io.triplerpc.transport.netty.internal.write.WriteQueue;
import java.nio.charset.StandardCharsets;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP/2 handler of one client connection. Commands from the {@code WriteQueue} arrive through
 * {@link #write}; frames from the server arrive through the frame listener. Event loop only.
 */
final class NettyClientHandler extends GrpcHttp2ConnectionHandler {

  private static final Logger log = LoggerFactory.getLogger(NettyClientHandler.class);

  /** The GOAWAY debug data of a server that finds the client's keepalive pings too frequent. */
  static final String TOO_MANY_PINGS = "too_many_pings";

  private final ClientConnection owner;
  private final ClientTransportOptions options;
  private final KeepAliveTime keepAliveTime;
  /** The keepalive time this connection pings at, for the doubling after too_many_pings. */
  private long keepAliveNanos;
  private final Http2Connection.PropertyKey streamKey;
  /** Request bytes the server has not taken yet. */
  private final OutboundBacklog backlog;
  private ChannelHandlerContext context;
  private boolean goAwayReceived;
  /** Why the server sent GOAWAY with an error, for the calls its connection ends; null otherwise. */
  private Status goAwayError;
  /**
   * Calls with a deadline whose streams wait for a MAX_CONCURRENT_STREAMS slot, by stream id: when one
   * opens, its headers announce the time left then. Event loop only; empty unless the server's limit binds.
   */
  private final IntObjectHashMap<NettyClientStream> waitingWithDeadline = new IntObjectHashMap<>();

  private NettyClientHandler(
      Http2ConnectionDecoder decoder,
      Http2ConnectionEncoder encoder,
      Http2Settings settings,
      ClientConnection owner,
      ClientTransportOptions options,
      KeepAliveTime keepAliveTime) {
    super(decoder, encoder, settings, options.limits());
    this.owner = owner;
    this.options = options;
    this.keepAliveTime = keepAliveTime;
    this.backlog = new OutboundBacklog(options.limits().maxPendingOutboundBytes());
    this.streamKey = connection().newKey();
    decoder.frameListener(new FrameListener());
    connection().addListener(new Http2ConnectionAdapter() {
      /** Fired as a buffered stream is created, before its HEADERS are encoded. */
      @Override
      public void onStreamAdded(Http2Stream stream) {
        if (!waitingWithDeadline.isEmpty()) {
          NettyClientStream waited = waitingWithDeadline.remove(stream.id());
          if (waited != null) {
            waited.announceRemainingTime();
          }
        }
      }

      @Override
      public void onStreamClosed(Http2Stream stream) {
        NettyClientStream s = stream.getProperty(streamKey);
        if (s != null) {
          s.settleBacklog();
          s.state().http2StreamClosed(goAwayError);
        }
        if (goAwayReceived && connection().numActiveStreams() == 0 && context != null) {
          // The server asked us to go; the last stream it let finish has finished.
          context.close();
        }
      }
    });
    // Closing the client cancels what is in flight; a GOAWAY from the server is waited out above.
    gracefulShutdownTimeoutMillis(0);
  }

  static NettyClientHandler create(ClientConnection owner, ClientTransportOptions options, KeepAliveTime keepAliveTime) {
    Http2Settings settings = new Http2Settings()
        .pushEnabled(false)
        .maxConcurrentStreams(0)
        .initialWindowSize(options.limits().initialWindowSize())
        .maxHeaderListSize(options.limits().maxHeaderListSize());
    return GrpcHttp2HandlerBuilder.client(settings, options.limits(), (decoder, encoder, initialSettings) ->
        new NettyClientHandler(decoder, encoder, initialSettings, owner, options, keepAliveTime));
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
    context = ctx;
    super.handlerAdded(ctx);
    if (ctx.channel().isActive()) {
      // Added once TLS was up: Netty sent the preface as it was added.
      connectionStarted(ctx);
    }
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    super.channelActive(ctx);
    connectionStarted(ctx);
  }

  /** The preface went out: calls may flow, keepalive starts. */
  private void connectionStarted(ChannelHandlerContext ctx) {
    owner.markActive();
    keepAliveNanos = keepAliveTime.nanos();
    startKeepAlive(ctx, keepAliveNanos, options.keepAlive().timeoutNanos(), options.keepAlive().withoutCalls());
  }

  @Override
  public WriteQueue writeQueue() {
    return owner.writeQueue();
  }

  /** The server stopped answering: the calls fail with {@code status}, and the next call opens a new connection. */
  @Override
  protected void keepAliveFailed(ChannelHandlerContext ctx, Status status) {
    log.debug("Closing {}: {}", ctx.channel(), status.description());
    owner.markGone(status.asException());
    closeStreams(status);
    ctx.close();
  }

  /** Ends every stream in flight with {@code status}. */
  private void closeStreams(Status status) {
    try {
      connection().forEachActiveStream(http2Stream -> {
        NettyClientStream stream = http2Stream.getProperty(streamKey);
        if (stream != null) {
          stream.state().close(status, new Metadata());
        }
        http2Stream.close();
        return true;
      });
    } catch (Http2Exception e) {
      log.debug("Ending the streams of {} failed", context.channel(), e);
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    owner.markClosed(Status.UNAVAILABLE.withDescription("Connection to " + owner.address() + " closed").asException());
    super.channelInactive(ctx);
  }

  @Override
  protected void onConnectionError(
      ChannelHandlerContext ctx, boolean outbound, Throwable cause, Http2Exception http2Ex) {
    log.debug("Connection error on {}", ctx.channel(), cause);
    owner.markGone(cause);
    super.onConnectionError(ctx, outbound, cause, http2Ex);
  }

  /** Why the server sent GOAWAY with an error, or null if it did not. Event loop. */
  Status goAwayError() {
    return goAwayError;
  }

  /** Every command this connection accepts; anything else is refused (its promise fails). */
  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
    if (msg instanceof SendDataCommand) {
      sendData(ctx, (SendDataCommand) msg, promise);
    } else if (msg instanceof CreateStreamCommand) {
      createStream(ctx, (CreateStreamCommand) msg, promise);
    } else if (msg instanceof CancelStreamCommand) {
      cancelStream(ctx, (CancelStreamCommand) msg, promise);
    } else if (msg instanceof SendPingCommand) {
      encoder().writePing(ctx, false, ((SendPingCommand) msg).data(), promise);
    } else if (msg instanceof SendSettingsCommand) {
      encoder().writeSettings(ctx, ((SendSettingsCommand) msg).settings(), promise);
    } else if (msg instanceof ForcefulCloseCommand) {
      forcefulClose(ctx, (ForcefulCloseCommand) msg, promise);
    } else {
      // Anything else would reach the socket around the queue, out of order with the streams' frames.
      // Netty's own frames are written below this handler and never come here: SETTINGS and PING ACKs,
      // WINDOW_UPDATEs of its flow controller, and the RST_STREAM or GOAWAY its error handling sends for
      // a stream or connection error.
      ReferenceCountUtil.release(msg);
      throw new UnsupportedOperationException("Not a command of this connection: " + msg.getClass().getName());
    }
  }

  /**
   * Ends every stream in flight with the command's status (RST_STREAM CANCEL), sends GOAWAY naming
   * the last stream the server opened (0: servers open none) and closes once that is written.
   */
  private void forcefulClose(ChannelHandlerContext ctx, ForcefulCloseCommand command, ChannelPromise promise)
      throws Http2Exception {
    owner.markGone(command.status().asException());
    connection().forEachActiveStream(http2Stream -> {
      NettyClientStream stream = http2Stream.getProperty(streamKey);
      if (stream != null) {
        stream.state().close(command.status(), new Metadata());
        encoder().writeRstStream(ctx, http2Stream.id(), Http2Error.CANCEL.code(), ctx.newPromise());
      }
      http2Stream.close();
      return true;
    });
    ChannelFuture sent = connection().goAwaySent() ? ctx.write(Unpooled.EMPTY_BUFFER)
        : goAway(ctx, connection().remote().lastStreamCreated(), Http2Error.NO_ERROR.code(), Unpooled.EMPTY_BUFFER,
            ctx.newPromise());
    ctx.flush();
    // ctx.close(), not this handler's close(), which would send another GOAWAY and schedule the close.
    sent.addListener(written -> ctx.close(promise));
  }

  private void createStream(ChannelHandlerContext ctx, CreateStreamCommand command, ChannelPromise promise) {
    NettyClientStream stream = (NettyClientStream) command.stream();
    NettyClientStream.TransportState state = stream.state();
    if (state.isClosed()) {
      promise.setSuccess();
      return;
    }
    if (connection().goAwayReceived()) {
      stream.notSent(goAwayError != null ? goAwayError
          : Status.UNAVAILABLE.withDescription("Connection is shutting down (GOAWAY received)"));
      promise.setSuccess();
      return;
    }
    int id = connection().local().incrementAndGetNextStreamId();
    if (id < 0) {
      stream.notSent(Status.UNAVAILABLE.withDescription("Stream ids of this connection are used up"));
      promise.setSuccess();
      owner.markGone(new IllegalStateException("stream ids exhausted"));
      ctx.close();
      return;
    }
    state.created(id, decoder().flowController(), ctx.channel(), this);
    boolean mayWait = stream.hasDeadline() && !connection().local().canOpenStream();
    if (mayWait) {
      waitingWithDeadline.put(id, stream);
    }
    encoder().writeHeaders(ctx, id, command.headers(), 0, false, promise);
    Http2Stream http2Stream = connection().stream(id);
    if (http2Stream != null) {
      attach(http2Stream, stream);
    } else {
      // Buffered until a MAX_CONCURRENT_STREAMS slot frees; the headers go out when it is created.
      promise.addListener(future -> {
        if (mayWait) {
          waitingWithDeadline.remove(id);
        }
        Http2Stream created = connection().stream(id);
        if (future.isSuccess() && created != null) {
          attach(created, stream);
        }
      });
    }
  }

  private void attach(Http2Stream http2Stream, NettyClientStream stream) {
    http2Stream.setProperty(streamKey, stream);
    stream.state().attach(http2Stream);
  }

  private void sendData(ChannelHandlerContext ctx, SendDataCommand command, ChannelPromise promise) {
    NettyClientStream stream = (NettyClientStream) command.stream();
    int id = stream.id();
    if (id < 0) {
      command.release();
      promise.setFailure(new IllegalStateException("DATA for a stream that was never created"));
      return;
    }
    stream.dataQueued(command.content().readableBytes());
    encoder().writeData(ctx, id, command.content(), 0, command.endOfStream(), promise);
    checkBacklog(ctx, stream);
  }

  /** The socket drained: the server reads. */
  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
    if (ctx.channel().isWritable()) {
      backlog.peerRead();
    }
    super.channelWritabilityChanged(ctx);
  }

  /** Request bytes the server has not taken yet. Event loop. */
  OutboundBacklog backlog() {
    return backlog;
  }

  /**
   * Past the backlog's limit, the call just written fails and its stream is reset, its requests
   * dropped; if a call was failed for it before and the server has read nothing since, the server does
   * not read at all and the connection closes.
   */
  private void checkBacklog(ChannelHandlerContext ctx, NettyClientStream stream) {
    if (!backlog.over()) {
      return;
    }
    String waiting = backlog.bytes() + " bytes of requests waiting (limit " + backlog.limit() + ")";
    if (backlog.closeRatherThanReset()) {
      log.debug("Closing {}: the server does not read, {}", ctx.channel(), waiting);
      Status status = Status.UNAVAILABLE.withDescription("The server does not read its requests: " + waiting);
      owner.markGone(status.asException());
      closeStreams(status);
      goAway(ctx, connection().remote().lastStreamCreated(), Http2Error.ENHANCE_YOUR_CALM.code(),
          ByteBufUtil.writeAscii(ctx.alloc(), "server does not read: " + waiting), ctx.newPromise());
      ctx.flush();
      ctx.close();
      return;
    }
    log.debug("Failing the call on stream {} of {}: the server does not read, {}", stream.id(), ctx.channel(), waiting);
    stream.state().close(Status.RESOURCE_EXHAUSTED.withDescription(
        "The server did not read this call's requests: " + waiting + " on its connection"), new Metadata());
    encoder().writeRstStream(ctx, stream.id(), Http2Error.CANCEL.code(), ctx.newPromise());
    ctx.flush();
  }

  private void cancelStream(ChannelHandlerContext ctx, CancelStreamCommand command, ChannelPromise promise) {
    NettyClientStream stream = (NettyClientStream) command.stream();
    stream.state().close(command.status(), new Metadata());
    int id = stream.id();
    if (id < 0) {
      promise.setSuccess();
      return;
    }
    Http2Stream http2Stream = connection().stream(id);
    // No Http2Stream yet, with an id above the last created one: the encoder still buffers it.
    boolean buffered = http2Stream == null && id > connection().local().lastStreamCreated();
    if (buffered || (http2Stream != null && http2Stream.state() != Http2Stream.State.CLOSED)) {
      encoder().writeRstStream(ctx, id, Http2Error.CANCEL.code(), promise);
    } else {
      promise.setSuccess();
    }
  }

  private NettyClientStream streamOf(int streamId) {
    Http2Stream stream = connection().stream(streamId);
    return stream == null ? null : stream.getProperty(streamKey);
  }

  /** Frames from the server. */
  private final class FrameListener extends HeadersListener {

    @Override
    public void onHeadersRead(
        ChannelHandlerContext ctx, int streamId, Http2Headers headers, int padding, boolean endOfStream) {
      NettyClientStream stream = streamOf(streamId);
      if (stream != null) {
        stream.state().headersRead(headers, endOfStream);
      }
    }

    @Override
    protected int onData(ChannelHandlerContext ctx, int streamId, ByteBuf data, int padding, boolean endOfStream) {
      NettyClientStream stream = streamOf(streamId);
      if (stream == null) {
        return data.readableBytes() + padding;
      }
      stream.state().dataRead(data.retain(), endOfStream);
      // Message bytes are returned to flow control as the application reads them.
      return padding;
    }

    /** The server opened its connection window: it reads. */
    @Override
    public void onWindowUpdateRead(ChannelHandlerContext ctx, int streamId, int windowSizeIncrement) {
      if (streamId == 0) {
        backlog.peerRead();
      }
    }

    @Override
    public void onRstStreamRead(ChannelHandlerContext ctx, int streamId, long errorCode) {
      NettyClientStream stream = streamOf(streamId);
      if (stream != null) {
        stream.state().resetRead(errorCode, goAwayError);
      }
    }

    /**
     * The status of calls a GOAWAY with {@code errorCode} ends, as gRPC maps HTTP/2 errors
     * (INADEQUATE_SECURITY is PERMISSION_DENIED, ENHANCE_YOUR_CALM RESOURCE_EXHAUSTED, the rest
     * UNAVAILABLE), with the server's debug data as the reason.
     */
    private Status goAwayStatus(long errorCode, ByteBuf debugData) {
      Http2Error error = Http2Error.valueOf(errorCode);
      Status status = error == Http2Error.INADEQUATE_SECURITY ? Status.PERMISSION_DENIED
          : error == Http2Error.ENHANCE_YOUR_CALM ? Status.RESOURCE_EXHAUSTED
          : Status.UNAVAILABLE;
      String reason = debugData.isReadable() ? ": " + debugData.toString(StandardCharsets.UTF_8) : "";
      return status.withDescription("Server sent GOAWAY " + (error != null ? error.name() : "error " + errorCode) + reason);
    }

    @Override
    public void onGoAwayRead(ChannelHandlerContext ctx, int lastStreamId, long errorCode, ByteBuf debugData) {
      log.debug("GOAWAY from {}: last stream {}, error {}, {}", owner.address(), lastStreamId, errorCode,
          debugData.toString(StandardCharsets.UTF_8));
      if (errorCode != Http2Error.NO_ERROR.code()) {
        goAwayError = goAwayStatus(errorCode, debugData);
      }
      if (errorCode == Http2Error.ENHANCE_YOUR_CALM.code()
          && TOO_MANY_PINGS.equals(debugData.toString(StandardCharsets.US_ASCII))) {
        keepAliveTime.tooManyPings(keepAliveNanos);
      }
      owner.markGone((goAwayError != null ? goAwayError : Status.UNAVAILABLE.withDescription("Server sent GOAWAY"))
          .asException());
      // Streams up to lastStreamId finish; the last one to close closes the connection.
      goAwayReceived = true;
      if (connection().numActiveStreams() == 0) {
        ctx.close();
      }
    }
  }
}
