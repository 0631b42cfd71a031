package io.triplerpc.internal.stream;

import java.time.Duration;

/**
 * The timers of a connection's life, resolved once when a client or server is built; grpc-java's
 * names and meanings. Every duration is in nanoseconds, {@link #OFF} for none. Immutable.
 *
 * @param keepAliveTimeNanos silence on a connection (nothing read) after which a PING goes out
 * @param keepAliveTimeoutNanos how long a PING may go unanswered (nothing read) before the connection
 *     is taken for dead and closed
 * @param keepAliveWithoutCalls client only: whether to ping a connection that has no calls
 * @param permitKeepAliveTimeNanos server only: the shortest interval between a client's PINGs the
 *     server lets pass; a client that pings more often (three times) gets GOAWAY ENHANCE_YOUR_CALM
 *     "too_many_pings"
 * @param permitKeepAliveWithoutCalls server only: whether a client may ping a connection without
 *     calls at that interval (otherwise it may ping it once per two hours)
 * @param maxConnectionIdleNanos server only: how long a connection may have no calls before the
 *     server closes it gracefully
 * @param maxConnectionAgeNanos server only: how long a connection may live (give or take 10%) before
 *     the server closes it gracefully
 * @param maxConnectionAgeGraceNanos server only: how long the calls of a connection closed for its
 *     age may still run before it is closed forcefully
 * @param handshakeTimeoutNanos server only: how long a new connection has to choose its protocol
 *     (TLS handshake, then the HTTP/2 preface or an HTTP/1.1 request's headers)
 * @param httpHeaderReadTimeoutNanos server only: how long an HTTP/1.1 request's line and headers
 *     may take to arrive once its first byte has
 * @param httpBodyIdleTimeoutNanos server only: how long an HTTP/1.1 request body may go without a
 *     byte arriving
 */
public record ConnectionTimers(
    long keepAliveTimeNanos,
    long keepAliveTimeoutNanos,
    boolean keepAliveWithoutCalls,
    long permitKeepAliveTimeNanos,
    boolean permitKeepAliveWithoutCalls,
    long maxConnectionIdleNanos,
    long maxConnectionAgeNanos,
    long maxConnectionAgeGraceNanos,
    long handshakeTimeoutNanos,
    long httpHeaderReadTimeoutNanos,
    long httpBodyIdleTimeoutNanos) {

  /** No timer: the event never comes. */
  public static final long OFF = Long.MAX_VALUE;

  /** As grpc-java and gRFC A8: a PING unanswered for 20 s means the connection is gone. */
  public static final Duration DEFAULT_KEEPALIVE_TIMEOUT = Duration.ofSeconds(20);
  /** As grpc-java's server: pings its clients after two hours of silence. */
  public static final Duration DEFAULT_SERVER_KEEPALIVE_TIME = Duration.ofHours(2);
  /** As grpc-java and Go's servers. */
  public static final Duration DEFAULT_PERMIT_KEEPALIVE_TIME = Duration.ofMinutes(5);
  /** As grpc-java's server. */
  public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(120);
  /** As nginx's {@code client_header_timeout} and {@code client_body_timeout}. */
  public static final Duration DEFAULT_HTTP_READ_TIMEOUT = Duration.ofSeconds(60);

  /** A client's defaults: no keepalive pings (as grpc-java's), 20 s to answer one. */
  public static ConnectionTimers clientDefaults() {
    return new ConnectionTimers(OFF, DEFAULT_KEEPALIVE_TIMEOUT.toNanos(), false,
        OFF, false, OFF, OFF, OFF, OFF, OFF, OFF);
  }

  /**
   * A server's defaults, grpc-java's: pings after 2 h of silence, 20 s to answer, clients may ping
   * every 5 min while they have calls, connections live as long as they like, 120 s to choose a
   * protocol; 60 s for an HTTP/1.1 request's headers, and between bytes of its body.
   */
  public static ConnectionTimers serverDefaults() {
    return new ConnectionTimers(DEFAULT_SERVER_KEEPALIVE_TIME.toNanos(), DEFAULT_KEEPALIVE_TIMEOUT.toNanos(), true,
        DEFAULT_PERMIT_KEEPALIVE_TIME.toNanos(), false, OFF, OFF, OFF, DEFAULT_HANDSHAKE_TIMEOUT.toNanos(),
        DEFAULT_HTTP_READ_TIMEOUT.toNanos(), DEFAULT_HTTP_READ_TIMEOUT.toNanos());
  }

  public ConnectionTimers {
    positive(keepAliveTimeNanos, "keepAliveTime");
    positive(keepAliveTimeoutNanos, "keepAliveTimeout");
    if (permitKeepAliveTimeNanos < 0) {
      throw new IllegalArgumentException("permitKeepAliveTime must be >= 0: " + permitKeepAliveTimeNanos);
    }
    positive(maxConnectionIdleNanos, "maxConnectionIdle");
    positive(maxConnectionAgeNanos, "maxConnectionAge");
    if (maxConnectionAgeGraceNanos < 0) {
      throw new IllegalArgumentException("maxConnectionAgeGrace must be >= 0: " + maxConnectionAgeGraceNanos);
    }
    positive(handshakeTimeoutNanos, "handshakeTimeout");
    positive(httpHeaderReadTimeoutNanos, "httpHeaderReadTimeout");
    positive(httpBodyIdleTimeoutNanos, "httpBodyIdleTimeout");
  }

  /**
   * A builder's duration in nanoseconds; durations too long to count in nanoseconds (about 292
   * years), such as {@code ChronoUnit.FOREVER.getDuration()}, are {@link #OFF}.
   *
   * @throws IllegalArgumentException if negative, or zero where {@code zeroAllowed} is false
   */
  public static long nanos(Duration duration, String name, boolean zeroAllowed) {
    if (duration.isNegative() || (!zeroAllowed && duration.isZero())) {
      throw new IllegalArgumentException(name + " must be " + (zeroAllowed ? "at least 0" : "positive") + ": "
          + duration);
    }
    return duration.compareTo(Duration.ofNanos(OFF)) >= 0 ? OFF : duration.toNanos();
  }

  /** Whether {@code nanos} names a timer that runs. */
  public static boolean on(long nanos) {
    return nanos != OFF;
  }

  private static void positive(long nanos, String name) {
    if (nanos <= 0) {
      throw new IllegalArgumentException(name + " must be positive: " + nanos + " ns");
    }
  }
}
