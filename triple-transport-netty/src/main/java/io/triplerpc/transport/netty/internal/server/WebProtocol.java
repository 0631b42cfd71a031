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

/**
 * The web protocols (Connect unary and streaming, gRPC-Web, and so curl) on a server connection's
 * HTTP/2 streams: each stream becomes an {@link Http2Exchange} whose call {@link WebCalls} opens.
 * Event loop only.
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

  /** One web call's HTTP/2 stream. */
  private final class Http2Exchange implements HttpExchange, ServerExchange {

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

    @Override
    public PeerInfo peer() {
      return connection.peer(ctx);
    }

    @Override
    public ByteBufAllocator alloc() {
      return ctx.alloc();
    }

    @Override
    public void writeHead(Http2Headers head, boolean endOfResponse) {
      connection.encoder().writeHeaders(ctx, streamId, head, 0, endOfResponse, ctx.newPromise());
      if (endOfResponse) {
        connection.stopClientSending(ctx, streamId);
      }
    }

    @Override
    public ChannelFuture writeBody(ByteBuf data, boolean endOfResponse) {
      int size = data.readableBytes();
      ChannelPromise written = ctx.newPromise();
      if (!backlogSettled) {
        backlogBytes += size;
        connection.backlog().queued(size);
        written.addListener(future -> {
          if (future.isSuccess() && !backlogSettled) {
            backlogBytes -= size;
            connection.backlog().sent(size);
          }
        });
      }
      connection.encoder().writeData(ctx, streamId, data, 0, endOfResponse, written);
      if (endOfResponse) {
        connection.stopClientSending(ctx, streamId);
      }
      // A client that does not read gets this stream reset, then loses its connection, as gRPC's do.
      connection.enforceBacklog(ctx, streamId, status -> {
        if (call != null) {
          call.lost(status);
        }
      });
      return written;
    }

    @Override
    public void flush() {
      // The connection handler's flush: DATA waits in the flow controller until it runs.
      connection.flush(ctx);
    }

    @Override
    public void consumed(int bytes) {
      window.consumed(bytes);
      window.flushUpdate();
    }

    @Override
    public void abandon() {
      connection.encoder().writeRstStream(ctx, streamId, Http2Error.CANCEL.code(), ctx.newPromise());
      connection.flush(ctx);
    }

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
