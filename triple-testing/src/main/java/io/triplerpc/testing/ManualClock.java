package io.triplerpc.testing;

import io.netty.channel.EventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.MockTicker;
import io.netty.util.concurrent.Ticker;
import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A clock and a scheduler that move only when the test says so, for deadlines, backoffs, leases and
 * keepalives tested without waiting: Netty's {@link MockTicker} driving the event loop of an
 * {@link EmbeddedChannel}. Scheduled tasks run on the test's thread, in {@link #advance} or
 * {@link #runPending}; the scheduler must be used from that thread only.
 */
public final class ManualClock implements AutoCloseable {

  private final MockTicker ticker = Ticker.newMockTicker();
  private final EmbeddedChannel loop = EmbeddedChannel.builder().ticker(ticker).build();

  /** The scheduler whose tasks run when the clock passes their time. */
  public ScheduledExecutorService scheduler() {
    return loop.eventLoop();
  }

  /**
   * The same scheduler as a Netty event loop, for code that takes an {@link EventLoopGroup}. It runs
   * no I/O: a socket channel registered with it fails to register.
   */
  public EventLoop eventLoop() {
    return loop.eventLoop();
  }

  /** The time, in nanoseconds from an arbitrary origin; it moves only with {@link #advance}. */
  public long nanoTime() {
    return ticker.nanoTime();
  }

  /**
   * Moves the clock on by {@code duration}, running every task that falls due at its own time, in
   * time order: a task sees the clock at its deadline, and a periodic task's next run counts from there.
   */
  public void advance(Duration duration) {
    long remaining = duration.toNanos();
    loop.runPendingTasks();
    long next;
    while ((next = loop.runScheduledPendingTasks()) >= 0 && next <= remaining) {
      ticker.advance(next, TimeUnit.NANOSECONDS);
      remaining -= next;
      loop.runPendingTasks();
    }
    ticker.advance(remaining, TimeUnit.NANOSECONDS);
    runPending();
  }

  /** Runs the tasks due now, those submitted to run at once included. */
  public void runPending() {
    loop.runPendingTasks();
    loop.runScheduledPendingTasks();
  }

  @Override
  public void close() {
    loop.finishAndReleaseAll();
  }
}
