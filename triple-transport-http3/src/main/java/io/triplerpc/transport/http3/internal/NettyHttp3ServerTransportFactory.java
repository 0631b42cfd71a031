package io.triplerpc.transport.http3.internal;

import io.triplerpc.internal.stream.Http3ServerTransportFactory;
import io.triplerpc.internal.stream.ServerTransport;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.internal.stream.ServerTransportOptions;
import io.triplerpc.transport.netty.internal.server.ServerBacklog;
import java.io.IOException;
import java.net.InetSocketAddress;

/** The HTTP/3 server transport plug-in, found by {@link java.util.ServiceLoader}. */
public final class NettyHttp3ServerTransportFactory implements Http3ServerTransportFactory {

  @Override
  public ServerTransport start(InetSocketAddress address, ServerTransport tcp, ServerTransportOptions options,
      ServerTransportListener listener) throws IOException {
    return Http3ServerTransport.start(address, options, listener,
        ServerBacklog.of(tcp, options.maxTotalPendingOutboundBytes()));
  }
}
