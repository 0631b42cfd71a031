package io.triplerpc.spi;

import java.net.InetSocketAddress;

/** Opens connections with a client's settings (TLS, limits, event loops, callback executor). */
@FunctionalInterface
public interface Connector {

  /** A connection to {@code address}; it connects lazily, on its first call. Never blocks. */
  Connection connect(InetSocketAddress address);
}
