package io.triplerpc.transport.http3.internal;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.DatagramChannel;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http3.DefaultHttp3SettingsFrame;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.http3.Http3ClientConnectionHandler;
import io.netty.handler.codec.http3.Http3SettingIdentifier;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.util.AsciiString;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ScheduledFuture;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.Status;
import io.triplerpc.WriteStats;
import io.triplerpc.internal.stream.ClientStream;
import io.triplerpc.internal.stream.ClientTransport;
import io.triplerpc.internal.stream.ClientTransportOptions;
import io.triplerpc.internal.stream.FailedClientStream;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.transport.netty.internal.ConnectionListeners;
import io.triplerpc.transport.netty.internal.client.ClientFraming;
import io.triplerpc.transport.netty.internal.client.HostResolver;
import io.triplerpc.transport.netty.internal.write.ForcefulCloseCommand;
import java.net.Inet4Address;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The client transport to one address over HTTP/3: one QUIC connection at a time, opened with the first
 * call and again after it closed or got GOAWAY. Its calls' streams ({@link Http3ClientStream}) sit under
 * the same framings as over HTTP/2; only the stream differs.
 */
final class Http3ClientTransport implements ClientTransport {

  private static final AsciiString HTTPS = AsciiString.cached("https");
  /** QUIC's idle timeout: a connection without packets for this long is gone. */
  static final long IDLE_TIMEOUT_SECONDS = 300;

  private final InetSocketAddress address;
  private final ClientTransportOptions options;
  private final EventLoopGroup group;
  private final QuicSslContext tls;
  private final EventLoop scheduler;
  private final AsciiString authority;
  private final ConnectionListeners connectionListeners = new ConnectionListeners();
  private final DefaultHttp3SettingsFrame settings = new DefaultHttp3SettingsFrame();
  /** How long a handshake may take: the fallback time when there is one, else the connect timeout. */
  private final long handshakeTimeoutMillis;
  /** Told when a connection could not be made, before its waiting calls fail. */
  private final Runnable connectFailed;

  /** The UDP sockets of {@code group}'s transport. */
  private final Class<? extends DatagramChannel> udpChannel;
  /** Guarded by this. */
  private Http3ClientConnection current;
  /** Guarded by this. */
  private boolean shutdown;

  Http3ClientTransport(InetSocketAddress address, ClientTransportOptions options, EventLoopGroup group,
      Class<? extends DatagramChannel> udpChannel, QuicSslContext tls, Runnable connectFailed) {
    this.udpChannel = udpChannel;
    this.address = address;
    this.options = options;
    this.group = group;
    this.tls = tls;
    this.scheduler = group.next();
    this.connectFailed = connectFailed;
    this.handshakeTimeoutMillis = options.http3() != null && options.http3().fallsBack()
        ? options.http3().fallbackAfterMillis() : options.connectTimeoutMillis();
    this.authority = AsciiString.cached(address.getHostString() + ':' + address.getPort());
    settings.put(Http3SettingIdentifier.HTTP3_SETTINGS_MAX_FIELD_SECTION_SIZE.id(),
        (long) options.limits().maxHeaderListSize());
  }

  @Override
  public ClientStream newStream(
      MethodDescriptor<?, ?> method, Metadata headers, long timeoutNanos, MessageEncoding requestEncoding) {
    Http3ClientConnection connection;
    try {
      connection = connection();
    } catch (IllegalStateException e) {
      return new FailedClientStream(Status.UNAVAILABLE.withDescription(e.getMessage()));
    }
    int maxInbound = options.limits().maxInboundMessageSize();
    ClientFraming framing = ClientFraming.of(options.protocol(), method, maxInbound, requestEncoding,
        options.codec(), options.httpGet());
    Http2Headers head = ClientFraming.requestHeaders(HTTPS, authority, method.path(), framing, headers,
        timeoutNanos, requestEncoding);
    return new Http3ClientStream(connection, head, maxInbound, framing, options.limits().initialWindowSize());
  }

  /** The connection calls go on now: the current one, or a new one. */
  private synchronized Http3ClientConnection connection() {
    if (shutdown) {
      throw new IllegalStateException("Client is closed");
    }
    if (current == null || !current.isUsable()) {
      current = connect();
    }
    return current;
  }

  /**
   * A new QUIC connection on a UDP socket of its own: the socket binds, the handshake starts, and the
   * connection's commands wait in its queue until it is done (or fail once it failed, or took longer
   * than the connect timeout).
   */
  private Http3ClientConnection connect() {
    ChannelHandler codec = Http3.newQuicClientCodecBuilder()
        .sslContext(tls)
        // The name the server's certificate is checked against, and SNI.
        .sslEngineProvider(quic -> tls.newEngine(quic.alloc(), address.getHostString(), address.getPort()))
        .maxIdleTimeout(IDLE_TIMEOUT_SECONDS, TimeUnit.SECONDS)
        .initialMaxData(options.limits().maxWindowSize())
        .initialMaxStreamDataBidirectionalLocal(options.limits().initialWindowSize())
        .build();
    Bootstrap bootstrap = new Bootstrap()
        .group(scheduler)
        .channel(udpChannel)
        .handler(codec);
    Channel udp = bootstrap.register().channel();
    Http3ClientConnection connection = new Http3ClientConnection(udp, this);
    ScheduledFuture<?> timeout = scheduler.schedule(() -> {
      if (!connection.isActive()) {
        connection.closed(Status.UNAVAILABLE
            .withDescription("HTTP/3 handshake with " + authority + " took over " + handshakeTimeoutMillis + " ms")
            .asException());
        connection.close();
      }
    }, handshakeTimeoutMillis, TimeUnit.MILLISECONDS);
    udp.closeFuture().addListener(closed -> timeout.cancel(false));
    udp.eventLoop().execute(() -> {
      // Registered by now (its registration was queued first); the queue writes no command before the handshake.
      udp.pipeline().addLast(connection.new CommandHandler());
      // The host name is looked up as the TCP client's are: by the system's resolver, on threads of its own, never
      // on the caller's thread or the event loop.
      HostResolver.SYSTEM.resolve(address, udp.eventLoop()).addListener((Future<InetSocketAddress> resolved) -> {
        if (!resolved.isSuccess()) {
          connection.closed(unavailable("Cannot resolve " + address.getHostString(), resolved.cause()));
          udp.close();
          return;
        }
        bind(udp, connection, resolved.getNow());
      });
    });
    return connection;
  }

  /** Binds {@code udp} and starts the QUIC handshake with {@code remote} on it. Event loop. */
  private void bind(Channel udp, Http3ClientConnection connection, InetSocketAddress remote) {
    // The wildcard of the server's address family: an IPv4 server is not reached from a socket bound to "::".
    InetSocketAddress local = remote.getAddress() instanceof Inet4Address
        ? new InetSocketAddress("0.0.0.0", 0) : new InetSocketAddress(0);
    udp.bind(local).addListener(bound -> {
      if (!bound.isSuccess()) {
        connection.closed(unavailable("Cannot bind a UDP socket", bound.cause()));
        udp.close();
        return;
      }
      QuicChannel.newBootstrap(udp)
          .handler(new ChannelInitializer<QuicChannel>() {
            @Override
            protected void initChannel(QuicChannel quic) {
              quic.pipeline().addLast(
                  new Http3ClientConnectionHandler(connection.controlStreamReader(), null, null, settings, true),
                  connection.streamLimitWatcher());
            }
          })
          .remoteAddress(remote)
          .connect()
          .addListener((Future<QuicChannel> handshake) -> {
            if (!handshake.isSuccess()) {
              connection.closed(unavailable("HTTP/3 connection to " + authority + " failed", handshake.cause()));
              udp.close();
              return;
            }
            QuicChannel quic = handshake.getNow();
            quic.closeFuture().addListener(closed -> {
              connection.closed(Status.UNAVAILABLE.withDescription("HTTP/3 connection to " + authority + " closed")
                  .asException());
              udp.close();
            });
            connection.connected(quic);
          });
    });
  }

  private static Throwable unavailable(String what, Throwable cause) {
    return Status.UNAVAILABLE.withDescription(what + ": " + cause).withCause(cause).asException();
  }

  /** A connection closed before its handshake was done. */
  void connectFailed() {
    connectFailed.run();
  }

  void connectionsChanged() {
    connectionListeners.changed();
  }

  @Override
  public boolean isTls() {
    return true;
  }

  @Override
  public synchronized boolean isActive() {
    return current != null && current.isActive();
  }

  @Override
  public ByteBufAllocator alloc() {
    return ByteBufAllocator.DEFAULT;
  }

  @Override
  public EventLoop scheduler() {
    return scheduler;
  }

  @Override
  public long nanoTime() {
    return scheduler.ticker().nanoTime();
  }

  @Override
  public synchronized WriteStats writeStats() {
    return current == null ? new WriteStats(0, 0)
        : new WriteStats(current.writeQueue().commandsWritten(), current.writeQueue().flushes());
  }

  @Override
  public void onConnectionsChanged(Runnable listener) {
    connectionListeners.add(listener);
  }

  /** Closes the connection; calls in flight fail with UNAVAILABLE. */
  @Override
  public synchronized void shutdown() {
    shutdown = true;
    if (current != null) {
      current.writeQueue().enqueue(
          new ForcefulCloseCommand(Status.UNAVAILABLE.withDescription("Client is closed")), true);
    }
  }

  @Override
  public String toString() {
    return "Http3ClientTransport{" + authority + ", " + options.protocol() + '}';
  }
}
