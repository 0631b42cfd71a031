package io.triplerpc.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.AdaptiveConcurrencyLimit;
import io.triplerpc.Status;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The Vegas limiter's arithmetic, driven by call times given directly (no clock): growth while calls take
 * the shortest time and the server is busy, shrinking as a queue builds or calls are dropped, bounds, and
 * the periodic re-measure of the shortest time.
 */
class VegasLimiterTest {

  private static final long MS = 1_000_000L;

  private static VegasLimiter limiter(int initial, int min, int max) {
    return new VegasLimiter(AdaptiveConcurrencyLimit.vegas().withLimits(initial, min, max));
  }

  /** Fills the limiter to its limit, then ends every call after {@code nanos}. */
  private static void roundAtLimit(VegasLimiter limiter, long nanos) {
    int admitted = 0;
    while (limiter.tryAcquire()) {
      admitted++;
    }
    for (int i = 0; i < admitted; i++) {
      limiter.release(nanos, false);
    }
  }

  @Test
  void admitsUpToTheLimitAndAnEndedCallFreesItsSlot() {
    VegasLimiter limiter = limiter(3, 1, 10);
    assertTrue(limiter.tryAcquire());
    assertTrue(limiter.tryAcquire());
    assertTrue(limiter.tryAcquire());
    assertFalse(limiter.tryAcquire(), "a fourth call is past the limit of 3");
    assertEquals(3, limiter.inFlight());
    limiter.release(0, false);
    assertTrue(limiter.tryAcquire());
    Status refusal = limiter.refusal();
    assertEquals(Status.Code.RESOURCE_EXHAUSTED, refusal.code());
    assertTrue(refusal.description().contains("adaptive concurrency limit"), refusal.description());
  }

  @Test
  void aBusyServerWhoseCallsTakeTheShortestTimeGrowsItsLimit() {
    VegasLimiter limiter = limiter(10, 1, 1000);
    roundAtLimit(limiter, 5 * MS);
    int before = limiter.limit();
    for (int round = 0; round < 5; round++) {
      roundAtLimit(limiter, 5 * MS);
    }
    assertTrue(limiter.limit() > before, "no queue, so the limit grows: " + before + " -> " + limiter.limit());
  }

  @Test
  void callsMadeWhileTheServerIsIdleTeachNothing() {
    VegasLimiter limiter = limiter(10, 1, 1000);
    for (int i = 0; i < 200; i++) {
      assertTrue(limiter.tryAcquire());
      limiter.release(5 * MS, false);
    }
    assertEquals(10, limiter.limit(), "one call at a time says nothing about the capacity");
  }

  @Test
  void aQueueShrinksTheLimitDownToItsMinimum() {
    VegasLimiter limiter = limiter(100, 8, 1000);
    roundAtLimit(limiter, 5 * MS);
    int before = limiter.limit();
    roundAtLimit(limiter, 50 * MS);
    assertTrue(limiter.limit() < before, "calls ten times slower mean a queue: " + before + " -> " + limiter.limit());
    for (int round = 0; round < 100; round++) {
      roundAtLimit(limiter, 50 * MS);
    }
    assertEquals(8, limiter.limit(), "never below the minimum");
  }

  @Test
  void aModestQueueHoldsTheLimit() {
    VegasLimiter limiter = limiter(100, 1, 1000);
    limiter.tryAcquire();
    limiter.release(10 * MS, false);
    // With L = 100, log10 L = 2: a queue between 3·2 and 6·2 calls leaves the limit alone; 10% slower
    // than the shortest time is a queue of 100 × (1 − 10/11) ≈ 9.1, rounded up to 10.
    for (int i = 0; i < 60; i++) {
      assertTrue(limiter.tryAcquire());
    }
    limiter.release(11 * MS, false);
    assertEquals(100, limiter.limit());
  }

  @Test
  void droppedCallsShrinkTheLimitEvenWhenTheServerIsIdle() {
    VegasLimiter limiter = limiter(100, 1, 1000);
    limiter.tryAcquire();
    limiter.release(5 * MS, false);
    limiter.tryAcquire();
    limiter.release(6 * MS, true);
    assertEquals(98, limiter.limit(), "a dropped call shrinks 100 by log10 100");
  }

  @Test
  void neverGrowsPastItsMaximum() {
    VegasLimiter limiter = limiter(10, 1, 25);
    for (int round = 0; round < 50; round++) {
      roundAtLimit(limiter, 5 * MS);
    }
    assertEquals(25, limiter.limit());
  }

  @Test
  void theShortestTimeIsMeasuredAgainSoAServiceThatBecameSlowerForGoodGrowsAgain() {
    VegasLimiter limiter = limiter(20, 10, 1000);
    roundAtLimit(limiter, MS);
    // The service now takes 20 ms a call for good: against the old 1 ms every call looks queued.
    for (int round = 0; round < 5; round++) {
      roundAtLimit(limiter, 20 * MS);
    }
    assertEquals(10, limiter.limit(), "shrunk to the minimum while 1 ms is the shortest time");
    // After the probe interval (30 calls per unit of limit) the shortest time is 20 ms and growth resumes.
    for (int round = 0; round < 80; round++) {
      roundAtLimit(limiter, 20 * MS);
    }
    assertTrue(limiter.limit() > 10, "grows again: " + limiter.limit());
  }

  @Test
  void concurrentCallersNeverExceedTheLimit() throws Exception {
    VegasLimiter limiter = limiter(7, 7, 7);
    AtomicInteger flying = new AtomicInteger();
    AtomicInteger highest = new AtomicInteger();
    int threads = 4;
    CountDownLatch done = new CountDownLatch(threads);
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      for (int t = 0; t < threads; t++) {
        pool.execute(() -> {
          for (int i = 0; i < 20_000; i++) {
            if (limiter.tryAcquire()) {
              highest.accumulateAndGet(flying.incrementAndGet(), Math::max);
              flying.decrementAndGet();
              limiter.release(0, false);
            }
          }
          done.countDown();
        });
      }
      assertTrue(done.await(60, TimeUnit.SECONDS));
    } finally {
      pool.shutdownNow();
    }
    assertTrue(highest.get() <= 7, "at most 7 in flight, saw " + highest.get());
    assertEquals(0, limiter.inFlight());
  }

  @Test
  void limitsMustBeOrdered() {
    AdaptiveConcurrencyLimit vegas = AdaptiveConcurrencyLimit.vegas();
    assertEquals(20, vegas.initialLimit());
    assertThrows(IllegalArgumentException.class, () -> vegas.withLimits(5, 0, 10));
    assertThrows(IllegalArgumentException.class, () -> vegas.withLimits(11, 1, 10));
    assertThrows(IllegalArgumentException.class, () -> vegas.withLimits(5, 6, 10));
  }
}
