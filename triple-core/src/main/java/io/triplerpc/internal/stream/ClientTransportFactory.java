package io.triplerpc.internal.stream;

import java.net.InetSocketAddress;

/** Makes client transports; a plug-in found with {@link java.util.ServiceLoader}. */
public interface ClientTransportFactory extends AutoCloseable {

  /** A transport to {@code address}; it connects lazily. */
  ClientTransport newTransport(InetSocketAddress address, ClientTransportOptions options);

  /** Releases shared resources (event loops) after every transport is shut down. */
  @Override
  void close();
}
