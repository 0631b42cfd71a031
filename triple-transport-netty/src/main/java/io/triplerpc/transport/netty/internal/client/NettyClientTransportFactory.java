package io.triplerpc.transport.netty.internal.client;

import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.EventLoopGroup;
import io.triplerpc.internal.stream.ClientTransport;
import io.triplerpc.internal.stream.ClientTransportFactory;
import io.triplerpc.internal.stream.TransportOptions;
import io.triplerpc.transport.netty.internal.EventLoops;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The Netty client transport plug-in, found by {@link java.util.ServiceLoader}. Owns the event loops
 * of its transports, created with the first one.
 */
public final class NettyClientTransportFactory implements ClientTransportFactory {

  private EventLoopGroup group;

  @Override
  public synchronized ClientTransport newTransport(InetSocketAddress address, TransportOptions options) {
    if (group == null) {
      int threads = options.ioThreads() > 0
          ? options.ioThreads()
          : Math.min(options.connectionsPerAddress(), Runtime.getRuntime().availableProcessors());
      group = EventLoops.newGroup(threads, "triple-client-io");
    }
    return new NettyClientTransport(address, options, group, PooledByteBufAllocator.DEFAULT);
  }

  @Override
  public synchronized void close() {
    if (group != null) {
      group.shutdownGracefully(0, 5, TimeUnit.SECONDS);
    }
  }
}
