package io.triplerpc.transport.netty.internal.client;

import java.util.concurrent.TimeUnit;

/**
 * An {@code h3} alternative a server advertised in its {@code Alt-Svc} header (RFC 7838) for the same host:
 * the UDP port to call it on, until when ({@code ma}, 24 hours when not given). Immutable.
 *
 * @param port the UDP port of HTTP/3
 * @param expiresAtNanos when the advertisement expires, on the clock {@link #parse} was given
 */
record AltSvc(int port, long expiresAtNanos) {

  /** RFC 7838's default {@code ma}: 24 hours. */
  static final long DEFAULT_MAX_AGE_SECONDS = 86_400;

  /** The value {@code clear}: the server withdraws every alternative. */
  static final AltSvc CLEAR = new AltSvc(0, Long.MIN_VALUE);

  /** Whether it still holds at {@code nowNanos}. */
  boolean isFresh(long nowNanos) {
    return this != CLEAR && nowNanos - expiresAtNanos < 0;
  }

  /**
   * The first {@code h3} alternative on the same host in {@code value} (an {@code Alt-Svc} header), as of
   * {@code nowNanos}; {@link #CLEAR} for {@code clear}; null if it names none (only other protocols, another
   * host, or nothing readable).
   */
  static AltSvc parse(CharSequence value, long nowNanos) {
    if (value == null) {
      return null;
    }
    String header = value.toString().trim();
    if (header.equals("clear")) {
      return CLEAR;
    }
    for (String alternative : header.split(",")) {
      String[] parts = alternative.split(";");
      String first = parts[0].trim();
      if (!first.startsWith("h3=\"") || !first.endsWith("\"")) {
        continue;
      }
      String authority = first.substring(4, first.length() - 1);
      int colon = authority.lastIndexOf(':');
      if (colon != 0) {
        // Another host (or no port): this client only follows its own host to another port.
        continue;
      }
      int port;
      try {
        port = Integer.parseInt(authority.substring(1));
      } catch (NumberFormatException e) {
        continue;
      }
      if (port <= 0 || port > 65_535) {
        continue;
      }
      long maxAge = DEFAULT_MAX_AGE_SECONDS;
      for (int i = 1; i < parts.length; i++) {
        String parameter = parts[i].trim();
        if (parameter.startsWith("ma=")) {
          try {
            maxAge = Long.parseLong(parameter.substring(3).trim());
          } catch (NumberFormatException e) {
            maxAge = -1;
          }
        }
      }
      if (maxAge < 0) {
        continue;
      }
      return new AltSvc(port, nowNanos + TimeUnit.SECONDS.toNanos(Math.min(maxAge, 100L * 365 * 86_400)));
    }
    return null;
  }
}
