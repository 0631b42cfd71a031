package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http2.Http2Error;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Stream;
import io.triplerpc.CorsPolicy;
import io.triplerpc.PeerInfo;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.transport.netty.internal.InboundWindow;
import io.triplerpc.transport.netty.internal.write.ResetStreamCommand;
import io.triplerpc.transport.netty.internal.write.SendBodyCommand;
import io.triplerpc.transport.netty.internal.write.SendHeadCommand;
import io.triplerpc.transport.netty.internal.write.StreamHandle;

/**
 * The web protocols (Connect unary and streaming, gRPC-Web, and so curl) on a server connection's
 * HTTP/2 streams: each stream becomes an {@link Http2Exchange} whose call {@link WebCalls} opens. The
 * exchange's writes are commands on the connection's write queue ({@link SendHeadCommand},
 * {@link SendBodyCommand}, {@link ResetStreamCommand}), which the connection runs here. Event loop only.
 */
final class WebProtocol implements ServerProtocol {

  private final NettyServerHandler connection;
  private final ServerTransportListener listener;
  private final int maxInboundMessageSize;
  private final CorsPolicy cors;

  WebProtocol(NettyServerHandler connection, ServerTransportListener listener, int maxInboundMessageSize,
      CorsPolicy cors) {
    this.connection = connection;
    this.listener = listener;
    this.maxInboundMessageSize = maxInboundMessageSize;
    this.cors = cors;
  }

  @Override
  public void open(ChannelHandlerContext ctx, Http2Stream stream, Http2Headers headers, boolean endOfStream) {
    Http2Exchange exchange = new Http2Exchange(ctx, stream);
    connection.attach(stream, exchange);
    exchange.call = WebCalls.open(exchange, headers, listener, maxInboundMessageSize, cors);
    if (exchange.call != null && endOfStream) {
      exchange.call.dataRead(Unpooled.EMPTY_BUFFER, true);
    }
  }

  /** The HTTP/1.1 request that upgraded the connection (h2c), whole: it is served on {@code stream}. */
  void openUpgraded(ChannelHandlerContext ctx, Http2Stream stream, Http2Headers headers, ByteBuf body) {
    Http2Exchange exchange = new Http2Exchange(ctx, stream);
    connection.attach(stream, exchange);
    exchange.call = WebCalls.open(exchange, headers, listener, maxInboundMessageSize, cors);
    if (exchange.call != null) {
      exchange.call.dataRead(body, true);
    } else {
      body.release();
    }
  }

  /** Writes a response head: HEADERS, and at the end of the response, the client is told to stop sending. */
  void sendHead(ChannelHandlerContext ctx, SendHeadCommand command, ChannelPromise promise) {
    int streamId = command.stream().id();
    connection.encoder().writeHeaders(ctx, streamId, command.head(), 0, command.endOfStream(), promise);
    if (command.endOfStream()) {
      connection.stopClientSending(ctx, streamId);
    }
  }

  /**
   * Writes part of a response body, counted in the connection's backlog until it is sent; a client that
   * does not read gets this stream reset, then loses its connection, as gRPC's do.
   */
  void sendBody(ChannelHandlerContext ctx, SendBodyCommand command, ChannelPromise promise) {
    Http2Exchange exchange = (Http2Exchange) command.stream();
    int size = command.content().readableBytes();
    if (!exchange.backlogSettled) {
      exchange.backlogBytes += size;
      connection.backlog().queued(size);
      promise.addListener(future -> {
        if (future.isSuccess() && !exchange.backlogSettled) {
          exchange.backlogBytes -= size;
          connection.backlog().sent(size);
        }
      });
    }
    connection.encoder().writeData(ctx, exchange.streamId, command.content(), 0, command.endOfStream(), promise);
    if (command.endOfStream()) {
      connection.stopClientSending(ctx, exchange.streamId);
    }
    connection.enforceBacklog(ctx, exchange.streamId, status -> {
      if (exchange.call != null) {
        exchange.call.lost(status);
      }
    });
  }

  /** Resets an exchange whose response cannot be finished. */
  void resetStream(ChannelHandlerContext ctx, ResetStreamCommand command, ChannelPromise promise) {
    connection.encoder().writeRstStream(ctx, command.stream().id(), command.errorCode(), promise);
  }

  /** One web call's HTTP/2 stream. */
  private final class Http2Exchange implements HttpExchange, ServerExchange, StreamHandle {

    private final ChannelHandlerContext ctx;
    private final int streamId;
    private final InboundWindow window;
    /** The call, once open; null for a request answered at once. */
    private WebServerStream call;
    /** This stream's part of the connection's backlog: response bytes written and not yet sent. */
    private long backlogBytes;
    private boolean backlogSettled;

    Http2Exchange(ChannelHandlerContext ctx, Http2Stream stream) {
      this.ctx = ctx;
      this.streamId = stream.id();
      this.window = new InboundWindow(connection.decoder().flowController(), ctx.channel());
      window.attach(stream);
    }

    @Override
    public EventLoop eventLoop() {
      return ctx.channel().eventLoop();
    }

    /** The web protocol of the call, or {@code http} for a request answered without one (an endpoint). */
    @Override
    public String protocol() {
      WebServerStream open = call;
      return open == null ? "http" : open.protocol();
    }

    @Override
    public PeerInfo peer() {
      return connection.peer(ctx);
    }

    @Override
    public ByteBufAllocator alloc() {
      return ctx.alloc();
    }

    // HttpExchange: the call's writes, as commands on the connection's queue; run by sendHead and the rest.

    @Override
    public void writeHead(Http2Headers head, boolean endOfResponse) {
      connection.writeQueue().enqueue(new SendHeadCommand(this, head, endOfResponse), false);
    }

    @Override
    public ChannelFuture writeBody(ByteBuf data, boolean endOfResponse) {
      ChannelPromise written = ctx.newPromise();
      connection.writeQueue().enqueue(new SendBodyCommand(this, data, endOfResponse, written), false);
      return written;
    }

    /**
     * The exchange writes on the event loop only: the queue writes what waits at once, so that an
     * answer made while a read is handled goes out before the read's next frame is (a frame that the
     * answer's end makes a stream error); its flush lets DATA out of the flow controller.
     */
    @Override
    public void flush() {
      connection.writeQueue().drainNow();
    }

    @Override
    public void consumed(int bytes) {
      window.consumed(bytes);
      window.flushUpdate();
    }

    @Override
    public void abandon() {
      connection.writeQueue().enqueue(new ResetStreamCommand(this, Http2Error.CANCEL.code()), false);
      connection.writeQueue().drainNow();
    }

    @Override
    public boolean holdsBack() {
      return connection.holdsBack();
    }

    // StreamHandle: what the commands need of the exchange. Their outcome reaches the call through
    // the body's promises, so the rest is a no-op.

    @Override
    public int id() {
      return streamId;
    }

    @Override
    public void onDataSent(int bytes) {}

    @Override
    public void writeFailed(Throwable cause) {}

    // ServerExchange: the stream's frames.

    @Override
    public int onData(ChannelHandlerContext ctx, ByteBuf data, int padding, boolean endOfStream) {
      if (call == null) {
        return data.readableBytes() + padding;
      }
      call.dataRead(data.retain(), endOfStream);
      // The call acknowledges the bytes as it uses them; the padding is never used.
      return padding;
    }

    @Override
    public void onTrailers(ChannelHandlerContext ctx, boolean endOfStream) {
      if (call != null && endOfStream) {
        call.dataRead(Unpooled.EMPTY_BUFFER, true);
      }
    }

    @Override
    public void onReset(long errorCode) {
      if (call != null) {
        Http2Error error = Http2Error.valueOf(errorCode);
        call.lost(Status.CANCELLED.withDescription(
            "Client reset the stream: RST_STREAM " + (error != null ? error : "code " + errorCode)));
      }
    }

    @Override
    public void abort(Status status) {
      if (call != null) {
        call.lost(status);
      }
    }

    @Override
    public void onDecongested() {
      if (call != null) {
        call.decongested();
      }
    }

    @Override
    public void onClosed() {
      if (!backlogSettled) {
        backlogSettled = true;
        connection.backlog().dropped(backlogBytes);
        backlogBytes = 0;
      }
      if (call != null) {
        call.lost(Status.CANCELLED.withDescription("HTTP/2 stream closed before the response"));
      }
    }
  }
}
