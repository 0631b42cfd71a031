package io.triplerpc.testing;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Lets a test wait for in-process state that the code under test changes and reports through a
 * callback (a call observer, a listener, a service method): the callback calls {@link #fire()}, and
 * {@link #await} checks its condition again on each fire, never on a timer. A condition that no
 * callback's fire follows is a test bug, and shows as the timeout's failure. For state only another
 * process changes, see {@link AwaitPeers}. Thread-safe.
 *
 * <pre>{@code
 * Signal ended = new Signal();
 * server = TripleServer.builder().callObserver(metrics).callObserver(new CallObserver() {
 *   public void ended(ObservedCall call) { ended.fire(); }   // after metrics recorded the call
 * })...
 * ended.await(() -> timer.count() == 1, "the server call ended");
 * }</pre>
 */
public final class Signal {

  /** How long {@link #await(BooleanSupplier, String)} waits: generous, as it costs nothing when the signal comes. */
  public static final Duration LIMIT = Duration.ofSeconds(10);

  /** How many times {@link #fire()} was called; guarded by this. */
  private long fired;

  /** Something an awaited condition depends on may have changed: waiters check again. Never blocks for long. */
  public synchronized void fire() {
    fired++;
    notifyAll();
  }

  /** {@link #await(BooleanSupplier, Duration, String)} with {@link #LIMIT}. */
  public void await(BooleanSupplier condition, String what) {
    await(condition, LIMIT, what);
  }

  /**
   * Returns once {@code condition} holds: checked now, then after each {@link #fire()}, outside this
   * signal's lock (so a condition may call into the code under test).
   *
   * @throws AssertionError if it did not hold after the fires of {@code limit}, or the thread was interrupted
   */
  public void await(BooleanSupplier condition, Duration limit, String what) {
    long deadline = System.nanoTime() + limit.toNanos();
    while (true) {
      long seen;
      synchronized (this) {
        seen = fired;
      }
      if (condition.getAsBoolean()) {
        return;
      }
      synchronized (this) {
        while (fired == seen) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            throw new AssertionError("No signal in " + limit + " made it true that " + what);
          }
          try {
            TimeUnit.NANOSECONDS.timedWait(this, left);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("Interrupted waiting until " + what, e);
          }
        }
      }
    }
  }
}
