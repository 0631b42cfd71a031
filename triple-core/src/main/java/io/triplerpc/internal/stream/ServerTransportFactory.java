package io.triplerpc.internal.stream;

import java.io.IOException;
import java.net.InetSocketAddress;

/** Starts server transports; a plug-in found with {@link java.util.ServiceLoader}. */
public interface ServerTransportFactory {

  /**
   * Binds {@code address} and serves every stream through {@code listener}.
   *
   * @throws IOException if the address cannot be bound
   */
  ServerTransport start(InetSocketAddress address, ServerTransportOptions options, ServerTransportListener listener)
      throws IOException;
}
