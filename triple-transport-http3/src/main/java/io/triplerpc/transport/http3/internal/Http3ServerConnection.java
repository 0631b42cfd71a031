package io.triplerpc.transport.http3.internal;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http3.DefaultHttp3GoAwayFrame;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.http3.Http3ErrorCode;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.triplerpc.PeerInfo;
import io.triplerpc.transport.netty.internal.OutboundBacklog;
import io.triplerpc.transport.netty.internal.server.Peers;
import io.triplerpc.transport.netty.internal.server.PrematureResets;
import io.triplerpc.transport.netty.internal.server.ServerBacklog;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One HTTP/3 connection as the server keeps it: its request streams open now, its peer, and its graceful
 * close. A graceful close sends GOAWAY with the largest request stream id there is (no new request is
 * refused yet, as a request already on its way would be), and after the drain grace a second GOAWAY naming
 * the first stream it will not serve; later streams are refused ({@code H3_REQUEST_REJECTED}, which tells
 * the client it may retry them elsewhere). Once the last request ends the connection closes, a drain grace
 * later, so that the last response's packets are acknowledged before the CONNECTION_CLOSE discards what
 * quiche holds (the client may close first, as RFC 9114 section 5.2 lets it).
 *
 * <p>It also counts the response bytes its client has not taken ({@link OutboundBacklog}, as an HTTP/2
 * connection does): those QUIC's flow control keeps in Netty's queues. From half the limit its calls are not
 * ready; past it, the call being written ends with RESOURCE_EXHAUSTED and its stream is reset
 * ({@code H3_EXCESSIVE_LOAD}); past it again before the client has taken a byte, the client reads nothing and
 * the connection closes with that code. Its backlog counts in the server's ({@link ServerBacklog},
 * {@code maxTotalPendingOutboundBytes}) with the TCP connections' own: past that limit the connections holding the
 * most close, whichever their transport, and from half of it every call holds back.
 *
 * <p>A client that resets most of its request streams as it opens them (rapid reset, CVE-2023-44487, in its
 * QUIC form) loses the connection ({@code H3_EXCESSIVE_LOAD}), judged as on HTTP/2 ({@link PrematureResets}).
 * Event loop only.
 */
final class Http3ServerConnection extends ChannelInboundHandlerAdapter {

  private static final Logger log = LoggerFactory.getLogger(Http3ServerConnection.class);

  /** The largest id a client-initiated bidirectional stream can have (a QUIC varint is below 2^62). */
  static final long MAX_REQUEST_STREAM_ID = (1L << 62) - 4;

  private final QuicChannel channel;
  private final long drainGraceMillis;
  private PeerInfo peer;
  /** Request streams open now. */
  private int openStreams;
  /** The highest request stream id opened; -1 before the first. */
  private long lastStreamId = -1;
  /** Streams from this id on are refused; {@code Long.MAX_VALUE} until the second GOAWAY. */
  private long refusedFrom = Long.MAX_VALUE;
  private boolean shuttingDown;
  private boolean closeScheduled;
  private final OutboundBacklog backlog;
  /** The server-wide backlog, shared with the server's other connections, TCP's included. */
  private final ServerBacklog serverBacklog;
  /** This connection's part of it. */
  private final ServerBacklog.Share share;
  private final PrematureResets resets;
  /** The exchanges of the request streams open now, told when the backlog stops holding them back. */
  private final Set<Http3Exchange> exchanges = new LinkedHashSet<>();

  /**
   * @param maxPendingOutboundBytes the backlog's limit; 0 for none
   * @param serverBacklog the server's, which this connection joins until it closes
   */
  Http3ServerConnection(QuicChannel channel, long drainGraceMillis, long maxPendingOutboundBytes,
      ServerBacklog serverBacklog) {
    this.channel = channel;
    this.drainGraceMillis = drainGraceMillis;
    this.resets = new PrematureResets(channel.eventLoop().ticker(), 2);
    this.backlog = new OutboundBacklog(maxPendingOutboundBytes, new OutboundBacklog.Watcher() {
      @Override
      public void decongested() {
        Http3ServerConnection.this.decongested();
      }

      @Override
      public void grew() {
        // A step more waits than the server knows of: it hears of it now, not only once writes complete.
        backlog.mark();
        share.publish(backlog.bytes());
      }
    });
    this.serverBacklog = serverBacklog;
    this.share = serverBacklog.join(channel.eventLoop(), new ServerBacklog.Connection() {
      @Override
      public void refuse(String reason) {
        closeForUnreadResponses(reason);
      }

      @Override
      public void decongested() {
        Http3ServerConnection.this.decongested();
      }
    });
    channel.closeFuture().addListener(closed -> share.leave());
  }

  /** The connection's or the server's backlog fell back: the calls held back may write again. Event loop. */
  private void decongested() {
    if (holdsBack()) {
      return;
    }
    for (Http3Exchange exchange : exchanges.toArray(new Http3Exchange[0])) {
      exchange.decongested();
    }
  }

  /** The connection's handler, or null once it is gone from the pipeline. */
  static Http3ServerConnection of(Channel channel) {
    return channel.pipeline().get(Http3ServerConnection.class);
  }

  /** The client, described once, after the handshake. */
  PeerInfo peer() {
    if (peer == null) {
      peer = Peers.describe(channel.remoteSocketAddress(), channel.localSocketAddress(), PeerInfo.HTTP_3,
          channel.sslEngine() == null ? null : channel.sslEngine().getSession());
    }
    return peer;
  }

  /** A request stream opened; whether it is served (false: after the second GOAWAY, at or above its id). */
  boolean streamOpened(long streamId, Http3Exchange exchange) {
    if (streamId >= refusedFrom) {
      return false;
    }
    exchanges.add(exchange);
    resets.opened(streamId);
    openStreams++;
    lastStreamId = Math.max(lastStreamId, streamId);
    return true;
  }

  /** A request stream that {@link #streamOpened} served has closed. */
  void streamClosed(Http3Exchange exchange) {
    exchanges.remove(exchange);
    openStreams--;
    closeIfDrained();
  }

  /**
   * Whether calls should write no more until told ({@link Http3Exchange#decongested}): this connection or the
   * server holds half its limit or more of unread responses. Any thread.
   */
  boolean holdsBack() {
    return backlog.congested() || serverBacklog.congested();
  }

  /**
   * {@code bytes} of {@code exchange}'s response went to its stream ({@code written} completes once quiche took
   * them, within the client's flow-control window). Past the limit, the exchange's call ends and its stream is
   * reset, or, if the client has taken nothing since the last such reset, the connection closes.
   */
  void queued(Http3Exchange exchange, int bytes, ChannelFuture written) {
    backlog.queued(bytes);
    written.addListener(future -> {
      if (future.isSuccess()) {
        backlog.sent(bytes);
      } else {
        backlog.dropped(bytes);
      }
      // Touches nothing shared while this connection holds what it held (nothing, for a client that reads).
      share.publish(backlog.bytes());
    });
    if (!backlog.over()) {
      return;
    }
    String waiting = backlog.bytes() + " bytes of responses waiting (limit " + backlog.limit() + ")";
    if (backlog.closeRatherThanReset()) {
      closeForUnreadResponses(waiting);
      return;
    }
    log.debug("Resetting a stream of {}: the client does not read, {}", channel, waiting);
    exchange.resetForBacklog("The client did not read this call's response: " + waiting + " on its connection");
  }

  /**
   * The client does not read its responses, or, past the server-wide limit, this connection holds the most: the
   * connection closes with {@code H3_EXCESSIVE_LOAD}, which drops what waits on it. Event loop.
   */
  private void closeForUnreadResponses(String reason) {
    log.debug("Closing {}: the client does not read, {}", channel, reason);
    if (channel.isActive()) {
      channel.close(true, Http3ErrorCode.H3_EXCESSIVE_LOAD.code(),
          Unpooled.copiedBuffer("the client does not read its responses", StandardCharsets.US_ASCII));
    }
  }

  /** The client reset a request stream whose call was still open; closes the connection if that is its habit. */
  void resetByClient(long streamId) {
    if (!shuttingDown && resets.reset(streamId) && channel.isActive()) {
      log.debug("Closing {}: {} of its {} request streams were reset within a second", channel, resets.premature(),
          resets.streams());
      channel.close(true, Http3ErrorCode.H3_EXCESSIVE_LOAD.code(),
          Unpooled.copiedBuffer("too_many_premature_resets", StandardCharsets.US_ASCII));
    }
  }

  /** Starts a graceful close: the first GOAWAY now, the second after the drain grace. */
  void shutdown() {
    if (shuttingDown || !channel.isActive()) {
      return;
    }
    shuttingDown = true;
    goAway(MAX_REQUEST_STREAM_ID);
    channel.eventLoop().schedule(this::finishShutdown, drainGraceMillis, TimeUnit.MILLISECONDS);
  }

  private void finishShutdown() {
    refusedFrom = lastStreamId + 4;
    goAway(refusedFrom);
    closeIfDrained();
  }

  /** Closes at once: the requests in flight are cut off. */
  void shutdownNow() {
    close("server is shutting down now");
  }

  private void closeIfDrained() {
    if (refusedFrom == Long.MAX_VALUE || openStreams > 0 || closeScheduled) {
      return;
    }
    closeScheduled = true;
    channel.eventLoop().schedule(() -> close("server shut down"), drainGraceMillis, TimeUnit.MILLISECONDS);
  }

  private void goAway(long streamId) {
    QuicStreamChannel control = Http3.getLocalControlStream(channel);
    if (control != null && control.isActive()) {
      control.writeAndFlush(new DefaultHttp3GoAwayFrame(streamId));
    }
  }

  private void close(String reason) {
    if (channel.isActive()) {
      channel.close(true, Http3ErrorCode.H3_NO_ERROR.code(),
          Unpooled.copiedBuffer(reason, StandardCharsets.US_ASCII));
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    // A connection error: Netty's HTTP/3 handlers closed the connection with its code already.
    ctx.close();
  }
}
