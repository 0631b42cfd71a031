package io.triplerpc.transport.netty.internal.client;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.util.AsciiString;
import io.netty.util.concurrent.Ticker;
import io.triplerpc.ClientProtocol;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.WriteStats;
import io.triplerpc.internal.stream.ClientTransport;
import io.triplerpc.internal.stream.ClientTransportOptions;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.transport.netty.internal.ConnectionListeners;
import java.util.function.Consumer;

/**
 * What a client transport to one address is whatever carries its calls, HTTP/2 ({@link NettyClientTransport})
 * or HTTP/1.1 ({@link Http1ClientTransport}): where its connections come from ({@link Dialer}), the
 * framing and request head of a call, its timers' loop and clock, and who hears of its connections.
 */
abstract class AbstractClientTransport implements ClientTransport {

  private static final AsciiString HTTPS = AsciiString.cached("https");

  final Dialer dialer;
  final ClientTransportOptions options;
  /** The calls' timers run here: the first connection's loop, which carries its calls. */
  private final EventLoop scheduler;
  /** The clock of {@link #scheduler()}: its event loop's. */
  private final Ticker ticker;
  private final AsciiString authority;
  private final AsciiString scheme;
  private final ClientProtocol protocol;
  private final int maxInboundMessageSize;
  final ConnectionListeners connectionListeners = new ConnectionListeners();

  AbstractClientTransport(Dialer dialer, EventLoop scheduler) {
    this.dialer = dialer;
    this.options = dialer.options();
    this.scheduler = scheduler;
    this.ticker = scheduler.ticker();
    this.authority = AsciiString.cached(dialer.target());
    this.scheme = dialer.isTls() ? HTTPS : GrpcHeaders.HTTP;
    this.protocol = options.protocol();
    this.maxInboundMessageSize = options.limits().maxInboundMessageSize();
  }

  /** How a call to {@code method} is framed in this transport's protocol and codec. */
  final ClientFraming framing(MethodDescriptor<?, ?> method, MessageEncoding requestEncoding) {
    return ClientFraming.of(protocol, method, maxInboundMessageSize, requestEncoding, options.codec(),
        options.httpGet());
  }

  /** The request head of a call to {@code method} framed by {@code framing}, {@code metadata} included. */
  final Http2Headers requestHeaders(MethodDescriptor<?, ?> method, ClientFraming framing, Metadata metadata,
      long timeoutNanos, MessageEncoding encoding) {
    return requestHeaders(scheme, authority, method.path(), framing, metadata, timeoutNanos, encoding);
  }

  /** The request head of a call to {@code path} in {@code framing}'s protocol, {@code metadata} included. */
  static Http2Headers requestHeaders(AsciiString scheme, AsciiString authority, CharSequence path,
      ClientFraming framing, Metadata metadata, long timeoutNanos, MessageEncoding encoding) {
    return ClientFraming.requestHeaders(scheme, authority, path, framing, metadata, timeoutNanos, encoding);
  }

  final int maxInboundMessageSize() {
    return maxInboundMessageSize;
  }

  /** Each connection open now (or being opened). */
  abstract void forEachConnection(Consumer<AbstractClientConnection> action);

  @Override
  public final boolean isTls() {
    return dialer.isTls();
  }

  @Override
  public final boolean isActive() {
    boolean[] active = {false};
    forEachConnection(c -> active[0] |= c.isActive());
    return active[0];
  }

  @Override
  public final ByteBufAllocator alloc() {
    return dialer.alloc();
  }

  @Override
  public final EventLoop scheduler() {
    return scheduler;
  }

  @Override
  public final long nanoTime() {
    return ticker.nanoTime();
  }

  @Override
  public final void onConnectionsChanged(Runnable listener) {
    connectionListeners.add(listener);
  }

  @Override
  public final WriteStats writeStats() {
    long[] totals = new long[2];
    forEachConnection(c -> {
      totals[0] += c.writeQueue().commandsWritten();
      totals[1] += c.writeQueue().flushes();
    });
    return new WriteStats(totals[0], totals[1]);
  }

  @Override
  public String toString() {
    return getClass().getSimpleName() + '{' + dialer.target() + ", " + protocol + '}';
  }
}
