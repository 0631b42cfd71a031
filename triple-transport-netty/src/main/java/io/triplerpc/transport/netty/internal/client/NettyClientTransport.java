package io.triplerpc.transport.netty.internal.client;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.ssl.SslContext;
import io.netty.util.AsciiString;
import io.netty.util.concurrent.Ticker;
import io.triplerpc.ClientProtocol;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.StatusException;
import io.triplerpc.WriteStats;
import io.triplerpc.internal.stream.ClientStream;
import io.triplerpc.internal.stream.FailedClientStream;
import io.triplerpc.internal.stream.ClientTransport;
import io.triplerpc.internal.stream.ClientTransportOptions;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.transport.netty.internal.ConnectionListeners;
import io.triplerpc.transport.netty.internal.GrpcHttp2Headers;
import io.triplerpc.transport.netty.internal.Tls;
import java.net.InetSocketAddress;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

/** The client transport to one address: N lazily opened connections, used round robin. */
public final class NettyClientTransport implements ClientTransport {

  private final ConnectionSlot[] slots;
  private final AtomicInteger nextSlot = new AtomicInteger();
  /** The first connection's loop: the calls' timers run where their writes do (one connection, most often). */
  private final EventLoop scheduler;
  /** The clock of {@link #scheduler()}: its event loop's. */
  private final Ticker ticker;
  private final ByteBufAllocator alloc;
  private final AsciiString authority;
  private final int maxInboundMessageSize;
  /** The wire protocol of the calls. */
  private final ClientProtocol protocol;
  /** The messages' codec, {@code proto} or {@code json}. */
  private final String codec;
  /** Whether Connect unary calls of idempotent methods go as GET. */
  private final boolean httpGet;
  private final AsciiString scheme;
  private static final AsciiString HTTPS = AsciiString.cached("https");
  /** Told of each change of the connections. */
  private final ConnectionListeners connectionListeners = new ConnectionListeners();

  NettyClientTransport(
      InetSocketAddress address, ClientTransportOptions options, EventLoopGroup group, ByteBufAllocator alloc,
      SslContext sslContext, ChannelGroup connections, KeepAliveTime keepAliveTime) {
    this.alloc = alloc;
    this.authority = AsciiString.cached(address.getHostString() + ':' + address.getPort());
    this.maxInboundMessageSize = options.limits().maxInboundMessageSize();
    this.protocol = options.protocol();
    this.codec = options.codec();
    this.httpGet = options.httpGet();
    this.slots = new ConnectionSlot[options.connectionsPerAddress()];
    this.scheme = sslContext == null ? GrpcHeaders.HTTP : HTTPS;
    for (int i = 0; i < slots.length; i++) {
      slots[i] = new ConnectionSlot(address, options, group, alloc, sslContext, connections, keepAliveTime,
          connectionListeners::changed);
    }
    this.scheduler = slots[0].eventLoop();
    this.ticker = scheduler.ticker();
  }

  @Override
  public ClientStream newStream(
      MethodDescriptor<?, ?> method, Metadata headers, long timeoutNanos, MessageEncoding requestEncoding) {
    ConnectionSlot slot = slots.length == 1 ? slots[0] : slots[Math.floorMod(nextSlot.getAndIncrement(), slots.length)];
    ClientConnection connection;
    try {
      connection = slot.connection();
    } catch (StatusException e) {
      return new FailedClientStream(e.status());
    }
    ClientFraming framing = ClientFraming.of(protocol, method, maxInboundMessageSize, requestEncoding, codec, httpGet);
    return new NettyClientStream(
        connection,
        requestHeaders(scheme, authority, method.path(), framing, headers, timeoutNanos, requestEncoding),
        maxInboundMessageSize,
        framing,
        timeoutNanos);
  }

  /**
   * The request headers of a gRPC call to {@code path} (uncompressed, {@code timeoutNanos} 0 for no
   * deadline) as a transport to {@code scheme://authority} sends them; public for the header benchmark.
   */
  public static Http2Headers grpcRequestHeaders(
      AsciiString scheme, AsciiString authority, CharSequence path, Metadata metadata, long timeoutNanos) {
    return requestHeaders(scheme, authority, path, GrpcClientFraming.INSTANCE, metadata, timeoutNanos, null);
  }

  /** The request head of a call to {@code path} in {@code framing}'s protocol, {@code metadata} included. */
  static Http2Headers requestHeaders(AsciiString scheme, AsciiString authority, CharSequence path,
      ClientFraming framing, Metadata metadata, long timeoutNanos, MessageEncoding encoding) {
    Http2Headers headers = new DefaultHttp2Headers(false, 10 + metadata.size())
        .method(GrpcHeaders.POST)
        .scheme(scheme)
        .path(path)
        .authority(authority);
    headers.add(GrpcHeaders.USER_AGENT, GrpcHeaders.USER_AGENT_VALUE);
    framing.addRequestHeaders(headers, timeoutNanos, encoding);
    GrpcHttp2Headers.addMetadata(headers, metadata);
    return headers;
  }

  @Override
  public boolean isTls() {
    return scheme == HTTPS;
  }

  @Override
  public boolean isActive() {
    for (ConnectionSlot slot : slots) {
      if (slot.isActive()) {
        return true;
      }
    }
    return false;
  }

  @Override
  public ByteBufAllocator alloc() {
    return alloc;
  }

  @Override
  public ScheduledExecutorService scheduler() {
    return scheduler;
  }

  @Override
  public long nanoTime() {
    return ticker.nanoTime();
  }

  @Override
  public void shutdown() {
    for (ConnectionSlot slot : slots) {
      slot.shutdown();
    }
  }

  @Override
  public void onConnectionsChanged(Runnable listener) {
    connectionListeners.add(listener);
  }

  @Override
  public WriteStats writeStats() {
    long commands = 0;
    long flushes = 0;
    for (ConnectionSlot slot : slots) {
      ClientConnection c = slot.currentConnection();
      if (c != null) {
        commands += c.writeQueue().commandsWritten();
        flushes += c.writeQueue().flushes();
      }
    }
    return new WriteStats(commands, flushes);
  }
}
