package io.triplerpc.transport.http3.internal;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http3.DefaultHttp3DataFrame;
import io.netty.handler.codec.http3.DefaultHttp3Headers;
import io.netty.handler.codec.http3.DefaultHttp3HeadersFrame;
import io.netty.handler.codec.http3.Http3DataFrame;
import io.netty.handler.codec.http3.Http3ErrorCode;
import io.netty.handler.codec.http3.Http3Headers;
import io.netty.handler.codec.http3.Http3HeadersFrame;
import io.netty.handler.codec.http3.Http3RequestStreamInboundHandler;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.handler.codec.quic.QuicStreamResetException;
import io.triplerpc.PeerInfo;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.internal.stream.ServerTransportOptions;
import io.triplerpc.transport.netty.internal.server.HttpExchange;
import io.triplerpc.transport.netty.internal.server.WebCalls;
import io.triplerpc.transport.netty.internal.server.WebServerStream;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One HTTP/3 request stream, served as an {@link HttpExchange}: its first HEADERS open the call through
 * {@link WebCalls} (gRPC, since an HTTP/3 exchange carries trailers, and Connect, gRPC-Web, REST as on
 * HTTP/1.1 and HTTP/2), DATA frames go to the call's stream, the stream's FIN ends the request. The
 * response goes out as HEADERS, DATA and trailing HEADERS frames, then FIN. Headers are turned into
 * HTTP/2's form and back, the form the framings share.
 *
 * <p>Inbound flow control: the stream stops reading once more than a window of the request waits unused
 * (QUIC's stream window then closes at the client), and reads again when the call has used it. Event
 * loop only.
 */
final class Http3Exchange extends Http3RequestStreamInboundHandler implements HttpExchange {

  private static final Logger log = LoggerFactory.getLogger(Http3Exchange.class);

  private final Http3ServerConnection connection;
  private final ServerTransportListener listener;
  private final ServerTransportOptions options;
  /** Unused request bytes above which the stream stops reading; half of it read on again. */
  private final int window;
  private ChannelHandlerContext ctx;
  /** The call, once open; null before, and for a request answered at once. */
  private WebServerStream call;
  private boolean served;
  private boolean headersRead;
  /** Request bytes read and not yet used by the call. */
  private long unused;

  Http3Exchange(Http3ServerConnection connection, ServerTransportListener listener, ServerTransportOptions options) {
    this.connection = connection;
    this.listener = listener;
    this.options = options;
    this.window = options.limits().initialWindowSize();
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
    served = connection.streamOpened(stream().streamId(), this);
    if (!served) {
      // After the second GOAWAY: the client may send it elsewhere.
      stream().shutdown(Http3ErrorCode.H3_REQUEST_REJECTED.code());
    }
  }

  private QuicStreamChannel stream() {
    return (QuicStreamChannel) ctx.channel();
  }

  // Inbound.

  @Override
  protected void channelRead(ChannelHandlerContext ctx, Http3HeadersFrame frame) {
    if (!served || headersRead) {
      // Request trailers: the call has no use for them; the request ends with the stream's FIN.
      return;
    }
    headersRead = true;
    Http2Headers headers = toHttp2(frame.headers());
    call = WebCalls.open(this, headers, listener, options.limits().maxInboundMessageSize(), options.cors());
  }

  @Override
  protected void channelRead(ChannelHandlerContext ctx, Http3DataFrame frame) {
    ByteBuf data = frame.content();
    if (call == null) {
      data.release();
      return;
    }
    unused += data.readableBytes();
    if (unused > window && ctx.channel().config().isAutoRead()) {
      ctx.channel().config().setAutoRead(false);
    }
    call.dataRead(data, false);
  }

  @Override
  protected void channelInputClosed(ChannelHandlerContext ctx) {
    if (call != null) {
      call.dataRead(Unpooled.EMPTY_BUFFER, true);
    } else if (served && !headersRead) {
      // A request without HEADERS: nothing to answer, and the stream would stay open until the connection ends.
      stream().shutdown(Http3ErrorCode.H3_REQUEST_INCOMPLETE.code());
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    if (call != null) {
      call.lost(Status.CANCELLED.withDescription("HTTP/3 stream closed before the response ended"));
    }
    if (served) {
      served = false;
      connection.streamClosed(this);
    }
    super.channelInactive(ctx);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    // A reset from the client, a malformed frame (Netty's validation answers it), or the connection gone.
    log.debug("HTTP/3 request stream {} failed: {}", stream().streamId(), cause.toString());
    if (cause instanceof QuicStreamResetException && call != null && served) {
      connection.resetByClient(stream().streamId());
    }
    if (call != null) {
      call.lost(Status.CANCELLED.withDescription("HTTP/3 stream failed: " + cause).withCause(cause));
    }
    ctx.close();
  }

  // HttpExchange: the call's writes, on the event loop.

  @Override
  public EventLoop eventLoop() {
    return ctx.channel().eventLoop();
  }

  @Override
  public PeerInfo peer() {
    return connection.peer();
  }

  @Override
  public ByteBufAllocator alloc() {
    return ctx.alloc();
  }

  @Override
  public void writeHead(Http2Headers head, boolean endOfResponse) {
    ChannelFuture written = ctx.write(new DefaultHttp3HeadersFrame(toHttp3(head)));
    if (endOfResponse) {
      written.addListener(QuicStreamChannel.SHUTDOWN_OUTPUT);
    }
  }

  @Override
  public ChannelFuture writeBody(ByteBuf data, boolean endOfResponse) {
    int bytes = data.readableBytes();
    ChannelFuture written = ctx.write(new DefaultHttp3DataFrame(contiguous(data)));
    if (endOfResponse) {
      written.addListener(QuicStreamChannel.SHUTDOWN_OUTPUT);
    }
    if (served) {
      connection.queued(this, bytes, written);
    }
    return written;
  }

  @Override
  public boolean holdsBack() {
    return connection.holdsBack();
  }

  /** The connection stopped holding calls back. */
  void decongested() {
    if (call != null) {
      call.decongested();
    }
  }

  /**
   * The client does not take this call's response: the call ends with RESOURCE_EXHAUSTED, and the stream is
   * reset, which drops what waits on it.
   */
  void resetForBacklog(String reason) {
    if (call != null) {
      call.lost(Status.RESOURCE_EXHAUSTED.withDescription(reason));
    }
    stream().shutdown(Http3ErrorCode.H3_EXCESSIVE_LOAD.code());
  }

  @Override
  public boolean carriesTrailers() {
    return true;
  }

  @Override
  public ChannelFuture writeTrailers(Http2Headers trailers) {
    ChannelFuture written = ctx.write(new DefaultHttp3HeadersFrame(toHttp3(trailers)));
    written.addListener(QuicStreamChannel.SHUTDOWN_OUTPUT);
    return written;
  }

  @Override
  public void flush() {
    ctx.flush();
  }

  @Override
  public void consumed(int bytes) {
    unused -= bytes;
    if (unused < window / 2 && !ctx.channel().config().isAutoRead()) {
      ctx.channel().config().setAutoRead(true);
    }
  }

  @Override
  public void abandon() {
    stream().shutdown(Http3ErrorCode.H3_REQUEST_CANCELLED.code());
  }

  /**
   * {@code data} as Netty's QUIC stream channel sends it right: one buffer whose bytes start at index 0.
   * It sends a buffer's readable length from its start, not from its reader index (a Connect unary
   * response, whose 5-byte prefix is skipped, went out shifted by five), so such a buffer, or one in
   * pieces, is copied first. Owns {@code data}.
   */
  private ByteBuf contiguous(ByteBuf data) {
    return contiguous(ctx.alloc(), data);
  }

  /** {@code data} as Netty's QUIC stream channel sends it right (see above), copied with {@code alloc} if need be. */
  static ByteBuf contiguous(ByteBufAllocator alloc, ByteBuf data) {
    if (data.readerIndex() == 0 && data.nioBufferCount() == 1) {
      return data;
    }
    try {
      return alloc.directBuffer(data.readableBytes()).writeBytes(data);
    } finally {
      data.release();
    }
  }

  static Http2Headers toHttp2(Http3Headers headers) {
    Http2Headers converted = new DefaultHttp2Headers(false, headers.size());
    for (Map.Entry<CharSequence, CharSequence> header : headers) {
      converted.add(header.getKey(), header.getValue());
    }
    return converted;
  }

  static Http3Headers toHttp3(Http2Headers headers) {
    Http3Headers converted = new DefaultHttp3Headers(false, headers.size());
    for (Map.Entry<CharSequence, CharSequence> header : headers) {
      converted.add(header.getKey(), header.getValue());
    }
    return converted;
  }
}
