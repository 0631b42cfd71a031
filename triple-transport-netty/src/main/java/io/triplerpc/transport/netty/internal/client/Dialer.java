package io.triplerpc.transport.netty.internal.client;

import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.ReflectiveChannelFactory;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.concurrent.Future;
import io.triplerpc.Status;
import io.triplerpc.internal.stream.ClientTransportOptions;
import io.triplerpc.transport.netty.internal.IoTransport;
import java.net.InetSocketAddress;
import java.util.function.Consumer;

/**
 * Opens a client's connections to one address, over HTTP/2 or HTTP/1.1 alike: a socket configured as
 * every client socket is, TLS with the protocol checked, the host resolved off the event loop
 * ({@link HostResolver}), the connect. What runs over the connection is the caller's.
 */
final class Dialer {

  private final InetSocketAddress address;
  /** {@code host:port}, for messages and the {@code :authority}. */
  private final String target;
  private final ClientTransportOptions options;
  private final ByteBufAllocator alloc;
  private final ReflectiveChannelFactory<? extends SocketChannel> channelFactory;
  /** For TLS connections, or null. */
  private final SslContext sslContext;
  /** Every connection of the client, so that its event loops stop only once they have closed. */
  private final ChannelGroup connections;
  private final HostResolver resolver;

  Dialer(InetSocketAddress address, ClientTransportOptions options, ByteBufAllocator alloc, SslContext sslContext,
      ChannelGroup connections, HostResolver resolver) {
    this(address, options, IoTransport.resolve(options.transport()), alloc, sslContext, connections, resolver);
  }

  /** A dialer of {@code io}'s sockets, the transport of the event loops they will be registered with. */
  Dialer(InetSocketAddress address, ClientTransportOptions options, IoTransport io, ByteBufAllocator alloc,
      SslContext sslContext, ChannelGroup connections, HostResolver resolver) {
    this.address = address;
    this.target = address.getHostString() + ':' + address.getPort();
    this.options = options;
    this.alloc = alloc;
    this.channelFactory = new ReflectiveChannelFactory<>(io.socketChannel());
    this.sslContext = sslContext;
    this.connections = connections;
    this.resolver = resolver;
  }

  String target() {
    return target;
  }

  ClientTransportOptions options() {
    return options;
  }

  ByteBufAllocator alloc() {
    return alloc;
  }

  boolean isTls() {
    return sslContext != null;
  }

  /** A new, unregistered socket with no delay, keepalive and the connect timeout, among the client's connections. */
  SocketChannel newChannel() {
    SocketChannel channel = channelFactory.newChannel();
    channel.config().setOption(ChannelOption.TCP_NODELAY, true);
    channel.config().setOption(ChannelOption.SO_KEEPALIVE, true);
    channel.config().setOption(ChannelOption.CONNECT_TIMEOUT_MILLIS, options.connectTimeoutMillis());
    channel.config().setAllocator(alloc);
    connections.add(channel);
    return channel;
  }

  /**
   * With TLS, adds its handler to {@code channel}'s pipeline: {@code up} runs once the handshake
   * agreed on the transport's protocol (HTTP/2 by ALPN; HTTP/1.1 by ALPN or without it), {@code failed}
   * with UNAVAILABLE otherwise, then the channel closes (so the calls hear the cause, not the close). Without TLS, nothing.
   */
  void addTls(SocketChannel channel, Consumer<Status> failed, Runnable up) {
    if (sslContext == null) {
      return;
    }
    SslHandler tls = sslContext.newHandler(alloc, address.getHostString(), address.getPort());
    channel.pipeline().addLast(tls);
    tls.handshakeFuture().addListener(handshake -> {
      String protocol = tls.applicationProtocol();
      boolean agreed = options.http1()
          ? protocol == null || ApplicationProtocolNames.HTTP_1_1.equals(protocol)
          : ApplicationProtocolNames.HTTP_2.equals(protocol);
      if (!handshake.isSuccess()) {
        failed.accept(Status.UNAVAILABLE
            .withDescription("TLS handshake with " + target + " failed: " + handshake.cause().getMessage())
            .withCause(handshake.cause()));
        channel.close();
      } else if (!agreed) {
        failed.accept(Status.UNAVAILABLE.withDescription(target + " did not negotiate "
            + (options.http1() ? "HTTP/1.1" : "HTTP/2") + " over TLS (ALPN: " + protocol + ")"));
        channel.close();
      } else {
        up.run();
      }
    });
  }

  /**
   * Registers {@code channel} on {@code loop}, resolves the address and connects: {@code connected} runs
   * on the loop once the socket is connected (before TLS), {@code failed} with UNAVAILABLE naming the
   * address and the cause if any step fails, then the channel closes.
   */
  void connect(EventLoop loop, SocketChannel channel, Consumer<Status> failed, Runnable connected) {
    loop.register(channel).addListener((ChannelFuture registered) -> {
      if (!registered.isSuccess()) {
        // Never registered, so never reached by close(): its socket is closed here.
        channel.unsafe().closeForcibly();
        failed.accept(cannotConnect(registered.cause()));
        return;
      }
      resolver.resolve(address, loop).addListener((Future<InetSocketAddress> resolved) -> {
        if (!resolved.isSuccess()) {
          failed.accept(cannotConnect(resolved.cause()));
          channel.close();
          return;
        }
        channel.connect(resolved.getNow()).addListener((ChannelFuture done) -> {
          if (done.isSuccess()) {
            connected.run();
          } else {
            failed.accept(cannotConnect(done.cause()));
            channel.close();
          }
        });
      });
    });
  }

  private Status cannotConnect(Throwable cause) {
    return Status.UNAVAILABLE.withDescription("Cannot connect to " + target + ": " + cause).withCause(cause);
  }
}
