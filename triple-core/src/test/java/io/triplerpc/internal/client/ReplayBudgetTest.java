package io.triplerpc.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ReplayBudgetTest {

  @Test
  void takesUpToItsLimitAndNoMore() {
    ReplayBudget budget = new ReplayBudget(100);
    assertTrue(budget.take(60));
    assertFalse(budget.take(41), "61 + 41 would pass 100");
    assertEquals(60, budget.kept(), "a refused take takes nothing");
    assertTrue(budget.take(40));
    budget.giveBack(60);
    assertEquals(40, budget.kept());
    assertTrue(budget.take(60));
  }

  @Test
  void concurrentTakersNeverPassTheLimit() throws Exception {
    ReplayBudget budget = new ReplayBudget(10_000);
    Thread[] threads = new Thread[4];
    java.util.concurrent.atomic.AtomicLong taken = new java.util.concurrent.atomic.AtomicLong();
    for (int t = 0; t < threads.length; t++) {
      threads[t] = new Thread(() -> {
        for (int i = 0; i < 10_000; i++) {
          if (budget.take(7)) {
            taken.addAndGet(7);
          }
        }
      });
      threads[t].start();
    }
    for (Thread thread : threads) {
      thread.join();
    }
    assertEquals(taken.get(), budget.kept());
    assertTrue(budget.kept() <= 10_000 && budget.kept() > 10_000 - 7, String.valueOf(budget.kept()));
  }
}
