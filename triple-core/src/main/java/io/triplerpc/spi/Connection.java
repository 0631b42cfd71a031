package io.triplerpc.spi;

import io.triplerpc.ClientCallFactory;
import io.triplerpc.WriteStats;
import java.net.InetSocketAddress;

/**
 * The client's connections to one server address (reconnecting with backoff), for {@link Picker}s
 * to choose, and for calls to that address alone: {@link #newCall} makes one that goes only there,
 * with no retry but a transparent one of a stream the server never processed. Thread-safe; no
 * method blocks.
 */
public interface Connection extends ClientCallFactory {

  /** The server's address. */
  InetSocketAddress address();

  /** Whether a connection is up right now (a volatile read). */
  boolean isActive();

  /** Write-queue counters of this address's connections. */
  WriteStats writeStats();

  /**
   * Calls {@code listener} after each change of this address's connections: one became active, went
   * away (GOAWAY, lost, closed), or an attempt to open one failed (and later its backoff ended). For a
   * cluster that looks for servers again when one goes away, as a DNS name is resolved again. The
   * listener must be quick; any thread. Connections that report no changes ignore it (the default).
   */
  default void onConnectionsChanged(Runnable listener) {}

  /** Closes the connections; calls in flight fail with UNAVAILABLE. */
  void close();
}
