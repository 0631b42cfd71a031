package io.triplerpc.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits for state that a real other process or socket changes without telling this test (a
 * registry server pushing to a consumer, a ZooKeeper watch firing) by looking again every few
 * milliseconds, up to a generous limit. Only for such peers: code under test that can signal is
 * awaited on a latch or future, and time-dependent code runs on a {@link ManualClock}. The one place
 * checkstyle lets test code sleep.
 */
public final class AwaitPeers {

  private AwaitPeers() {}

  /**
   * Returns once {@code condition} holds; fails with {@code what} after {@code limit}.
   *
   * @throws AssertionError if the condition never held
   */
  public static void until(BooleanSupplier condition, Duration limit, String what) {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("Timed out after " + limit + " waiting until " + what);
      }
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError("Interrupted waiting until " + what, e);
      }
    }
  }

  /** {@link #until(BooleanSupplier, Duration, String)} with a 10 s limit. */
  public static void until(BooleanSupplier condition, String what) {
    until(condition, Duration.ofSeconds(10), what);
  }
}
