package io.triplerpc.transport.http3.internal;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.codec.http3.DefaultHttp3SettingsFrame;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.http3.Http3ServerConnectionHandler;
import io.netty.handler.codec.http3.Http3SettingIdentifier;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.triplerpc.WriteStats;
import io.triplerpc.internal.stream.KeepAlive;
import io.triplerpc.internal.stream.ServerTransport;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.internal.stream.ServerTransportOptions;
import io.triplerpc.transport.netty.internal.server.ServerBacklog;
import io.triplerpc.transport.netty.internal.ConnectionListeners;
import io.triplerpc.transport.netty.internal.EventLoops;
import io.triplerpc.transport.netty.internal.IoTransport;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A server's HTTP/3: one UDP socket, on which Netty's QUIC codec (quiche) keeps every connection, each
 * with an {@link Http3ServerConnection} and, per request stream, an {@link Http3Exchange}. The HTTP/2
 * rules in their QUIC form: {@code maxConcurrentStreams} is the bidirectional streams a client may open
 * ({@code initial_max_streams_bidi}, renewed as they close), the header limit is
 * {@code SETTINGS_MAX_FIELD_SECTION_SIZE}, the windows are QUIC's stream and connection data limits,
 * {@code maxConnectionIdle} is QUIC's idle timeout.
 *
 * <p>All connections share the socket's event loop, one thread: services run on the server's executor as
 * on TCP, so that loop only moves frames. Spreading connections over loops (Netty's
 * {@code QuicCodecDispatcher} with {@code SO_REUSEPORT}) is left for later.
 */
final class Http3ServerTransport implements ServerTransport {

  private static final Logger log = LoggerFactory.getLogger(Http3ServerTransport.class);

  /** QUIC's idle timeout when the server sets no {@code maxConnectionIdle}: a client gone silently is forgotten. */
  static final long DEFAULT_IDLE_TIMEOUT_SECONDS = 300;

  private final EventLoopGroup group;
  private final ChannelGroup connections = new DefaultChannelGroup("triple-http3", GlobalEventExecutor.INSTANCE);
  private final ConnectionListeners connectionListeners = new ConnectionListeners();
  private final CompletableFuture<Void> termination = new CompletableFuture<>();
  private final long drainGraceMillis;
  private volatile Channel socket;
  private volatile boolean shuttingDown;

  private Http3ServerTransport(EventLoopGroup group, long drainGraceMillis) {
    this.group = group;
    this.drainGraceMillis = drainGraceMillis;
  }

  /**
   * Binds {@code address} (UDP). Waits for the bind, as the TCP transport does: server start-up, never a
   * call path.
   */
  static Http3ServerTransport start(InetSocketAddress address, ServerTransportOptions options,
      ServerTransportListener listener, ServerBacklog serverBacklog) throws IOException {
    QuicSslContext tls = QuicTls.serverContext(options.tls());
    IoTransport io = IoTransport.resolve(options.transport());
    EventLoopGroup group = io.newGroup(1, "triple-http3");
    Http3ServerTransport transport = new Http3ServerTransport(group, options.drainGraceMillis());
    long idleNanos = options.timers().maxConnectionIdleNanos();
    long idleMillis = KeepAlive.on(idleNanos)
        ? Math.max(1, TimeUnit.NANOSECONDS.toMillis(idleNanos))
        : TimeUnit.SECONDS.toMillis(DEFAULT_IDLE_TIMEOUT_SECONDS);
    DefaultHttp3SettingsFrame settings = new DefaultHttp3SettingsFrame();
    settings.put(Http3SettingIdentifier.HTTP3_SETTINGS_MAX_FIELD_SECTION_SIZE.id(),
        (long) options.limits().maxHeaderListSize());
    ChannelHandler codec = Http3.newQuicServerCodecBuilder()
        .sslContext(tls)
        .maxIdleTimeout(idleMillis, TimeUnit.MILLISECONDS)
        .initialMaxStreamsBidirectional(options.maxConcurrentStreams())
        .initialMaxStreamDataBidirectionalRemote(options.limits().initialWindowSize())
        .initialMaxStreamDataBidirectionalLocal(options.limits().initialWindowSize())
        .initialMaxData(options.limits().maxWindowSize())
        .tokenHandler(NoRetry.INSTANCE)
        .handler(new ChannelInitializer<QuicChannel>() {
          @Override
          protected void initChannel(QuicChannel connection) {
            if (transport.shuttingDown) {
              connection.close();
              return;
            }
            transport.connections.add(connection);
            connection.closeFuture().addListener(closed -> transport.connectionsChanged());
            transport.connectionsChanged();
            Http3ServerConnection http3 = new Http3ServerConnection(connection, transport.drainGraceMillis,
                options.limits().maxPendingOutboundBytes(), serverBacklog);
            connection.pipeline().addLast(new Http3ServerConnectionHandler(
                new ChannelInitializer<QuicStreamChannel>() {
                  @Override
                  protected void initChannel(QuicStreamChannel stream) {
                    stream.pipeline().addLast(new Http3Exchange(http3, listener, options));
                  }
                }, null, null, settings, true));
            connection.pipeline().addLast(http3);
          }
        })
        .build();
    ChannelFuture bind = new Bootstrap()
        .group(group)
        .channel(io.datagramChannel())
        .handler(codec)
        .bind(address);
    transport.socket = EventLoops.awaitBind(bind, "UDP " + address, () -> group.shutdownGracefully(0, 5, TimeUnit.SECONDS));
    log.info("Triple server serving HTTP/3 on UDP {} ({})", transport.localAddress(), io);
    return transport;
  }

  private void connectionsChanged() {
    connectionListeners.changed();
  }

  @Override
  public InetSocketAddress localAddress() {
    return (InetSocketAddress) socket.localAddress();
  }

  @Override
  public int openConnections() {
    return connections.size();
  }

  /** None: request streams write to their QUIC channels, through no write queue. */
  @Override
  public WriteStats writeStats() {
    return new WriteStats(0, 0);
  }

  @Override
  public void onConnectionsChanged(Runnable listener) {
    connectionListeners.add(listener);
  }

  @Override
  public CompletableFuture<Void> writesSettled() {
    List<CompletableFuture<Void>> loops = new ArrayList<>();
    for (Channel connection : connections) {
      loops.add(CompletableFuture.runAsync(() -> {}, connection.eventLoop()));
    }
    return CompletableFuture.allOf(loops.toArray(new CompletableFuture<?>[0]));
  }

  /**
   * New connections are refused; each open one gets GOAWAY and closes once its requests are answered. The
   * socket carries them all, so it closes last, when the last connection has.
   */
  @Override
  public void shutdown() {
    if (shuttingDown || termination.isDone()) {
      return;
    }
    shuttingDown = true;
    for (Channel connection : connections) {
      connection.eventLoop().execute(() -> Http3ServerConnection.of(connection).shutdown());
    }
    closeSocketWhenConnectionsClose();
  }

  @Override
  public void shutdownNow() {
    if (termination.isDone()) {
      return;
    }
    shuttingDown = true;
    for (Channel connection : connections) {
      connection.eventLoop().execute(() -> Http3ServerConnection.of(connection).shutdownNow());
    }
    closeSocketWhenConnectionsClose();
  }

  private void closeSocketWhenConnectionsClose() {
    connections.newCloseFuture().addListener(done -> {
      if (!connections.isEmpty()) {
        closeSocketWhenConnectionsClose();
        return;
      }
      socket.close().addListener(closed -> group.shutdownGracefully(0, 5, TimeUnit.SECONDS)
          .addListener(stopped -> termination.complete(null)));
    });
  }

  @Override
  public CompletableFuture<Void> terminationFuture() {
    return termination;
  }
}
