package io.triplerpc.transport.netty.internal;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Ticker;
import io.triplerpc.internal.stream.ConnectionView;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * HTTP/2 keepalive for one connection, either side (gRFC A8): after {@code time} with nothing read it
 * sends a PING, and if nothing is read for {@code timeout} after that, the connection is dead. Any
 * frame read counts as a sign of life, not only the PING's ACK.
 *
 * <p>One timer at a time, and reads only note the time (but for the read that answers a PING, which
 * sets the timer for the next): a busy connection costs a clock read per socket read, and the timer,
 * when it fires, finds how long the connection has really been silent.
 * A pinger {@linkplain #KeepAlivePinger told} not to ping a connection without calls goes dormant when
 * its timer finds none, and wakes at the next call, pinging at once if the connection has been silent
 * for {@code time} (the call should not be the one to find the connection dead).
 *
 * <p>Time is the event loop's {@link Ticker}, so tests drive it with a mock ticker. Event loop only.
 */
public final class KeepAlivePinger {

  /** What the pinger asks of its connection. */
  public interface Connection {

    /** Sends a keepalive PING (through the connection's write queue). */
    void sendPing();

    /** Whether calls are in flight. */
    boolean hasCalls();

    /** Nothing was read for the keepalive timeout after a PING: close the connection. */
    void dead(long silentNanos);
  }

  private final EventExecutor executor;
  private final Ticker ticker;
  private final long timeNanos;
  private final long timeoutNanos;
  private final boolean withoutCalls;
  private final Connection connection;
  private final Runnable check = this::check;

  private long lastReadNanos;
  /** When the unanswered PING went out; meaningful while {@link #pingSent}. */
  private long pingSentNanos;
  private boolean pingSent;
  /** No timer runs: the connection has no calls and is not to be pinged without any. */
  private boolean dormant;
  private boolean stopped;
  private ScheduledFuture<?> timer;
  private long pingsSent;
  /** Whether a PING ever went out, so that {@link #pingSentNanos} means something. */
  private boolean everPinged;

  /**
   * @param withoutCalls whether to ping a connection that has no calls
   */
  public KeepAlivePinger(
      EventExecutor executor, long timeNanos, long timeoutNanos, boolean withoutCalls, Connection connection) {
    this.executor = executor;
    this.ticker = executor.ticker();
    this.timeNanos = timeNanos;
    this.timeoutNanos = timeoutNanos;
    this.withoutCalls = withoutCalls;
    this.connection = connection;
  }

  /** The connection is open: silence counts from now. */
  public void start() {
    lastReadNanos = ticker.nanoTime();
    schedule(timeNanos);
  }

  /**
   * Something was read from the peer. After a PING, this is its answer (or as good as one): the
   * timeout's timer gives way to the next PING's, {@code time} from now.
   */
  public void onRead() {
    lastReadNanos = ticker.nanoTime();
    if (pingSent && !stopped) {
      pingSent = false;
      if (timer != null) {
        timer.cancel(false);
      }
      schedule(timeNanos);
    }
  }

  /** A call started: a dormant pinger wakes, pinging at once after a long silence. */
  public void onCallStarted() {
    if (dormant && !stopped) {
      dormant = false;
      schedule(Math.max(0, timeNanos - (ticker.nanoTime() - lastReadNanos)));
    }
  }

  /** The connection closed or is closing: no more pings. */
  public void stop() {
    stopped = true;
    if (timer != null) {
      timer.cancel(false);
      timer = null;
    }
  }

  /** Keepalive PINGs sent so far. */
  public long pingsSent() {
    return pingsSent;
  }

  /** What the admin endpoint shows of this pinger, now. */
  public ConnectionView.KeepAliveState state() {
    long now = ticker.nanoTime();
    return new ConnectionView.KeepAliveState(pingsSent, pingSent,
        everPinged ? TimeUnit.NANOSECONDS.toMillis(now - pingSentNanos) : -1,
        TimeUnit.NANOSECONDS.toMillis(now - lastReadNanos));
  }

  private void schedule(long delayNanos) {
    timer = executor.schedule(check, delayNanos, TimeUnit.NANOSECONDS);
  }

  private void check() {
    timer = null;
    if (stopped) {
      return;
    }
    long now = ticker.nanoTime();
    if (pingSent) {
      if (lastReadNanos - pingSentNanos >= 0) {
        pingSent = false;
      } else {
        long waited = now - pingSentNanos;
        if (waited >= timeoutNanos) {
          stopped = true;
          connection.dead(now - lastReadNanos);
        } else {
          schedule(timeoutNanos - waited);
        }
        return;
      }
    }
    long silent = now - lastReadNanos;
    if (silent < timeNanos) {
      schedule(timeNanos - silent);
    } else if (!withoutCalls && !connection.hasCalls()) {
      dormant = true;
    } else {
      pingSent = true;
      pingSentNanos = now;
      everPinged = true;
      pingsSent++;
      connection.sendPing();
      schedule(timeoutNanos);
    }
  }
}
