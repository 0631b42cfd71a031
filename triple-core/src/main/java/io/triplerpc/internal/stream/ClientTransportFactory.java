package io.triplerpc.internal.stream;

import java.net.InetSocketAddress;

/** Makes client transports; a plug-in found with {@link java.util.ServiceLoader}. */
public interface ClientTransportFactory extends AutoCloseable {

  /**
   * Checks, when a client is built, that transports of {@code options} can be made here: a client of
   * many servers makes its transports only as it finds the servers.
   *
   * @throws IllegalStateException if they cannot (a transport the machine cannot run), saying why
   */
  default void check(ClientTransportOptions options) {}

  /** A transport to {@code address}; it connects lazily. */
  ClientTransport newTransport(InetSocketAddress address, ClientTransportOptions options);

  /** Releases shared resources (event loops) after every transport is shut down. */
  @Override
  void close();
}
