package io.triplerpc.transport.netty.internal.client;

import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.EventLoopGroup;
import io.netty.handler.ssl.SslContext;
import io.triplerpc.TlsConfig;
import io.triplerpc.internal.stream.ClientTransport;
import io.triplerpc.internal.stream.ClientTransportFactory;
import io.triplerpc.internal.stream.TransportOptions;
import io.triplerpc.transport.netty.internal.EventLoops;
import io.triplerpc.transport.netty.internal.Tls;
import java.net.InetSocketAddress;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The Netty client transport plug-in, found by {@link java.util.ServiceLoader}. Owns the event loops
 * of its transports, created with the first one.
 */
public final class NettyClientTransportFactory implements ClientTransportFactory {

  private EventLoopGroup group;
  /** Guarded by this; keyed by identity: a client hands every transport the same TlsConfig. */
  private final Map<TlsConfig, SslContext> sslContexts = new IdentityHashMap<>();

  @Override
  public synchronized ClientTransport newTransport(InetSocketAddress address, TransportOptions options) {
    if (group == null) {
      int threads = options.ioThreads() > 0
          ? options.ioThreads()
          : Math.min(options.connectionsPerAddress(), Runtime.getRuntime().availableProcessors());
      group = EventLoops.newGroup(threads, "triple-client-io");
    }
    // One TLS context per client, not per address: a cluster's transports share it (reading the PEM
    // files and building the context again for every server would cost each first call).
    SslContext sslContext = null;
    if (options.tls() != null) {
      sslContext = sslContexts.computeIfAbsent(options.tls(), Tls::clientContext);
    }
    return new NettyClientTransport(address, options, group, PooledByteBufAllocator.DEFAULT, sslContext);
  }

  @Override
  public synchronized void close() {
    if (group != null) {
      group.shutdownGracefully(0, 5, TimeUnit.SECONDS);
    }
  }
}
