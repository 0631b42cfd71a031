package io.triplerpc.internal.stream;

import java.net.InetSocketAddress;
import java.util.ServiceLoader;

/**
 * Makes a client's HTTP/3 transports; the plug-in of {@code triple-transport-http3}, found with
 * {@link ServiceLoader}, so that clients without HTTP/3 carry no QUIC library. The TCP transport's
 * factory asks it for the transports of a client built with {@code http3()}.
 */
public interface Http3ClientTransportFactory extends ClientTransportFactory {

  /** The artifact that brings the plug-in, as a build error names it. */
  String ARTIFACT = Http3ServerTransportFactory.ARTIFACT;

  /**
   * A transport to {@code address} over HTTP/3 that runs {@code connectFailed} when a connection could not
   * be made (no handshake within the fallback time of {@code options}' {@link Http3ClientOptions}, or the
   * connect timeout without one), before the calls that waited for it fail unprocessed.
   */
  ClientTransport newTransport(InetSocketAddress address, ClientTransportOptions options, Runnable connectFailed);

  @Override
  default ClientTransport newTransport(InetSocketAddress address, ClientTransportOptions options) {
    return newTransport(address, options, () -> {});
  }

  /** A new instance of the plug-in on the class path of this interface's loader, or null if there is none. */
  static Http3ClientTransportFactory find() {
    return ServiceLoader.load(Http3ClientTransportFactory.class, Http3ClientTransportFactory.class.getClassLoader())
        .findFirst().orElse(null);
  }
}
