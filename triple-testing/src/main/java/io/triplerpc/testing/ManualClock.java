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
 * {@link #runPending}. {@link #scheduler()} may be given tasks from any thread (code under test schedules
 * from its own threads: an event loop, a resolver's); {@link #eventLoop()} only from the test's thread.
 */
public final class ManualClock implements AutoCloseable {

  private final MockTicker ticker = Ticker.newMockTicker();
  private final EmbeddedChannel loop = EmbeddedChannel.builder().ticker(ticker).build();
  /** Takes tasks from any thread for the embedded loop, whose queues are the test thread's alone. */
  private final ClockScheduler scheduler = new ClockScheduler(loop.eventLoop(), ticker::nanoTime);

  /** The scheduler whose tasks run when the clock passes their time; usable from any thread. */
  public ScheduledExecutorService scheduler() {
    return scheduler;
  }

  /**
   * The same scheduler as a Netty event loop, for code that takes an {@link EventLoopGroup}, to be used
   * from the test's thread only. It runs no I/O: a socket channel registered with it fails to register.
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
    scheduler.transfer();
    loop.runPendingTasks();
    long next;
    while ((next = nextDelay()) >= 0 && next <= remaining) {
      ticker.advance(next, TimeUnit.NANOSECONDS);
      remaining -= next;
      loop.runPendingTasks();
    }
    ticker.advance(remaining, TimeUnit.NANOSECONDS);
    runPending();
  }

  /** Runs the tasks due now, those submitted to run at once included. */
  public void runPending() {
    // Again while the tasks that ran scheduled more: one of those may be due now too.
    do {
      scheduler.transfer();
      loop.runPendingTasks();
      scheduler.transfer();
      loop.runScheduledPendingTasks();
    } while (scheduler.hasQueued());
  }

  /** Runs what is due now; the time to the next task, or -1 if none (those scheduled from other threads included). */
  private long nextDelay() {
    scheduler.transfer();
    return loop.runScheduledPendingTasks();
  }

  @Override
  public void close() {
    scheduler.shutdown();
    loop.finishAndReleaseAll();
  }
}
