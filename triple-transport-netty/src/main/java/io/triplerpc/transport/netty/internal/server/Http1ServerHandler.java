package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerUpgradeHandler;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.triplerpc.Metadata;
import io.triplerpc.PeerInfo;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.InboundRequest;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.internal.wire.HttpUnary;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HTTP unary calls over HTTP/1.1, one request at a time per connection: requests a client pipelines
 * wait their turn, so that responses leave in request order. Event loop only.
 */
final class Http1ServerHandler extends ChannelInboundHandlerAdapter {

  /** Pipeline name of this handler, for the HTTP/2 handler to remove it once a connection upgrades. */
  static final String NAME = "triple-http1";
  /** Pipeline name of the body aggregator in front of it. */
  static final String AGGREGATOR_NAME = "triple-http1-aggregator";

  private static final Logger log = LoggerFactory.getLogger(Http1ServerHandler.class);

  private final ServerTransportListener listener;
  private final ArrayDeque<FullHttpRequest> waiting = new ArrayDeque<>();
  private ChannelHandlerContext ctx;
  /** The call in flight, or null. */
  private HttpUnaryServerStream current;
  private boolean currentKeepAlive;
  private boolean shuttingDown;
  /** The connection, described at its first request. */
  private PeerInfo peer;

  Http1ServerHandler(ServerTransportListener listener) {
    this.listener = listener;
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (!(msg instanceof FullHttpRequest)) {
      ctx.fireChannelRead(msg);
      return;
    }
    FullHttpRequest request = (FullHttpRequest) msg;
    if (current != null || !waiting.isEmpty()) {
      waiting.add(request);
      return;
    }
    serve(request);
  }

  /**
   * Whether the decoder failed because the request line names no HTTP version: Netty's
   * {@link HttpVersion#valueOf} rejects it with this message, and the decoder keeps the exception.
   */
  private static boolean isNotHttp1(Throwable cause) {
    return cause instanceof IllegalArgumentException && cause.getMessage() != null
        && cause.getMessage().startsWith("invalid version format");
  }

  private void serve(FullHttpRequest request) {
    try {
      currentKeepAlive = HttpUtil.isKeepAlive(request) && !shuttingDown;
      if (!request.decoderResult().isSuccess()) {
        if (isNotHttp1(request.decoderResult().cause())) {
          // Not HTTP/1 at all (a corrupt HTTP/2 preface, say): an HTTP/1.1 answer would be noise to the peer.
          ctx.close();
          return;
        }
        currentKeepAlive = false;
        finish(writeError(400, Status.INVALID_ARGUMENT.withDescription(
            "Malformed HTTP request: " + request.decoderResult().cause()), null));
        return;
      }
      InboundRequest inbound;
      try {
        inbound = HttpUnaryRequests.parse(HttpUnaryRequests.toHttp2Headers(request));
      } catch (HttpUnaryRequests.Rejection rejection) {
        finish(writeError(rejection.httpStatus, rejection.status, rejection.allow));
        return;
      } catch (RuntimeException e) {
        // Headers HTTP/2 form cannot carry (a malformed target, say): the request's fault.
        currentKeepAlive = false;
        finish(writeError(400, Status.INVALID_ARGUMENT.withDescription("Malformed HTTP request: " + e.getMessage()),
            null));
        return;
      }
      if (peer == null) {
        peer = Peers.describe(ctx.channel(), false);
      }
      HttpUnaryServerStream stream = new HttpUnaryServerStream(ctx.channel(), peer, this::writeAndFinish, inbound.codec());
      current = stream;
      stream.start(listener.streamCreated(stream, inbound), request.content().retain());
    } finally {
      request.release();
    }
  }

  private ChannelFuture writeError(int httpStatus, Status status, CharSequence allow) {
    ByteBuf body = ctx.alloc().buffer();
    body.writeCharSequence(HttpUnary.errorBody(status), StandardCharsets.UTF_8);
    return write(httpStatus, HttpUnary.APPLICATION_JSON_UTF8, null, allow, body);
  }

  private ChannelFuture writeAndFinish(
      int status, CharSequence contentType, Metadata headers, CharSequence allow, ByteBuf body) {
    ChannelFuture written = write(status, contentType, headers, allow, body);
    current = null;
    finish(written);
    return written;
  }

  private ChannelFuture write(int status, CharSequence contentType, Metadata headers, CharSequence allow, ByteBuf body) {
    FullHttpResponse response =
        new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.valueOf(status), body);
    if (headers != null) {
      headers.forEach((key, value) -> {
        if (value instanceof String) {
          response.headers().add(key, value);
        }
      });
    }
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, contentType);
    response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
    if (allow != null) {
      response.headers().set(HttpHeaderNames.ALLOW, allow);
    }
    if (!currentKeepAlive) {
      response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    }
    return ctx.writeAndFlush(response);
  }

  /** The response is on its way: close if the exchange asked so, else serve the next request waiting. */
  private void finish(ChannelFuture written) {
    if (!currentKeepAlive) {
      written.addListener(ChannelFutureListener.CLOSE);
      releaseWaiting();
      return;
    }
    FullHttpRequest next = waiting.poll();
    if (next != null) {
      serve(next);
    }
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
    FullHttpRequest request;
    while ((request = waiting.poll()) != null) {
      request.release();
    }
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    releaseWaiting();
    HttpUnaryServerStream stream = current;
    current = null;
    if (stream != null) {
      stream.lost(Status.CANCELLED.withDescription("Client closed the connection before the response"));
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

  /**
   * The body aggregator, answering an oversized body with Triple's JSON error rather than Netty's
   * empty 413. With a declared content length the rest of the body is skipped and the connection kept.
   */
  static final class BodyAggregator extends HttpObjectAggregator {

    BodyAggregator(int maxContentLength) {
      super(maxContentLength);
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
      answerOversized(ctx, oversized, maxContentLength());
    }
  }

  /** The h2c upgrade handler, with the same answer to an oversized upgrade request. */
  static final class UpgradeHandler extends HttpServerUpgradeHandler {

    UpgradeHandler(SourceCodec sourceCodec, UpgradeCodecFactory upgradeCodecFactory, int maxContentLength) {
      super(sourceCodec, upgradeCodecFactory, maxContentLength);
    }

    @Override
    protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
      answerOversized(ctx, oversized, maxContentLength());
    }
  }

  /** 413 with the JSON error body; the connection stays only if the rest of the body can be skipped. */
  private static void answerOversized(ChannelHandlerContext ctx, HttpMessage oversized, int maxContentLength) {
    boolean keepAlive = HttpUtil.isKeepAlive(oversized) && HttpUtil.isContentLengthSet(oversized)
        && !(oversized instanceof FullHttpRequest);
    Status status = Status.RESOURCE_EXHAUSTED.withDescription(
        "Request body larger than the server's maximum message size of " + maxContentLength + " bytes");
    ByteBuf body = ctx.alloc().buffer();
    body.writeCharSequence(HttpUnary.errorBody(status), StandardCharsets.UTF_8);
    FullHttpResponse response =
        new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, body);
    response.headers().set(HttpHeaderNames.CONTENT_TYPE, HttpUnary.APPLICATION_JSON_UTF8);
    response.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
    if (!keepAlive) {
      response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    }
    ChannelFuture written = ctx.writeAndFlush(response);
    if (!keepAlive) {
      written.addListener(ChannelFutureListener.CLOSE);
    }
  }
}
