package io.triplerpc.opentelemetry.internal;

/**
 * What a client span says of the servers it calls ({@code server.address}, {@code server.port}), read
 * from the target the client was built with, as the gRPC semantic conventions read a channel's target.
 *
 * @param address the host, or the whole target when it names a group of servers in another way
 * @param port the port, or -1 when the target has none
 */
public record ServerAddress(String address, int port) {

  /**
   * {@code host:port} and {@code [ipv6]:port} give their host and port; {@code dns:///host:port} (with
   * or without an authority) the same; any other target with a scheme, or a target without a port, is
   * the address as it is.
   *
   * @throws IllegalArgumentException if {@code target} is empty
   */
  public static ServerAddress parse(String target) {
    if (target.isEmpty()) {
      throw new IllegalArgumentException("Empty target");
    }
    int scheme = target.indexOf("://");
    if (scheme >= 0) {
      if (!target.regionMatches(true, 0, "dns", 0, scheme) || scheme != 3) {
        return new ServerAddress(target, -1);
      }
      String endpoint = target.substring(target.indexOf('/', scheme + 3) + 1);
      ServerAddress dns = endpoint.isEmpty() ? null : hostAndPort(endpoint);
      return dns != null ? dns : new ServerAddress(target, -1);
    }
    ServerAddress address = hostAndPort(target);
    return address != null ? address : new ServerAddress(target, -1);
  }

  /** {@code host:port} or {@code [ipv6]:port}, or null if {@code endpoint} is neither. */
  private static ServerAddress hostAndPort(String endpoint) {
    int colon = endpoint.lastIndexOf(':');
    if (colon <= 0 || colon == endpoint.length() - 1) {
      return null;
    }
    String host = endpoint.substring(0, colon);
    if (host.startsWith("[") && host.endsWith("]")) {
      host = host.substring(1, host.length() - 1);
    } else if (host.indexOf(':') >= 0) {
      return null; // a bare IPv6 address: its last group is no port
    }
    int port;
    try {
      port = Integer.parseInt(endpoint.substring(colon + 1));
    } catch (NumberFormatException e) {
      return null;
    }
    if (host.isEmpty() || port < 0 || port > 65535) {
      return null;
    }
    return new ServerAddress(host, port);
  }
}
