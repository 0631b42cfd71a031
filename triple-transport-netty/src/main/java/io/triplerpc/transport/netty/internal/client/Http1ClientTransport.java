package io.triplerpc.transport.netty.internal.client;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ReflectiveChannelFactory;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectDecoder;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.triplerpc.Metadata;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.Status;
import io.triplerpc.WriteStats;
import io.triplerpc.internal.stream.ClientStream;
import io.triplerpc.internal.stream.ClientTransport;
import io.triplerpc.internal.stream.ClientTransportOptions;
import io.triplerpc.internal.stream.FailedClientStream;
import io.triplerpc.internal.wire.GrpcHeaders;
import io.triplerpc.internal.wire.MessageEncoding;
import io.triplerpc.transport.netty.internal.EventLoops;
import io.triplerpc.transport.netty.internal.ConnectionListeners;
import io.triplerpc.transport.netty.internal.write.ForcefulCloseCommand;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayDeque;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import io.netty.util.AsciiString;
import io.netty.util.concurrent.Ticker;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The client transport to one address over HTTP/1.1: one call at a time per connection. A call takes an
 * idle connection, or opens one; its connection goes back to the idle ones when its exchange ended and
 * both sides keep it alive (at most {@value #MAX_IDLE} wait), and closes otherwise (a cancelled call, a
 * failed exchange, {@code connection: close}). The framings are those of HTTP/2; only the stream
 * underneath ({@link Http1ClientStream}) differs.
 */
final class Http1ClientTransport implements ClientTransport {

  /** Idle connections kept per address for the next calls; more close once their exchange ends. */
  static final int MAX_IDLE = 8;

  private static final AsciiString HTTPS = AsciiString.cached("https");

  private final InetSocketAddress address;
  private final String target;
  private final ClientTransportOptions options;
  /** The calls' timers run here. */
  private final EventLoop scheduler;
  private final Ticker ticker;
  private final ByteBufAllocator alloc;
  private final ReflectiveChannelFactory<? extends SocketChannel> channelFactory;
  /** For TLS connections (ALPN http/1.1), or null. */
  private final SslContext sslContext;
  /** Every connection of the client, so that its event loops stop only once they have closed. */
  private final ChannelGroup connections;
  private final AsciiString authority;
  private final AsciiString scheme;
  private final int maxInboundMessageSize;

  private final ConnectionListeners connectionListeners = new ConnectionListeners();
  /** Every open connection of this transport, idle or not. */
  private final Set<Http1ClientConnection> open = ConcurrentHashMap.newKeySet();
  /** Connections waiting for a call, the most recently used first. Guarded by itself. */
  private final ArrayDeque<Http1ClientConnection> idle = new ArrayDeque<>();
  /** Guarded by {@link #idle}. */
  private boolean shutdown;

  Http1ClientTransport(InetSocketAddress address, ClientTransportOptions options, EventLoopGroup group,
      ByteBufAllocator alloc, SslContext sslContext, ChannelGroup connections) {
    this.address = address;
    this.target = address.getHostString() + ':' + address.getPort();
    this.options = options;
    this.scheduler = group.next();
    this.ticker = scheduler.ticker();
    this.alloc = alloc;
    this.channelFactory = new ReflectiveChannelFactory<>(EventLoops.socketChannel());
    this.sslContext = sslContext;
    this.connections = connections;
    this.authority = AsciiString.cached(target);
    this.scheme = sslContext == null ? GrpcHeaders.HTTP : HTTPS;
    this.maxInboundMessageSize = options.limits().maxInboundMessageSize();
  }

  @Override
  public ClientStream newStream(
      MethodDescriptor<?, ?> method, Metadata headers, long timeoutNanos, MessageEncoding requestEncoding) {
    Http1ClientConnection connection;
    try {
      connection = acquire();
    } catch (IllegalStateException e) {
      return new FailedClientStream(Status.UNAVAILABLE.withDescription("Client is closed"));
    }
    ClientFraming framing = ClientFraming.of(options.protocol(), method, maxInboundMessageSize, requestEncoding,
        options.codec(), options.httpGet());
    return new Http1ClientStream(connection,
        NettyClientTransport.requestHeaders(scheme, authority, method.path(), framing, headers, timeoutNanos,
            requestEncoding),
        maxInboundMessageSize, framing, method.type());
  }

  /** An idle connection, or a new one. */
  private Http1ClientConnection acquire() {
    synchronized (idle) {
      if (shutdown) {
        throw new IllegalStateException("closed");
      }
      Http1ClientConnection c;
      while ((c = idle.pollFirst()) != null) {
        if (c.isUsable()) {
          return c;
        }
      }
    }
    return connect();
  }

  /** {@code connection}'s exchange ended and it may carry another. Event loop. */
  void release(Http1ClientConnection connection) {
    synchronized (idle) {
      if (!shutdown && connection.isUsable() && idle.size() < MAX_IDLE) {
        if (!idle.contains(connection)) {
          idle.addFirst(connection);
        }
        return;
      }
    }
    connection.close();
  }

  /** {@code connection} closed. Event loop. */
  void closed(Http1ClientConnection connection) {
    open.remove(connection);
    synchronized (idle) {
      idle.remove(connection);
    }
  }

  private Http1ClientConnection connect() {
    SocketChannel channel = ConnectionSlot.newChannel(channelFactory, options, alloc);
    Http1ClientConnection connection =
        new Http1ClientConnection(channel, this, Math.max(options.limits().initialWindowSize(), 64 * 1024));
    open.add(connection);
    connections.add(channel);
    channel.closeFuture().addListener(closed -> {
      connection.markClosed(Status.UNAVAILABLE.withDescription("Connection to " + target + " closed").asException());
      connectionListeners.changed();
    });
    HttpClientCodec codec = new HttpClientCodec(HttpObjectDecoder.DEFAULT_MAX_INITIAL_LINE_LENGTH,
        options.limits().maxHeaderListSize(), HttpObjectDecoder.DEFAULT_MAX_CHUNK_SIZE);
    if (sslContext != null) {
      SslHandler tls = sslContext.newHandler(alloc, address.getHostString(), address.getPort());
      channel.pipeline().addLast(tls, codec, connection.handler());
      tls.handshakeFuture().addListener(handshake -> {
        String protocol = tls.applicationProtocol();
        if (!handshake.isSuccess()) {
          connectFailed(connection, Status.UNAVAILABLE
              .withDescription("TLS handshake with " + target + " failed: " + handshake.cause().getMessage())
              .withCause(handshake.cause()));
        } else if (protocol != null && !ApplicationProtocolNames.HTTP_1_1.equals(protocol)) {
          connectFailed(connection, Status.UNAVAILABLE
              .withDescription(target + " did not negotiate HTTP/1.1 over TLS (ALPN: " + protocol + ")"));
        } else {
          connected(connection);
        }
      });
    } else {
      channel.pipeline().addLast(codec, connection.handler());
    }
    scheduler.register(channel).addListener((ChannelFuture registered) -> {
      if (!registered.isSuccess()) {
        channel.unsafe().closeForcibly();
        connectFailed(connection, Status.UNAVAILABLE.withCause(registered.cause())
            .withDescription("Cannot connect to " + target + ": " + registered.cause()));
        return;
      }
      InetSocketAddress resolved = address.isUnresolved()
          ? new InetSocketAddress(address.getHostString(), address.getPort()) : address;
      if (resolved.isUnresolved()) {
        connectFailed(connection, Status.UNAVAILABLE.withDescription("Cannot connect to " + target + ": "
            + new UnknownHostException(address.getHostString())));
        return;
      }
      channel.connect(resolved).addListener((ChannelFuture connected) -> {
        if (!connected.isSuccess()) {
          connectFailed(connection, Status.UNAVAILABLE.withCause(connected.cause())
              .withDescription("Cannot connect to " + target + ": " + connected.cause()));
        } else if (sslContext == null) {
          connected(connection);
        }
      });
    });
    return connection;
  }

  private void connected(Http1ClientConnection connection) {
    connection.markActive();
    connectionListeners.changed();
  }

  @Override
  public void onConnectionsChanged(Runnable listener) {
    connectionListeners.add(listener);
  }

  /** A connection attempt failed: its call fails with {@code status}, the connection is closed. */
  private void connectFailed(Http1ClientConnection connection, Status status) {
    connection.markClosed(status.asException());
    connection.close();
  }

  @Override
  public boolean isTls() {
    return sslContext != null;
  }

  @Override
  public boolean isActive() {
    for (Http1ClientConnection c : open) {
      if (c.isActive()) {
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

  /** Closes every connection, through its queue after what its call queued; calls in flight fail with UNAVAILABLE. */
  @Override
  public void shutdown() {
    synchronized (idle) {
      shutdown = true;
      idle.clear();
    }
    for (Http1ClientConnection c : open) {
      c.writeQueue().enqueue(new ForcefulCloseCommand(Status.UNAVAILABLE.withDescription("Client is closed")), true);
    }
  }

  @Override
  public WriteStats writeStats() {
    long commands = 0;
    long flushes = 0;
    for (Http1ClientConnection c : open) {
      commands += c.writeQueue().commandsWritten();
      flushes += c.writeQueue().flushes();
    }
    return new WriteStats(commands, flushes);
  }

  @Override
  public String toString() {
    return "Http1ClientTransport{" + target + ", " + options.protocol() + '}';
  }
}
