package io.triplerpc.transport.netty.internal.server;

import io.netty.util.concurrent.Ticker;
import java.util.concurrent.TimeUnit;

/**
 * Judges a client's PINGs against the server's permitted keepalive rate, as grpc-java and Go do
 * (gRFC A8): a PING sooner than {@code permitTime} after the last one that was fine is a strike; the
 * third strike ends the connection (GOAWAY ENHANCE_YOUR_CALM "too_many_pings"). Without calls in flight,
 * unless permitted, only one PING per two hours is fine. The strikes are forgiven whenever the server
 * sends headers or data, so a client's BDP pings (sent as it receives data) never add up. Event loop
 * only; time is the event loop's {@link Ticker}.
 */
final class KeepAliveEnforcer {

  /** Strikes forgiven; one more ends the connection. */
  static final int MAX_PING_STRIKES = 2;
  /** The rate a connection without calls may be pinged at when that is not permitted. */
  static final long IMPLICIT_PERMIT_TIME_NANOS = TimeUnit.HOURS.toNanos(2);

  private final Ticker ticker;
  private final long permitTimeNanos;
  private final boolean permitWithoutCalls;
  private long lastValidPingNanos;
  private boolean hasValidPing;
  private int strikes;

  KeepAliveEnforcer(Ticker ticker, long permitTimeNanos, boolean permitWithoutCalls) {
    this.ticker = ticker;
    this.permitTimeNanos = permitTimeNanos;
    this.permitWithoutCalls = permitWithoutCalls;
    // The connection's start counts as a PING: a client that pings at once has pinged early.
    this.lastValidPingNanos = ticker.nanoTime();
    this.hasValidPing = true;
  }

  /** A PING arrived; false if it is the one too many. */
  boolean pingAcceptable(boolean hasCalls) {
    long now = ticker.nanoTime();
    long interval = hasCalls || permitWithoutCalls ? permitTimeNanos : IMPLICIT_PERMIT_TIME_NANOS;
    if (!hasValidPing || now - lastValidPingNanos >= interval) {
      lastValidPingNanos = now;
      hasValidPing = true;
      return true;
    }
    return ++strikes <= MAX_PING_STRIKES;
  }

  /** The server sent headers or data: the client's PINGs start afresh. */
  void onDataSent() {
    strikes = 0;
    hasValidPing = false;
  }

  int strikes() {
    return strikes;
  }
}
