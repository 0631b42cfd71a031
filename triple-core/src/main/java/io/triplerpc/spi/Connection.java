package io.triplerpc.spi;

import io.triplerpc.ClientCallFactory;
import io.triplerpc.WriteStats;
import java.net.InetSocketAddress;

/**
 * Calls to one server address over the client's connections to it (reconnecting with backoff).
 * Thread-safe; no method blocks.
 */
public interface Connection extends ClientCallFactory {

  /** The server's address. */
  InetSocketAddress address();

  /** Whether a connection is up right now (a volatile read). */
  boolean isActive();

  /** Write-queue counters of this address's connections. */
  WriteStats writeStats();

  /** Closes the connections; calls in flight fail with UNAVAILABLE. */
  void close();
}
