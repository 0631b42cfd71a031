package io.triplerpc.internal.stream;

import java.time.Duration;

/**
 * HTTP/2 keepalive, as grpc-java names it: a PING after {@code timeNanos} with nothing read, and the
 * connection taken for dead when nothing is read for {@code timeoutNanos} after it. Durations are in
 * nanoseconds, {@link #OFF} for none. Immutable.
 *
 * @param timeNanos silence on a connection (nothing read) after which a PING goes out
 * @param timeoutNanos how long a PING may go unanswered (nothing read) before the connection is
 *     closed
 * @param withoutCalls whether a connection without calls is pinged too
 */
public record KeepAlive(long timeNanos, long timeoutNanos, boolean withoutCalls) {

  /** No timer: the event never comes. */
  public static final long OFF = Long.MAX_VALUE;

  /** A client's, grpc-java's: no pings; 20 s to answer one (gRFC A8). */
  public static final KeepAlive CLIENT_DEFAULTS = new KeepAlive(OFF, Duration.ofSeconds(20).toNanos(), false);

  /** A server's, grpc-java's: pings its clients after 2 h of silence, with calls or without. */
  public static final KeepAlive SERVER_DEFAULTS =
      new KeepAlive(Duration.ofHours(2).toNanos(), Duration.ofSeconds(20).toNanos(), true);

  public KeepAlive {
    Http2Limits.positive(timeNanos, "keepAliveTime");
    Http2Limits.positive(timeoutNanos, "keepAliveTimeout");
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
}
