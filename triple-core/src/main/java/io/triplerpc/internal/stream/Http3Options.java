package io.triplerpc.internal.stream;

/**
 * How a server serves HTTP/3 beside TCP. Immutable.
 *
 * @param port the UDP port; 0 for the TCP port's number
 * @param altSvcMaxAgeSeconds how long clients may remember the {@code Alt-Svc} of TCP responses; 0 sends none
 */
public record Http3Options(int port, long altSvcMaxAgeSeconds) {

  /** The TCP port's number; 24 hours of {@code Alt-Svc} (RFC 7838's default {@code ma}). */
  public static final Http3Options DEFAULTS = new Http3Options(0, 86_400);

  public Http3Options {
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("http3 udpPort must be 0 to 65535, not " + port);
    }
    Http2Limits.checkLimit(altSvcMaxAgeSeconds, "altSvcMaxAge");
  }

  /** The UDP port to bind beside a TCP server bound at {@code tcpPort}. */
  public int udpPort(int tcpPort) {
    return port == 0 ? tcpPort : port;
  }

  /**
   * The {@code Alt-Svc} value TCP responses carry for a server bound at {@code tcpPort}, such as
   * {@code h3=":8443"; ma=86400}; null for none.
   */
  public String altSvc(int tcpPort) {
    return altSvcMaxAgeSeconds == 0 ? null : "h3=\":" + udpPort(tcpPort) + "\"; ma=" + altSvcMaxAgeSeconds;
  }
}
