package io.triplerpc.internal.server;

import io.triplerpc.TripleServer;
import io.triplerpc.internal.stream.ServerTransport;

/**
 * Reaches the transport under a {@link TripleServer}, which the API does not show: for the tests of
 * other modules that await the transport's signals ({@link ServerTransport#onConnectionsChanged},
 * {@link ServerTransport#writesSettled}) rather than asking for counts again and again.
 */
public final class ServerTransports {

  private ServerTransports() {}

  /**
   * The transport of {@code server}, a server this module built and started.
   *
   * @throws IllegalStateException if it has not started
   */
  public static ServerTransport of(TripleServer server) {
    ServerTransport transport = ((TripleServerImpl) server).transport();
    if (transport == null) {
      throw new IllegalStateException("Server not started");
    }
    return transport;
  }
}
