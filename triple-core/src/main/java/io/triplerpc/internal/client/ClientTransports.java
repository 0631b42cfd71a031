package io.triplerpc.internal.client;

import io.triplerpc.TripleClient;
import io.triplerpc.internal.stream.ClientTransport;

/**
 * Reaches the transport under a {@link TripleClient}, which the API does not show: for tests that
 * await the transport's signals ({@link ClientTransport#onConnectionsChanged}) rather than calling
 * again and again until a connection has changed.
 */
public final class ClientTransports {

  private ClientTransports() {}

  /**
   * The transport of {@code client}, a client of one address that this module built.
   *
   * @throws IllegalStateException if the client calls a cluster (one transport per instance)
   */
  public static ClientTransport of(TripleClient client) {
    TransportConnection connection = ((TripleClientImpl) client).connection();
    if (connection == null) {
      throw new IllegalStateException("A client of a cluster has one transport per instance");
    }
    return connection.transport();
  }
}
