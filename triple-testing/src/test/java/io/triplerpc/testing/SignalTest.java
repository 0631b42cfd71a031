package io.triplerpc.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SignalTest {

  private final Signal signal = new Signal();

  @Test
  void aConditionThatAlreadyHoldsReturnsAtOnceWithoutAFire() {
    signal.await(() -> true, Duration.ZERO, "it holds");
  }

  @Test
  void aWaiterChecksAgainOnEachFireFromAnotherThread() throws Exception {
    AtomicInteger count = new AtomicInteger();
    AtomicInteger checks = new AtomicInteger();
    CompletableFuture<Void> waiter = CompletableFuture.runAsync(
        () -> signal.await(() -> checks.incrementAndGet() > 0 && count.get() == 3, "three counted"));
    for (int i = 0; i < 3; i++) {
      count.incrementAndGet();
      signal.fire();
    }
    waiter.get(10, TimeUnit.SECONDS);
    assertTrue(checks.get() >= 1 && checks.get() <= 4, "checked at the start and after fires only: " + checks);
  }

  @Test
  void aConditionNoFireMakesTrueFailsWithWhatWasAwaited() {
    AssertionError failed = assertThrows(AssertionError.class,
        () -> signal.await(() -> false, Duration.ofMillis(1), "the impossible"));
    assertEquals("No signal in PT0.001S made it true that the impossible", failed.getMessage());
  }
}
