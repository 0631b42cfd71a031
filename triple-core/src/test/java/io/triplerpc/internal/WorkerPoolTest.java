package io.triplerpc.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class WorkerPoolTest {

  private static final Duration KEEP_ALIVE = Duration.ofMinutes(1);
  private final List<WorkerPool> pools = new ArrayList<>();
  private final List<CountDownLatch> gates = new ArrayList<>();

  @AfterEach
  void stop() {
    gates.forEach(gate -> gate.countDown());
    pools.forEach(WorkerPool::shutdown);
  }

  @Test
  void aBurstOfShortTasksRunsOnNoMoreThreadsThanTheParallelism() throws Exception {
    WorkerPool pool = manual(2);
    int tasks = 10_000;
    CountDownLatch done = new CountDownLatch(tasks);
    for (int i = 0; i < tasks; i++) {
      pool.execute(done::countDown);
    }
    await(done);
    assertTrue(pool.threads() <= 2, "threads: " + pool.threads());
  }

  @Test
  void aTaskQueuedBehindABlockedWorkerRunsOnceTheWatchdogSeesItBlocked() throws Exception {
    WorkerPool pool = manual(1);
    CountDownLatch release = runBlocking(pool);
    CountDownLatch behind = new CountDownLatch(1);
    pool.execute(behind::countDown);
    // One worker at parallelism 1, busy: the second task waits in the queue, no thread is added.
    assertEquals(1, pool.threads());
    assertEquals(1, behind.getCount());

    pool.tick(); // the first look notes which task each worker runs
    assertEquals(1, pool.threads());
    pool.tick(); // the second finds the same task still running: blocked, and a worker is added
    await(behind);
    assertEquals(2, pool.threads());
  }

  @Test
  void whileAWorkerIsBlockedEveryTaskGetsAWorkerOfItsOwn() throws Exception {
    WorkerPool pool = manual(1);
    CountDownLatch release = runBlocking(pool);
    pool.tick();
    pool.tick();
    // Each of these waits for the other to start: they finish only if they run at once.
    CountDownLatch bothStarted = new CountDownLatch(2);
    CountDownLatch done = new CountDownLatch(2);
    for (int i = 0; i < 2; i++) {
      pool.execute(() -> {
        bothStarted.countDown();
        awaitQuietly(bothStarted);
        done.countDown();
      });
    }
    await(done);
  }

  @Test
  void aBlockedWorkerThatFinishesCountsAsAwakeAgain() throws Exception {
    WorkerPool pool = manual(1);
    CountDownLatch blocking = new CountDownLatch(1);
    CountDownLatch release = gate();
    CountDownLatch finished = new CountDownLatch(1);
    pool.execute(() -> {
      blocking.countDown();
      awaitQuietly(release);
      finished.countDown();
    });
    await(blocking);
    pool.tick();
    pool.tick();
    assertEquals(1, pool.blockedWorkers());
    release.countDown();
    await(finished);
    awaitTrue(() -> pool.blockedWorkers() == 0);
    assertEquals(0, pool.blockedWorkers());
    // Back to batching: a burst after the block needs no new thread beyond the two there are.
    int before = pool.threads();
    CountDownLatch burst = new CountDownLatch(1000);
    for (int i = 0; i < 1000; i++) {
      pool.execute(burst::countDown);
    }
    await(burst);
    assertTrue(pool.threads() <= Math.max(before, 1), "threads: " + pool.threads() + ", before: " + before);
  }

  @Test
  void aTaskThatWaitsForAnotherOfTheSamePoolFinishesWithTheRealWatchdog() throws Exception {
    WorkerPool pool = WorkerPool.create("test-pool", 1, Duration.ofMillis(1), KEEP_ALIVE);
    pools.add(pool);
    CompletableFuture<String> outer = new CompletableFuture<>();
    pool.execute(() -> {
      CompletableFuture<String> inner = new CompletableFuture<>();
      pool.execute(() -> inner.complete("inner"));
      try {
        outer.complete("outer after " + inner.get(30, TimeUnit.SECONDS));
      } catch (Exception e) {
        outer.completeExceptionally(e);
      }
    });
    assertEquals("outer after inner", outer.get(30, TimeUnit.SECONDS));
  }

  @Test
  void manyProducersLoseNoTask() throws Exception {
    WorkerPool pool = manual(2);
    int producers = 4;
    int each = 50_000;
    AtomicInteger ran = new AtomicInteger();
    CountDownLatch done = new CountDownLatch(producers * each);
    List<Thread> threads = new ArrayList<>();
    for (int p = 0; p < producers; p++) {
      Thread producer = new Thread(() -> {
        for (int i = 0; i < each; i++) {
          pool.execute(() -> {
            ran.incrementAndGet();
            done.countDown();
          });
        }
      });
      threads.add(producer);
      producer.start();
    }
    for (Thread producer : threads) {
      producer.join();
    }
    await(done);
    assertEquals(producers * each, ran.get());
  }

  @Test
  void idleWorkersEndAfterTheKeepAliveAndNewWorkComesBack() throws Exception {
    WorkerPool pool = WorkerPool.manual("test-pool", 2, Duration.ZERO);
    pools.add(pool);
    for (int round = 0; round < 50; round++) {
      CountDownLatch done = new CountDownLatch(100);
      for (int i = 0; i < 100; i++) {
        pool.execute(done::countDown);
      }
      await(done);
      awaitTrue(() -> pool.threads() == 0);
      assertEquals(0, pool.threads(), "round " + round);
    }
  }

  @Test
  void anIdlePoolWithItsOwnWatchdogEndsEveryThreadAndStartsAgainWithTheNextTask() throws Exception {
    WorkerPool pool = WorkerPool.create("test-pool", 2, Duration.ofMillis(1), Duration.ofMillis(1));
    pools.add(pool);
    for (int round = 0; round < 20; round++) {
      CountDownLatch done = new CountDownLatch(100);
      for (int i = 0; i < 100; i++) {
        pool.execute(done::countDown);
      }
      await(done);
      awaitTrue(() -> pool.threads() == 0 && !pool.watchdogRunning());
      assertEquals(0, pool.threads(), "round " + round);
      assertTrue(!pool.watchdogRunning(), "round " + round);
    }
  }

  @Test
  void aThrowingTaskDoesNotStopTheWorkers() throws Exception {
    WorkerPool pool = manual(1);
    CountDownLatch after = new CountDownLatch(1);
    pool.execute(() -> {
      throw new IllegalStateException("from a service");
    });
    pool.execute(after::countDown);
    await(after);
    assertEquals(1, pool.threads());
  }

  @Test
  void afterShutdownTasksAreRefusedAndTheThreadsEnd() throws Exception {
    WorkerPool pool = manual(2);
    CountDownLatch done = new CountDownLatch(10);
    for (int i = 0; i < 10; i++) {
      pool.execute(done::countDown);
    }
    await(done);
    pool.shutdown();
    assertThrows(RejectedExecutionException.class, () -> pool.execute(() -> { }));
    awaitTrue(() -> pool.threads() == 0);
    assertEquals(0, pool.threads());
  }

  @Test
  void parallelismMustBePositive() {
    assertThrows(IllegalArgumentException.class, () -> WorkerPool.manual("x", 0, KEEP_ALIVE));
  }

  private WorkerPool manual(int parallelism) {
    WorkerPool pool = WorkerPool.manual("test-pool", parallelism, KEEP_ALIVE);
    pools.add(pool);
    return pool;
  }

  /** Starts a task that blocks until the returned latch opens, and waits until it runs. */
  private CountDownLatch runBlocking(WorkerPool pool) throws InterruptedException {
    CountDownLatch running = new CountDownLatch(1);
    CountDownLatch release = gate();
    pool.execute(() -> {
      running.countDown();
      awaitQuietly(release);
    });
    await(running);
    return release;
  }

  /** Spins (these waits are short) until {@code condition} holds, for at most 30 s. */
  private static void awaitTrue(BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
  }

  private CountDownLatch gate() {
    CountDownLatch gate = new CountDownLatch(1);
    gates.add(gate);
    return gate;
  }

  private static void await(CountDownLatch latch) throws InterruptedException {
    assertTrue(latch.await(30, TimeUnit.SECONDS), "timed out; left: " + latch.getCount());
  }

  private static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await(60, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
