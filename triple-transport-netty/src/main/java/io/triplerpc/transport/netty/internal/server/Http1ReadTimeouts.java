package io.triplerpc.transport.netty.internal.server;

import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.concurrent.Ticker;
import io.triplerpc.Status;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The read timeouts of an HTTP/1.1 connection: a request's line and headers must arrive within the
 * header timeout of its first byte, and its body must not go without a byte for the body idle
 * timeout; past either, 408 and the connection closes (slowloris, a stalled upload). Between requests
 * no timer runs. It watches the connection from two places: {@link #bytes()} before the HTTP codec
 * sees the bytes arrive, {@link #messages()} after it sees where a request's head and body end.
 *
 * <p>One timer at a time, and reads only note the time: the timer, when it fires, checks the
 * deadline of the phase the request is in. Time is the event loop's {@link Ticker}. Event loop only.
 */
final class Http1ReadTimeouts {

  /** Pipeline names of the two handlers, for the HTTP/2 handler to remove them after an upgrade. */
  static final String BYTES_NAME = "triple-http1-read-bytes";
  static final String MESSAGES_NAME = "triple-http1-read-messages";

  private static final Logger log = LoggerFactory.getLogger(Http1ReadTimeouts.class);

  private enum Phase { BETWEEN_REQUESTS, HEAD, BODY }

  private final long headerTimeoutNanos;
  private final long bodyIdleTimeoutNanos;
  private final BytesHandler bytes = new BytesHandler();
  private final MessagesHandler messages = new MessagesHandler();
  private Phase phase = Phase.BETWEEN_REQUESTS;
  /** When the request's first byte arrived (HEAD), or its body's last byte (BODY). */
  private long sinceNanos;
  private ScheduledFuture<?> timer;
  private Ticker ticker;
  private ChannelHandlerContext messagesContext;
  private boolean removed;

  Http1ReadTimeouts(long headerTimeoutNanos, long bodyIdleTimeoutNanos) {
    this.headerTimeoutNanos = headerTimeoutNanos;
    this.bodyIdleTimeoutNanos = bodyIdleTimeoutNanos;
  }

  /** The handler that goes before the HTTP codec. */
  ChannelInboundHandlerAdapter bytes() {
    return bytes;
  }

  /** The handler that goes right after the HTTP codec. */
  ChannelInboundHandlerAdapter messages() {
    return messages;
  }

  private void bytesRead(ChannelHandlerContext ctx) {
    if (removed) {
      return;
    }
    if (ticker == null) {
      ticker = ctx.executor().ticker();
    }
    long now = ticker.nanoTime();
    if (phase == Phase.BETWEEN_REQUESTS) {
      phase = Phase.HEAD;
      sinceNanos = now;
      schedule(ctx, headerTimeoutNanos);
    } else if (phase == Phase.BODY) {
      sinceNanos = now;
    }
  }

  private void messageRead(Object msg) {
    if (msg instanceof HttpRequest) {
      HandshakeTimeout.done(messagesContext.channel());
      phase = Phase.BODY;
      sinceNanos = ticker == null ? 0 : ticker.nanoTime();
    }
    if (msg instanceof LastHttpContent) {
      phase = Phase.BETWEEN_REQUESTS;
      cancelTimer();
    } else if (msg instanceof HttpRequest || msg instanceof HttpContent) {
      if (timer == null) {
        schedule(messagesContext, bodyIdleTimeoutNanos);
      }
    }
  }

  private void schedule(ChannelHandlerContext ctx, long delayNanos) {
    cancelTimer();
    timer = ctx.executor().schedule(this::check, delayNanos, TimeUnit.NANOSECONDS);
  }

  private void cancelTimer() {
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
  }

  private void check() {
    timer = null;
    if (removed || phase == Phase.BETWEEN_REQUESTS) {
      return;
    }
    long limit = phase == Phase.HEAD ? headerTimeoutNanos : bodyIdleTimeoutNanos;
    long waited = ticker.nanoTime() - sinceNanos;
    if (waited < limit) {
      timer = messagesContext.executor().schedule(this::check, limit - waited, TimeUnit.NANOSECONDS);
      return;
    }
    String what = phase == Phase.HEAD
        ? "Request line and headers not received within " + TimeUnit.NANOSECONDS.toMillis(limit) + " ms"
        : "Request body received nothing for " + TimeUnit.NANOSECONDS.toMillis(limit) + " ms";
    log.debug("Closing {}: {}", messagesContext.channel(), what);
    removed = true;
    FullHttpResponse response = Http1ServerHandler.jsonError(
        messagesContext.alloc(), HttpResponseStatus.REQUEST_TIMEOUT, Status.DEADLINE_EXCEEDED.withDescription(what));
    response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
    // Written from here, so that it goes through the HTTP encoder before it.
    messagesContext.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
  }

  private void stop() {
    removed = true;
    cancelTimer();
  }

  private final class BytesHandler extends ChannelInboundHandlerAdapter {

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      bytesRead(ctx);
      ctx.fireChannelRead(msg);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
      stop();
    }
  }

  private final class MessagesHandler extends ChannelInboundHandlerAdapter {

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
      messagesContext = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
      if (!removed) {
        messageRead(msg);
      }
      ctx.fireChannelRead(msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
      stop();
      ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
      stop();
    }
  }
}
