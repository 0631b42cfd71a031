package io.triplerpc.transport.netty.internal.client;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ReflectiveChannelFactory;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ClientTransportOptions;
import io.triplerpc.transport.netty.internal.EventLoops;
import io.triplerpc.transport.netty.internal.write.ForcefulCloseCommand;
import java.net.InetSocketAddress;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One of the connections a client keeps to an address: connects lazily on first use, replaces a lost
 * connection on the next call, and after a failed attempt waits an exponentially growing, jittered
 * backoff before the next (calls during the wait fail fast with UNAVAILABLE).
 *
 * <p>The hot path, {@link #connection()} on a usable connection, is one volatile read; the lock is
 * taken only to connect.
 */
final class ConnectionSlot {

  private static final Logger log = LoggerFactory.getLogger(ConnectionSlot.class);
  private static final double BACKOFF_MULTIPLIER = 1.6;
  private static final double BACKOFF_JITTER = 0.2;

  private final InetSocketAddress address;
  /** {@code host:port}, for messages. */
  private final String target;
  private final ClientTransportOptions options;
  /**
   * The loop of every connection this slot opens, chosen once: the transport's timers run on it too,
   * so a call's deadline is scheduled on the loop that already carries the call, not one woken for it.
   */
  private final EventLoop loop;
  private final ByteBufAllocator alloc;
  private final ReflectiveChannelFactory<? extends SocketChannel> channelFactory;
  /** For TLS connections, or null. */
  private final SslContext sslContext;
  /** Every connection of the client, so that its event loops stop only once they have closed. */
  private final ChannelGroup connections;
  private final KeepAliveTime keepAliveTime;
  /** Told of each change of this slot's connections (see {@link io.triplerpc.internal.stream.ClientTransport#onConnectionsChanged}). */
  private final Runnable changed;

  /** The connection new streams go to; replaced when it is gone. */
  private volatile ClientConnection current;

  // Guarded by this.
  private long backoffMillis;
  private long retryAtNanos;
  private Status lastFailure;
  private boolean shutdown;

  ConnectionSlot(InetSocketAddress address, ClientTransportOptions options, EventLoopGroup group, ByteBufAllocator alloc,
      SslContext sslContext, ChannelGroup connections, KeepAliveTime keepAliveTime, Runnable changed) {
    this.sslContext = sslContext;
    this.changed = changed;
    this.keepAliveTime = keepAliveTime;
    this.connections = connections;
    this.address = address;
    this.target = address.getHostString() + ':' + address.getPort();
    this.options = options;
    this.loop = group.next();
    this.alloc = alloc;
    this.channelFactory = new ReflectiveChannelFactory<>(EventLoops.socketChannel());
    this.backoffMillis = options.initialBackoffMillis();
  }

  /**
   * The connection to open a stream on, connecting if there is none.
   *
   * @throws io.triplerpc.StatusException UNAVAILABLE while waiting out a backoff or after shutdown
   */
  ClientConnection connection() {
    ClientConnection c = current;
    if (c != null && c.isUsable()) {
      return c;
    }
    synchronized (this) {
      c = current;
      if (c != null && c.isUsable()) {
        return c;
      }
      if (shutdown) {
        throw Status.UNAVAILABLE.withDescription("Client is closed").asException();
      }
      long now = now();
      if (lastFailure != null && now - retryAtNanos < 0) {
        long waitMillis = TimeUnit.NANOSECONDS.toMillis(retryAtNanos - now);
        throw lastFailure.augmentDescription("Next connection attempt in " + waitMillis + " ms").asException();
      }
      c = connect();
      current = c;
      return c;
    }
  }

  /** The current connection, whatever its state, or null. */
  ClientConnection currentConnection() {
    return current;
  }

  boolean isActive() {
    ClientConnection c = current;
    return c != null && c.isActive();
  }

  /** A new, unregistered client socket as every client connection has it: no delay, keepalive, the connect timeout. */
  static SocketChannel newChannel(ReflectiveChannelFactory<? extends SocketChannel> channelFactory,
      ClientTransportOptions options, ByteBufAllocator alloc) {
    SocketChannel channel = channelFactory.newChannel();
    channel.config().setOption(ChannelOption.TCP_NODELAY, true);
    channel.config().setOption(ChannelOption.SO_KEEPALIVE, true);
    channel.config().setOption(ChannelOption.CONNECT_TIMEOUT_MILLIS, options.connectTimeoutMillis());
    channel.config().setAllocator(alloc);
    return channel;
  }

  private ClientConnection connect() {
    SocketChannel channel = newChannel(channelFactory, options, alloc);
    ClientConnection connection = new ClientConnection(channel, target, this);
    connections.add(channel);
    NettyClientHandler http2 = NettyClientHandler.create(connection, options, keepAliveTime);
    if (sslContext != null) {
      // HTTP/2 starts once TLS is up: until then the connection is not active, its calls wait, and a
      // failed handshake counts as a failed connection attempt (backoff included).
      SslHandler tls = sslContext.newHandler(alloc, address.getHostString(), address.getPort());
      channel.pipeline().addLast(tls);
      tls.handshakeFuture().addListener(handshake -> {
        String protocol = tls.applicationProtocol();
        if (!handshake.isSuccess()) {
          connectFailed(connection, Status.UNAVAILABLE
              .withDescription("TLS handshake with " + target + " failed: " + handshake.cause().getMessage())
              .withCause(handshake.cause()));
          channel.close();
        } else if (!ApplicationProtocolNames.HTTP_2.equals(protocol)) {
          connectFailed(connection, Status.UNAVAILABLE
              .withDescription(target + " did not negotiate HTTP/2 over TLS (ALPN: " + protocol + ")"));
          channel.close();
        } else {
          channel.pipeline().addLast(http2);
        }
      });
    } else {
      channel.pipeline().addLast(http2);
    }
    loop.register(channel).addListener((ChannelFuture registered) -> {
      if (!registered.isSuccess()) {
        // Never registered, so never reached by close(): its socket is closed here.
        channel.unsafe().closeForcibly();
        connectFailed(connection, registered.cause());
        return;
      }
      // Resolution happens here, on the event loop, as Netty's Bootstrap does it.
      InetSocketAddress target = address.isUnresolved()
          ? new InetSocketAddress(address.getHostString(), address.getPort())
          : address;
      if (target.isUnresolved()) {
        channel.close();
        connectFailed(connection, new java.net.UnknownHostException(address.getHostString()));
        return;
      }
      channel.connect(target).addListener((ChannelFuture connected) -> {
        if (!connected.isSuccess()) {
          channel.close();
          connectFailed(connection, connected.cause());
        }
      });
    });
    return connection;
  }

  private void connectFailed(ClientConnection connection, Throwable cause) {
    connectFailed(connection,
        Status.UNAVAILABLE.withDescription("Cannot connect to " + target + ": " + cause).withCause(cause));
  }

  /** A connection attempt failed with {@code status}: its calls fail, and the next attempt waits out the backoff. */
  private void connectFailed(ClientConnection connection, Status status) {
    Throwable cause = status.cause();
    long jittered;
    synchronized (this) {
      lastFailure = status;
      jittered = (long) (backoffMillis * (1 + BACKOFF_JITTER * (2 * ThreadLocalRandom.current().nextDouble() - 1)));
      retryAtNanos = now() + TimeUnit.MILLISECONDS.toNanos(jittered);
      backoffMillis = Math.min(options.maxBackoffMillis(), (long) (backoffMillis * BACKOFF_MULTIPLIER));
    }
    log.debug("Connection attempt to {} failed; next in about {} ms", target, backoffMillis, cause);
    backoffEnds(jittered);
    connection.markClosed(status.asException());
  }

  /**
   * Reports the end of the backoff, when a call may connect again, as a change of the connections. The
   * timer runs on the slot's loop, whose clock the backoff is counted by; none once the loop stops.
   */
  private void backoffEnds(long afterMillis) {
    if (loop.isShuttingDown()) {
      return;
    }
    try {
      loop.schedule(changed, afterMillis, TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException stopping) {
      // The client is closing: no call will connect again.
    }
  }

  /** The time of the event loops, by which backoffs are counted (a test's mock clock, say). */
  private long now() {
    return loop.ticker().nanoTime();
  }

  /** The event loop of this slot's connections. */
  EventLoop eventLoop() {
    return loop;
  }

  /** A connection finished its handshake: the backoff starts over. */
  void connected(ClientConnection connection) {
    synchronized (this) {
      lastFailure = null;
      backoffMillis = options.initialBackoffMillis();
    }
    changed.run();
  }

  /** A connection is going away; the next call opens a new one. */
  void lost(ClientConnection connection, Throwable cause) {
    log.debug("Connection to {} lost: {}", target, cause.toString());
    changed.run();
  }

  /** Closes the connection (GOAWAY; its calls fail with UNAVAILABLE); no new one opens. */
  void shutdown() {
    ClientConnection c;
    synchronized (this) {
      if (shutdown) {
        return;
      }
      shutdown = true;
      c = current;
    }
    if (c != null) {
      // Through the queue, after what the calls queued before it: GOAWAY, then the connection closes.
      // The drain is a task queued before the event loops shut down, so it runs.
      c.writeQueue().enqueue(new ForcefulCloseCommand(Status.UNAVAILABLE.withDescription("Client is closed")), true);
    }
  }
}
