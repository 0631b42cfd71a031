package io.triplerpc.internal.stream;

import java.time.Duration;

/**
 * How a server judges its clients' pings and how long it lets a connection live and read; grpc-java's
 * names and meanings. Durations are in nanoseconds, {@link KeepAlive#OFF} for none. Immutable.
 *
 * @param permitKeepAliveTimeNanos the shortest interval between a client's PINGs the server lets
 *     pass; a client that pings more often (three times) gets GOAWAY ENHANCE_YOUR_CALM
 *     "too_many_pings"
 * @param permitKeepAliveWithoutCalls whether a client may ping a connection without calls at that
 *     interval (otherwise it may ping it once per two hours)
 * @param maxConnectionIdleNanos how long a connection may have no calls before the server closes it
 *     gracefully
 * @param maxConnectionAgeNanos how long a connection may live (give or take 10%) before the server
 *     closes it gracefully
 * @param maxConnectionAgeGraceNanos how long the calls of a connection closed for its age may still
 *     run before it is closed forcefully
 * @param handshakeTimeoutNanos how long a new connection has to choose its protocol (TLS handshake,
 *     then the HTTP/2 preface or an HTTP/1.1 request's headers)
 * @param httpHeaderReadTimeoutNanos how long an HTTP/1.1 request's line and headers may take to arrive
 *     once its first byte has
 * @param httpBodyIdleTimeoutNanos how long an HTTP/1.1 request body may go without a byte arriving
 */
public record ServerConnectionTimers(
    long permitKeepAliveTimeNanos,
    boolean permitKeepAliveWithoutCalls,
    long maxConnectionIdleNanos,
    long maxConnectionAgeNanos,
    long maxConnectionAgeGraceNanos,
    long handshakeTimeoutNanos,
    long httpHeaderReadTimeoutNanos,
    long httpBodyIdleTimeoutNanos) {

  /**
   * grpc-java's: clients may ping every 5 min while they have calls (Go's too), connections live as
   * long as they like, 120 s to choose a protocol; and nginx's 60 s ({@code client_header_timeout},
   * {@code client_body_timeout}) for an HTTP/1.1 request's headers, and between bytes of its body.
   */
  public static final ServerConnectionTimers DEFAULTS = new ServerConnectionTimers(
      Duration.ofMinutes(5).toNanos(), false, KeepAlive.OFF, KeepAlive.OFF, KeepAlive.OFF,
      Duration.ofSeconds(120).toNanos(), Duration.ofSeconds(60).toNanos(), Duration.ofSeconds(60).toNanos());

  public ServerConnectionTimers {
    Http2Limits.checkLimit(permitKeepAliveTimeNanos, "permitKeepAliveTime");
    Http2Limits.positive(maxConnectionIdleNanos, "maxConnectionIdle");
    Http2Limits.positive(maxConnectionAgeNanos, "maxConnectionAge");
    Http2Limits.checkLimit(maxConnectionAgeGraceNanos, "maxConnectionAgeGrace");
    Http2Limits.positive(handshakeTimeoutNanos, "handshakeTimeout");
    Http2Limits.positive(httpHeaderReadTimeoutNanos, "httpHeaderReadTimeout");
    Http2Limits.positive(httpBodyIdleTimeoutNanos, "httpBodyIdleTimeout");
  }
}
