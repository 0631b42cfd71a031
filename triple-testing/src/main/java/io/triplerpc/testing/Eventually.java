package io.triplerpc.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits for state that another process or thread changes without telling (a registry pushing to a
 * consumer, say) by looking again every few milliseconds, up to a generous limit. Prefer a latch or
 * future when the code under test can signal.
 */
public final class Eventually {

  private Eventually() {}

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
