package io.triplerpc.transport.http3.internal;

import io.netty.channel.EventLoopGroup;
import io.netty.handler.codec.quic.QuicSslContext;
import io.triplerpc.TlsConfig;
import io.triplerpc.internal.stream.ClientTransport;
import io.triplerpc.internal.stream.ClientTransportOptions;
import io.triplerpc.internal.stream.Http3ClientTransportFactory;
import io.triplerpc.transport.netty.internal.IoTransport;
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
  /** The I/O of {@link #group}; guarded by this. */
  private IoTransport io;
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
      // The client's transport(...), else the JVM's default: one client, one choice, as over TCP.
      io = IoTransport.resolve(options.transport());
      group = io.newGroup(1, "triple-http3-client");
    }
    QuicSslContext tls = tlsContexts.computeIfAbsent(options.tls(), QuicTls::clientContext);
    return new Http3ClientTransport(address, options, group, io.datagramChannel(), tls, connectFailed);
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
