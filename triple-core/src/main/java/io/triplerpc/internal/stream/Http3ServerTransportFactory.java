package io.triplerpc.internal.stream;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ServiceLoader;

/**
 * Starts a server's HTTP/3 transport on a UDP port, beside its TCP one; the plug-in of
 * {@code triple-transport-http3}, found with {@link ServiceLoader}, so that servers without HTTP/3 carry
 * no QUIC library.
 */
public interface Http3ServerTransportFactory {

  /** The artifact that brings the plug-in, as a build error names it. */
  String ARTIFACT = "io.triplerpc:triple-transport-http3";

  /**
   * Binds {@code address} (UDP) and serves every request stream through {@code listener}, with
   * {@code options}' TLS, limits and timers, beside {@code tcp}, the server's TCP transport, whose server-wide
   * limits (the unread responses of {@code maxTotalPendingOutboundBytes}) its connections count in.
   *
   * @throws IOException if the address cannot be bound
   */
  ServerTransport start(InetSocketAddress address, ServerTransport tcp, ServerTransportOptions options,
      ServerTransportListener listener) throws IOException;

  /** The plug-in on the class path of this interface's loader, or null if there is none. */
  static Http3ServerTransportFactory find() {
    return ServiceLoader.load(Http3ServerTransportFactory.class, Http3ServerTransportFactory.class.getClassLoader())
        .findFirst().orElse(null);
  }
}
