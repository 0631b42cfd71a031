package io.triplerpc.transport.netty.internal.server;

import io.triplerpc.internal.stream.ServerTransport;
import io.triplerpc.internal.stream.ServerTransportFactory;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.internal.stream.ServerTransportOptions;
import java.io.IOException;
import java.net.InetSocketAddress;

/** The Netty server transport plug-in, found by {@link java.util.ServiceLoader}. */
public final class NettyServerTransportFactory implements ServerTransportFactory {

  @Override
  public ServerTransport start(InetSocketAddress address, ServerTransportOptions options, ServerTransportListener listener)
      throws IOException {
    return NettyServerTransport.start(address, options, listener);
  }
}
