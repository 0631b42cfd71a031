package io.triplerpc.transport.http3.internal;

import io.netty.channel.EventLoopGroup;
import io.netty.handler.codec.quic.QuicSslContext;
import io.triplerpc.TlsConfig;
import io.triplerpc.internal.stream.ClientTransport;
import io.triplerpc.internal.stream.ClientTransportOptions;
import io.triplerpc.internal.stream.Http3ClientTransportFactory;
import io.triplerpc.transport.netty.internal.EventLoops;
import java.net.InetSocketAddress;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP/3 client plug-in, found with {@link java.util.ServiceLoader}: one per client, its transports on
 * one event loop of its own (QUIC connections, each on a UDP socket), taken with the first transport.
 */
public final class NettyHttp3ClientTransportFactory implements Http3ClientTransportFactory {

  /** Guarded by this. */
  private EventLoopGroup group;
  /** Guarded by this; keyed by identity: a client hands every transport the same TlsConfig. */
  private final Map<TlsConfig, QuicSslContext> tlsContexts = new IdentityHashMap<>();
  private boolean closed;

  @Override
  public synchronized ClientTransport newTransport(InetSocketAddress address, ClientTransportOptions options,
      Runnable connectFailed) {
    if (closed) {
      throw new IllegalStateException("The client is closed");
    }
    if (group == null) {
      group = EventLoops.newGroup(1, "triple-http3-client");
    }
    QuicSslContext tls = tlsContexts.computeIfAbsent(options.tls(), QuicTls::clientContext);
    return new Http3ClientTransport(address, options, group, tls, connectFailed);
  }

  /** Stops the event loop once the connections had a moment to close (their transports were shut down first). */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (group != null) {
      group.shutdownGracefully(100, 5_000, TimeUnit.MILLISECONDS);
    }
  }
}
