package io.triplerpc.transport.netty.internal.server;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Ticker;
import io.triplerpc.internal.stream.KeepAlive;
import io.triplerpc.internal.stream.ServerConnectionTimers;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * How long a server connection may live, as grpc-java's {@code maxConnectionIdle},
 * {@code maxConnectionAge} and {@code maxConnectionAgeGrace}: a connection without calls for the idle
 * time is closed gracefully ("max_idle"); one older than its age (jittered by up to 10% either way)
 * is closed gracefully ("max_age"), and forcefully once the grace has passed too.
 *
 * <p>The idle timer is lazy: the end of a connection's last call only notes the time, and the timer,
 * when it fires, finds how long the connection has really been idle. Time is the event loop's
 * {@link Ticker}. Event loop only.
 */
final class ConnectionLifetime {

  /** grpc-java's jitter: the age varies by up to this fraction either way. */
  private static final double AGE_JITTER = 0.1;

  /** What the lifetime asks of its connection. */
  interface Connection {

    boolean hasCalls();

    /** GOAWAY with {@code reason} as debug data; calls in flight finish. */
    void closeGracefully(String reason);

    /** The grace after the age is over: close now. */
    void closeForcefully();
  }

  private final EventExecutor executor;
  private final Ticker ticker;
  private final long maxIdleNanos;
  private final long maxAgeNanos;
  private final long graceNanos;
  private final Connection connection;
  private long idleSinceNanos;
  private ScheduledFuture<?> idleTimer;
  private ScheduledFuture<?> ageTimer;
  private boolean stopped;

  ConnectionLifetime(EventExecutor executor, ServerConnectionTimers timers, Connection connection) {
    this.executor = executor;
    this.ticker = executor.ticker();
    this.maxIdleNanos = timers.maxConnectionIdleNanos();
    this.maxAgeNanos = timers.maxConnectionAgeNanos();
    this.graceNanos = timers.maxConnectionAgeGraceNanos();
    this.connection = connection;
  }

  /** The connection is open. */
  void start() {
    idleSinceNanos = ticker.nanoTime();
    if (KeepAlive.on(maxIdleNanos)) {
      idleTimer = executor.schedule(this::checkIdle, maxIdleNanos, TimeUnit.NANOSECONDS);
    }
    if (KeepAlive.on(maxAgeNanos)) {
      double jitter = 1 + AGE_JITTER * (2 * ThreadLocalRandom.current().nextDouble() - 1);
      long age = (long) Math.min(KeepAlive.OFF - 1, maxAgeNanos * jitter);
      ageTimer = executor.schedule(this::aged, age, TimeUnit.NANOSECONDS);
    }
  }

  /** The connection's last call ended. */
  void onIdle() {
    idleSinceNanos = ticker.nanoTime();
  }

  /** How long the connection has had no call, or 0 while it has one. */
  long idleMillis() {
    return connection.hasCalls() ? 0 : TimeUnit.NANOSECONDS.toMillis(ticker.nanoTime() - idleSinceNanos);
  }

  /** The connection closed or is closing for another reason. */
  void stop() {
    stopped = true;
    if (idleTimer != null) {
      idleTimer.cancel(false);
      idleTimer = null;
    }
    if (ageTimer != null) {
      ageTimer.cancel(false);
      ageTimer = null;
    }
  }

  private void checkIdle() {
    idleTimer = null;
    if (stopped) {
      return;
    }
    long idle = ticker.nanoTime() - idleSinceNanos;
    if (connection.hasCalls()) {
      idleTimer = executor.schedule(this::checkIdle, maxIdleNanos, TimeUnit.NANOSECONDS);
    } else if (idle < maxIdleNanos) {
      idleTimer = executor.schedule(this::checkIdle, maxIdleNanos - idle, TimeUnit.NANOSECONDS);
    } else {
      stop();
      connection.closeGracefully("max_idle");
    }
  }

  private void aged() {
    ageTimer = null;
    if (stopped) {
      return;
    }
    stop();
    connection.closeGracefully("max_age");
    if (KeepAlive.on(graceNanos)) {
      executor.schedule(connection::closeForcefully, graceNanos, TimeUnit.NANOSECONDS);
    }
  }
}
