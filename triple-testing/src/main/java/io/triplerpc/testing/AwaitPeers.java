package io.triplerpc.testing;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waits for state that a peer in another operating-system process changes without telling this test
 * (a Dubbo provider in its own JVM registering in ZooKeeper, a grpc-go or h2spec process, a
 * {@code java} subprocess) by looking again every few milliseconds, up to a generous limit. Only for
 * such peers, and only in test classes that start the process: code in this JVM, even behind a
 * socket (a Triple server, a registry, Curator's {@code TestingServer}, a {@link FaultProxy}), is
 * awaited on its own signal ({@link Signal}, a latch or a future), and time-dependent code runs on a
 * {@link ManualClock}. {@link ArchitectureRules#awaitPeersOnlyWhereAProcessStarts} holds each module's
 * tests to this. The one place checkstyle lets test code sleep.
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
