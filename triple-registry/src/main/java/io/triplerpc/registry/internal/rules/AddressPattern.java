package io.triplerpc.registry.internal.rules;

import java.util.Locale;

/**
 * An address in a rule, as Dubbo's rules write them: {@code host} or {@code host:port}, where the host
 * is an IPv4 address whose parts may each be {@code *} or a range {@code 1-9}, an IPv4 network
 * {@code 10.0.0.0/8}, {@code 0.0.0.0} or {@code *} (any host), a host name, or a bracketed IPv6
 * literal; and the port a number or {@code *}. Immutable; {@link #matches} allocates nothing.
 */
public final class AddressPattern {

  private static final int ANY_PORT = -1;

  /** Kinds of host pattern. */
  private enum Kind { ANY, IPV4, CIDR, NAME }

  private final String text;
  private final Kind kind;
  /** IPV4: the low and high bound of each of the four parts; CIDR: [0] the network, [1] the mask. */
  private final int[] bounds;
  /** NAME: the host, lower case. */
  private final String name;
  private final int port;

  private AddressPattern(String text, Kind kind, int[] bounds, String name, int port) {
    this.text = text;
    this.kind = kind;
    this.bounds = bounds;
    this.name = name;
    this.port = port;
  }

  /** Parses {@code text}, or says why it is no address. */
  public static AddressPattern parse(String text) throws RuleException {
    String trimmed = text.trim();
    if (trimmed.isEmpty()) {
      throw new RuleException("empty address");
    }
    String host = trimmed;
    int port = ANY_PORT;
    if (trimmed.startsWith("[")) {
      int close = trimmed.indexOf(']');
      if (close < 0) {
        throw new RuleException("address " + text + ": no ']' after the IPv6 literal");
      }
      host = trimmed.substring(1, close);
      String rest = trimmed.substring(close + 1);
      if (!rest.isEmpty()) {
        if (rest.charAt(0) != ':') {
          throw new RuleException("address " + text + ": expected ':' after ']'");
        }
        port = parsePort(rest.substring(1), text);
      }
      if (host.isEmpty() || !host.matches("[0-9A-Fa-f:.]+")) {
        throw new RuleException("address " + text + ": not an IPv6 literal");
      }
      return new AddressPattern(trimmed, Kind.NAME, null, host.toLowerCase(Locale.ROOT), port);
    }
    int colon = trimmed.indexOf(':');
    if (colon >= 0) {
      if (trimmed.indexOf(':', colon + 1) >= 0) {
        throw new RuleException("address " + text + ": an IPv6 address goes in brackets");
      }
      host = trimmed.substring(0, colon);
      port = parsePort(trimmed.substring(colon + 1), text);
    }
    if (host.equals("*") || host.equals("0.0.0.0")) {
      return new AddressPattern(trimmed, Kind.ANY, null, null, port);
    }
    int slash = host.indexOf('/');
    if (slash >= 0) {
      int[] network = ipv4Bounds(host.substring(0, slash), text, false);
      int bits = parseInt(host.substring(slash + 1), 0, 32, "prefix length", text);
      int mask = bits == 0 ? 0 : -1 << (32 - bits);
      int address = (network[0] << 24) | (network[2] << 16) | (network[4] << 8) | network[6];
      return new AddressPattern(trimmed, Kind.CIDR, new int[] {address & mask, mask}, null, port);
    }
    if (looksLikeIpv4(host)) {
      return new AddressPattern(trimmed, Kind.IPV4, ipv4Bounds(host, text, true), null, port);
    }
    if (!host.matches("[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?") || host.matches("[0-9.]+")) {
      throw new RuleException("address " + text + ": not an IP address, a network or a host name");
    }
    return new AddressPattern(trimmed, Kind.NAME, null, host.toLowerCase(Locale.ROOT), port);
  }

  /** Whether the instance at {@code host:port} is one this pattern names. */
  public boolean matches(String host, int port) {
    return (this.port == ANY_PORT || this.port == port) && matchesHost(host);
  }

  /**
   * Whether this pattern names {@code host}, whatever its port: how Dubbo matches a consumer's own address
   * against a dynamic configuration's {@code addresses}.
   */
  public boolean matchesHost(String host) {
    switch (kind) {
      case ANY:
        return true;
      case NAME:
        return name.equalsIgnoreCase(host);
      case IPV4:
      case CIDR:
        return matchesIpv4(host);
      default:
        throw new AssertionError(kind);
    }
  }

  private boolean matchesIpv4(String host) {
    int address = 0;
    int part = 0;
    int value = -1;
    for (int i = 0, n = host.length(); i <= n; i++) {
      char c = i < n ? host.charAt(i) : '.';
      if (c == '.') {
        if (value < 0 || part == 4) {
          return false;
        }
        if (kind == Kind.IPV4 && (value < bounds[2 * part] || value > bounds[2 * part + 1])) {
          return false;
        }
        address = (address << 8) | value;
        part++;
        value = -1;
      } else if (c >= '0' && c <= '9' && value < 256) {
        value = (value < 0 ? 0 : value * 10) + (c - '0');
      } else {
        return false;
      }
    }
    if (part != 4) {
      return false;
    }
    return kind == Kind.IPV4 || (address & bounds[1]) == bounds[0];
  }

  private static boolean looksLikeIpv4(String host) {
    int dots = 0;
    for (int i = 0; i < host.length(); i++) {
      char c = host.charAt(i);
      if (c == '.') {
        dots++;
      } else if (!(c >= '0' && c <= '9') && c != '*' && c != '-') {
        return false;
      }
    }
    return dots == 3;
  }

  /** Each part's low and high bound; {@code *} and ranges only where {@code wildcards}. */
  private static int[] ipv4Bounds(String host, String text, boolean wildcards) throws RuleException {
    String[] parts = host.split("\\.", -1);
    if (parts.length != 4) {
      throw new RuleException("address " + text + ": an IPv4 address has four parts");
    }
    int[] bounds = new int[8];
    for (int i = 0; i < 4; i++) {
      String part = parts[i];
      int dash = part.indexOf('-');
      if (wildcards && part.equals("*")) {
        bounds[2 * i] = 0;
        bounds[2 * i + 1] = 255;
      } else if (wildcards && dash > 0) {
        bounds[2 * i] = parseInt(part.substring(0, dash), 0, 255, "address part", text);
        bounds[2 * i + 1] = parseInt(part.substring(dash + 1), 0, 255, "address part", text);
        if (bounds[2 * i] > bounds[2 * i + 1]) {
          throw new RuleException("address " + text + ": empty range " + part);
        }
      } else {
        bounds[2 * i] = parseInt(part, 0, 255, "address part", text);
        bounds[2 * i + 1] = bounds[2 * i];
      }
    }
    return bounds;
  }

  private static int parsePort(String port, String text) throws RuleException {
    return port.equals("*") ? ANY_PORT : parseInt(port, 0, 65_535, "port", text);
  }

  private static int parseInt(String digits, int min, int max, String what, String text)
      throws RuleException {
    if (digits.isEmpty() || digits.length() > 5 || !digits.chars().allMatch(c -> c >= '0' && c <= '9')) {
      throw new RuleException("address " + text + ": bad " + what + " '" + digits + "'");
    }
    int value = Integer.parseInt(digits);
    if (value < min || value > max) {
      throw new RuleException("address " + text + ": " + what + " " + value + " out of range");
    }
    return value;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof AddressPattern other && other.text.equals(text);
  }

  @Override
  public int hashCode() {
    return text.hashCode();
  }

  /** The pattern as the rule wrote it. */
  @Override
  public String toString() {
    return text;
  }
}
