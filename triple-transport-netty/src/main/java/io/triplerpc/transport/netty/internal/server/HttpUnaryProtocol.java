package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.CompositeByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2Stream;
import io.netty.util.AsciiString;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.InboundRequest;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.transport.netty.internal.GrpcHttp2Headers;

/**
 * HTTP unary calls (curl's JSON or protobuf POST, {@code docs/protocol.md}) on a server connection's
 * HTTP/2 streams, and on the stream an h2c upgrade request becomes: the body is read whole, bounded
 * by the max message size, then served by an {@link HttpUnaryServerStream}, which answers with one
 * header block and one DATA frame. Event loop only.
 */
final class HttpUnaryProtocol implements ServerProtocol {

  private static final AsciiString ALLOW = AsciiString.cached("allow");

  private final NettyServerHandler connection;
  private final ServerTransportListener listener;
  private final int maxInboundMessageSize;

  HttpUnaryProtocol(NettyServerHandler connection, ServerTransportListener listener, int maxInboundMessageSize) {
    this.connection = connection;
    this.listener = listener;
    this.maxInboundMessageSize = maxInboundMessageSize;
  }

  @Override
  public void open(ChannelHandlerContext ctx, Http2Stream stream, Http2Headers headers, boolean endOfStream) {
    InboundRequest request;
    try {
      request = HttpUnaryRequests.parse(headers);
    } catch (HttpUnaryRequests.Rejection rejection) {
      writer(ctx, stream.id()).writeError(ctx.alloc(), rejection.httpStatus, rejection.status, rejection.allow);
      return;
    }
    Exchange exchange = new Exchange(ctx, stream.id(), request);
    connection.attach(stream, exchange);
    if (endOfStream) {
      exchange.start(Unpooled.EMPTY_BUFFER);
    } else {
      exchange.collectBody();
    }
  }

  /** The HTTP/1.1 request that upgraded the connection (h2c), whole: it is served on {@code stream}. */
  void openUpgraded(ChannelHandlerContext ctx, Http2Stream stream, Http2Headers headers, FullHttpRequest request) {
    InboundRequest inbound;
    try {
      inbound = HttpUnaryRequests.parse(headers);
    } catch (HttpUnaryRequests.Rejection rejection) {
      writer(ctx, stream.id()).writeError(ctx.alloc(), rejection.httpStatus, rejection.status, rejection.allow);
      return;
    }
    Exchange exchange = new Exchange(ctx, stream.id(), inbound);
    connection.attach(stream, exchange);
    exchange.start(request.content().retain());
  }

  /** Writes an HTTP unary response on {@code streamId}: one header block and one DATA frame that ends it. */
  private HttpResponseWriter writer(ChannelHandlerContext ctx, int streamId) {
    return (status, contentType, metadata, allow, body) -> {
      Http2Headers headers = new DefaultHttp2Headers(false).status(AsciiString.of(Integer.toString(status)));
      headers.add(GrpcHeaders.CONTENT_TYPE, contentType);
      if (allow != null) {
        headers.add(ALLOW, allow);
      }
      GrpcHttp2Headers.addMetadata(headers, metadata);
      ChannelPromise written = ctx.newPromise();
        connection.encoder().writeHeaders(ctx, streamId, headers, 0, false, ctx.newPromise());
      connection.encoder().writeData(ctx, streamId, body, 0, true, written);
      connection.stopClientSending(ctx, streamId);
      // The connection handler's flush: DATA waits in the flow controller until it runs.
      connection.flush(ctx);
      return written;
    };
  }

  /** One HTTP unary request: its body while it arrives, then the call serving it. */
  private final class Exchange implements ServerExchange {

    private final ChannelHandlerContext ctx;
    private final int streamId;
    private final InboundRequest request;
    /** The body so far, while it arrives; null before, and once the call started or the body was dropped. */
    private CompositeByteBuf body;
    /** The call, once the whole body is in. */
    private HttpUnaryServerStream stream;

    Exchange(ChannelHandlerContext ctx, int streamId, InboundRequest request) {
      this.ctx = ctx;
      this.streamId = streamId;
      this.request = request;
    }

    void collectBody() {
      body = ctx.alloc().compositeBuffer(Integer.MAX_VALUE);
    }

    @Override
    public int onData(ChannelHandlerContext ctx, ByteBuf data, int padding, boolean endOfStream) {
      if (body == null) {
        return data.readableBytes() + padding;
      }
      if ((long) body.readableBytes() + data.readableBytes() > maxInboundMessageSize) {
        drop();
        writer(ctx, streamId).writeError(ctx.alloc(), 413, Status.RESOURCE_EXHAUSTED.withDescription(
            "Request body larger than the server's maximum message size of " + maxInboundMessageSize + " bytes"),
            null);
        return data.readableBytes() + padding;
      }
      body.addComponent(true, data.retain());
      if (endOfStream) {
        start(takeBody());
      }
      return data.readableBytes() + padding;
    }

    /** Trailers of an HTTP unary request: nothing in them matters but the end of the body. */
    @Override
    public void onTrailers(ChannelHandlerContext ctx, boolean endOfStream) {
      if (endOfStream && body != null) {
        start(takeBody());
      }
    }

    @Override
    public void onReset(long errorCode) {
      // The stream closes next (onClosed).
    }

    @Override
    public void abort(Status status) {
      // The stream closes next (onClosed).
    }

    @Override
    public void onClosed() {
      drop();
      if (stream != null) {
        stream.lost(Status.CANCELLED.withDescription("HTTP/2 stream closed before the response"));
      }
    }

    void start(ByteBuf whole) {
      drop();
      stream = new HttpUnaryServerStream(ctx.channel(), connection.peer(ctx), writer(ctx, streamId),
          request.codec());
      stream.start(listener.streamCreated(stream, request), whole);
    }

    private ByteBuf takeBody() {
      ByteBuf whole = body;
      body = null;
      return whole;
    }

    private void drop() {
      if (body != null) {
        body.release();
        body = null;
      }
    }
  }
}
