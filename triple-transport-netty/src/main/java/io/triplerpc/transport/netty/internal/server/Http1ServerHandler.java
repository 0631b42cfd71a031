package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerUpgradeHandler;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.HttpConversionUtil;
import io.netty.util.ReferenceCountUtil;
import io.triplerpc.CorsPolicy;
import io.triplerpc.PeerInfo;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.internal.wire.ConnectWire;
import io.triplerpc.internal.wire.GrpcHeaders;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The web protocols (Connect unary and streaming, gRPC-Web, and so curl) over HTTP/1.1, one request
 * at a time per connection: its body streams into the call as it arrives, its response streams out
 * (chunked, or with a length when it is whole at once). Requests a client pipelines wait their turn,
 * so that responses leave in request order. A body the call does not read fast enough stops the
 * connection's reads. Event loop only.
 */
final class Http1ServerHandler extends ChannelInboundHandlerAdapter {

  /** Pipeline name of this handler, for the HTTP/2 handler to remove it once a connection upgrades. */
  static final String NAME = "triple-http1";

  private static final Logger log = LoggerFactory.getLogger(Http1ServerHandler.class);
  /** Request bytes the call has not used, past which the connection stops reading, and below which it reads again. */
  private static final int UNUSED_HIGH = 64 * 1024;
  private static final int UNUSED_LOW = 16 * 1024;

  private final ServerTransportListener listener;
  private final int maxInboundMessageSize;
  private final CorsPolicy cors;
  /** What arrived for later requests while one is served. */
  private final ArrayDeque<HttpObject> waiting = new ArrayDeque<>();
  private ChannelHandlerContext ctx;
  /** The request being served, or null. */
  private Exchange current;
  private boolean shuttingDown;
  /** The connection, described at its first request. */
  private PeerInfo peer;

  Http1ServerHandler(ServerTransportListener listener, int maxInboundMessageSize, CorsPolicy cors) {
    this.listener = listener;
    this.maxInboundMessageSize = maxInboundMessageSize;
    this.cors = cors;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof HttpObject)) {
      ctx.fireChannelRead(msg);
      return;
    }
    HttpObject object = (HttpObject) msg;
    if (!waiting.isEmpty() || (current != null && !current.reading)) {
      waiting.add(object);
      return;
    }
    read(object);
  }

  private void read(HttpObject object) {
    if (object instanceof HttpRequest) {
      start((HttpRequest) object);
    } else if (object instanceof HttpContent) {
      HttpContent content = (HttpContent) object;
      boolean last = content instanceof LastHttpContent;
      if (current == null || !current.reading) {
        content.release();
        return;
      }
      current.bodyRead(content.content(), last);
    }
  }

  /**
   * Whether the decoder failed because the request line names no HTTP version: Netty's
   * {@link HttpVersion#valueOf} rejects it with this message, and the decoder keeps the exception.
   */
  private static boolean isNotHttp1(Throwable cause) {
    return cause instanceof IllegalArgumentException && cause.getMessage() != null
        && cause.getMessage().startsWith("invalid version format");
  }

  private void start(HttpRequest request) {
    Exchange exchange = new Exchange(HttpUtil.isKeepAlive(request) && !shuttingDown);
    current = exchange;
    if (!request.decoderResult().isSuccess()) {
      exchange.reading = false;
      if (isNotHttp1(request.decoderResult().cause())) {
        // Not HTTP/1 at all (a corrupt HTTP/2 preface, say): an HTTP/1.1 answer would be noise to the peer.
        ReferenceCountUtil.release(request);
        ctx.close();
        return;
      }
      exchange.keepAlive = false;
      exchange.error(400, Status.INVALID_ARGUMENT.withDescription(
          "Malformed HTTP request: " + request.decoderResult().cause()));
      ReferenceCountUtil.release(request);
      return;
    }
    Http2Headers headers;
    try {
      headers = toHttp2Headers(request);
    } catch (RuntimeException e) {
      // Headers HTTP/2 form cannot carry (a malformed target, say): the request's fault.
      exchange.reading = false;
      exchange.keepAlive = false;
      exchange.error(400, Status.INVALID_ARGUMENT.withDescription("Malformed HTTP request: " + e.getMessage()));
      ReferenceCountUtil.release(request);
      return;
    }
    if (peer == null) {
      peer = Peers.describe(ctx.channel(), false);
    }
    exchange.call = WebCalls.open(exchange, headers, listener, maxInboundMessageSize, cors);
    if (request instanceof FullHttpRequest) {
      // Not split by the codec (an h2c upgrade request that stayed HTTP/1.1): its body comes with it.
      exchange.bodyRead(((FullHttpRequest) request).content().retain(), true);
      ReferenceCountUtil.release(request);
    }
  }

  /** The headers of an HTTP/1.1 request in HTTP/2 form; cleartext, so {@code :scheme} is http. */
  static Http2Headers toHttp2Headers(HttpRequest request) {
    request.headers().set(HttpConversionUtil.ExtensionHeaderNames.SCHEME.text(), GrpcHeaders.HTTP);
    return HttpConversionUtil.toHttp2Headers(request, false);
  }

  /** The exchange's request and response both ended: the next request, if any, is served. */
  private void exchangeDone(Exchange exchange) {
    if (current != exchange) {
      return;
    }
    current = null;
    ctx.channel().config().setAutoRead(true);
    while (!waiting.isEmpty() && (current == null || current.reading)) {
      read(waiting.poll());
    }
    if (current == null && shuttingDown) {
      ctx.close();
    }
  }

  /** Requests in flight: 1 while a request is being answered, else 0. Event loop. */
  int requestsInFlight() {
    return current != null ? 1 : 0;
  }

  /** Server shutdown: the call in flight finishes, then the connection closes. */
  void startGracefulShutdown() {
    shuttingDown = true;
    if (current == null) {
      releaseWaiting();
      ctx.close();
    }
  }

  private void releaseWaiting() {
    HttpObject object;
    while ((object = waiting.poll()) != null) {
      ReferenceCountUtil.release(object);
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    releaseWaiting();
    Exchange exchange = current;
    current = null;
    if (exchange != null && exchange.call != null) {
      exchange.call.lost(Status.CANCELLED.withDescription("Client closed the connection before the response"));
    }
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    log.debug("HTTP/1.1 connection {} failed; closing it", ctx.channel(), cause);
    ctx.close();
  }

  @Override
  public void handlerRemoved(ChannelHandlerContext ctx) {
    releaseWaiting();
  }

  /** One request on the connection and its response. */
  private final class Exchange implements HttpExchange {

    boolean keepAlive;
    /** Whether the request body is still arriving. */
    boolean reading = true;
    /** The call, or null when the request was answered at once. */
    WebServerStream call;
    /** A head not written yet: it waits for the body to tell whether the response is whole. */
    private HttpResponse pendingHead;
    private boolean responseEnded;
    /** Request bytes handed to the call and not used yet. */
    private long unused;

    Exchange(boolean keepAlive) {
      this.keepAlive = keepAlive;
    }

    void bodyRead(ByteBuf data, boolean last) {
      if (last) {
        reading = false;
      }
      if (call == null) {
        data.release();
        if (last && responseEnded) {
          exchangeDone(this);
        }
        return;
      }
      unused += data.readableBytes();
      if (unused > UNUSED_HIGH) {
        ctx.channel().config().setAutoRead(false);
      }
      call.dataRead(data, last);
      if (last && responseEnded) {
        exchangeDone(this);
      }
    }

    /** Answers the request with an error of its own, before any call. */
    void error(int httpStatus, Status status) {
      end(jsonError(ctx.alloc(), HttpResponseStatus.valueOf(httpStatus), status), false);
    }

    @Override
    public EventLoop eventLoop() {
      return ctx.channel().eventLoop();
    }

    @Override
    public PeerInfo peer() {
      return peer;
    }

    @Override
    public ByteBufAllocator alloc() {
      return ctx.alloc();
    }

    @Override
    public void writeHead(Http2Headers head, boolean endOfResponse) {
      HttpResponseStatus status = HttpResponseStatus.valueOf(Integer.parseInt(head.status().toString()));
      HttpResponse response = endOfResponse
          ? new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.EMPTY_BUFFER)
          : new DefaultHttpResponse(HttpVersion.HTTP_1_1, status);
      for (Map.Entry<CharSequence, CharSequence> header : head) {
        if (header.getKey().length() > 0 && header.getKey().charAt(0) != ':') {
          response.headers().add(header.getKey(), header.getValue());
        }
      }
      if (endOfResponse) {
        end((FullHttpResponse) response, true);
      } else {
        pendingHead = response;
      }
    }

    @Override
    public ChannelFuture writeBody(ByteBuf data, boolean endOfResponse) {
      if (responseEnded) {
        data.release();
        return ctx.newSucceededFuture();
      }
      if (pendingHead != null && endOfResponse) {
        // The whole response at once (a unary call): sent with its length.
        HttpResponse head = pendingHead;
        pendingHead = null;
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, head.status(), data);
        response.headers().set(head.headers());
        return end(response, false);
      }
      writePendingHead();
      if (!endOfResponse) {
        return ctx.write(new DefaultHttpContent(data));
      }
      responseEnded = true;
      ChannelFuture written = ctx.write(new DefaultLastHttpContent(data));
      finish(written);
      return written;
    }

    private void writePendingHead() {
      if (pendingHead != null) {
        HttpUtil.setTransferEncodingChunked(pendingHead, true);
        if (!keepAlive) {
          pendingHead.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
        }
        ctx.write(pendingHead);
        pendingHead = null;
      }
    }

    /** Writes a whole response; {@code empty} when it has no body. */
    private ChannelFuture end(FullHttpResponse response, boolean empty) {
      responseEnded = true;
      if (!empty || !response.headers().contains(HttpHeaderNames.CONTENT_LENGTH)) {
        // A head that names its length without a body answers a HEAD: the length is the GET's body's.
        HttpUtil.setContentLength(response, empty ? 0 : response.content().readableBytes());
      }
      if (!keepAlive) {
        response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
      }
      ChannelFuture written = ctx.writeAndFlush(response);
      finish(written);
      return written;
    }

    /**
     * The response is on its way: close if the exchange asked so; else the next request is served once
     * this one's body is read whole (the rest of a body the call did not wait for is read and dropped).
     */
    private void finish(ChannelFuture written) {
      // What the call left unread is dropped with it (the deframer never reports it used): reads go on.
      unused = 0;
      ctx.channel().config().setAutoRead(true);
      if (!keepAlive) {
        written.addListener(ChannelFutureListener.CLOSE);
        releaseWaiting();
        return;
      }
      if (!reading) {
        written.addListener(future -> exchangeDone(this));
      }
    }

    @Override
    public void flush() {
      writePendingHead();
      ctx.flush();
    }

    @Override
    public void consumed(int bytes) {
      unused -= bytes;
      if (unused < UNUSED_LOW && !ctx.channel().config().isAutoRead()) {
        ctx.channel().config().setAutoRead(true);
        ctx.read();
      }
    }

    @Override
    public void abandon() {
      ctx.close();
    }
  }

  /** A whole HTTP/1.1 response answering with {@code status}'s JSON error (Connect's form) and its length. */
  static FullHttpResponse jsonError(ByteBufAllocator alloc, HttpResponseStatus httpStatus, Status status) {
    ByteBuf body = alloc.buffer();
    body.writeCharSequence(ConnectWire.errorJson(status), StandardCharsets.UTF_8);
    FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, httpStatus, body);
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, ConnectWire.APPLICATION_JSON);
    response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
    return response;
  }

  /** The h2c upgrade handler, with Triple's JSON error for an oversized upgrade request. */
  static final class UpgradeHandler extends HttpServerUpgradeHandler {

    UpgradeHandler(SourceCodec sourceCodec, UpgradeCodecFactory upgradeCodecFactory, int maxContentLength) {
      super(sourceCodec, upgradeCodecFactory, maxContentLength);
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
      boolean keepAlive = HttpUtil.isKeepAlive(oversized) && HttpUtil.isContentLengthSet(oversized)
          && !(oversized instanceof FullHttpRequest);
      Status status = Status.RESOURCE_EXHAUSTED.withDescription(
          "Request body larger than the server's maximum message size of " + maxContentLength() + " bytes");
      FullHttpResponse response = jsonError(ctx.alloc(), HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, status);
      if (!keepAlive) {
        response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
      }
      ChannelFuture written = ctx.writeAndFlush(response);
      if (!keepAlive) {
        written.addListener(ChannelFutureListener.CLOSE);
      }
    }
  }
}
