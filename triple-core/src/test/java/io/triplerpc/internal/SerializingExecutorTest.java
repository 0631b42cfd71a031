package io.triplerpc.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SerializingExecutorTest {

  private final ExecutorService pool = Executors.newFixedThreadPool(4);

  @AfterEach
  void stopThePool() {
    pool.shutdownNow();
  }

  @Test
  void tasksRunOneAtATimeInSubmissionOrderOnAPool() throws Exception {
    SerializingExecutor serial = new SerializingExecutor(pool);
    Overlap overlap = new Overlap();
    // Not thread-safe on purpose: the executor must make each task see the writes of the one before.
    List<Integer> order = new ArrayList<>();
    CountDownLatch done = new CountDownLatch(1000);
    for (int i = 0; i < 1000; i++) {
      int n = i;
      serial.execute(() -> {
        overlap.enter();
        order.add(n);
        overlap.exit();
        done.countDown();
      });
    }
    assertTrue(done.await(30, TimeUnit.SECONDS));
    assertEquals(1, overlap.max.get());
    for (int i = 0; i < 1000; i++) {
      assertEquals(i, order.get(i));
    }
  }

  @Test
  void concurrentSubmittersEachKeepTheirOrderAndTasksNeverOverlap() throws Exception {
    SerializingExecutor serial = new SerializingExecutor(pool);
    int submitters = 4;
    int perSubmitter = 2000;
    Overlap overlap = new Overlap();
    List<int[]> ran = new ArrayList<>();
    CountDownLatch start = new CountDownLatch(1);
    CountDownLatch done = new CountDownLatch(submitters * perSubmitter);
    List<CompletableFuture<Void>> submitting = new ArrayList<>();
    ExecutorService submitterThreads = Executors.newFixedThreadPool(submitters);
    try {
      for (int s = 0; s < submitters; s++) {
        int submitter = s;
        submitting.add(CompletableFuture.runAsync(() -> {
          awaitUninterruptibly(start);
          for (int i = 0; i < perSubmitter; i++) {
            int n = i;
            serial.execute(() -> {
              overlap.enter();
              ran.add(new int[] {submitter, n});
              overlap.exit();
              done.countDown();
            });
          }
        }, submitterThreads));
      }
      start.countDown();
      CompletableFuture.allOf(submitting.toArray(new CompletableFuture<?>[0])).get(30, TimeUnit.SECONDS);
      assertTrue(done.await(30, TimeUnit.SECONDS), done.getCount() + " tasks never ran");
    } finally {
      submitterThreads.shutdownNow();
    }
    assertEquals(1, overlap.max.get(), "two tasks ran at once");
    assertEquals(submitters * perSubmitter, ran.size());
    int[] next = new int[submitters];
    for (int[] task : ran) {
      assertEquals(next[task[0]], task[1], "submitter " + task[0] + "'s tasks ran out of order");
      next[task[0]]++;
    }
  }

  @Test
  void aThrowingTaskDoesNotStopTheOthers() throws Exception {
    SerializingExecutor serial = new SerializingExecutor(pool);
    CountDownLatch after = new CountDownLatch(2);
    serial.execute(() -> {
      throw new IllegalStateException("boom (expected in this test)");
    });
    serial.execute(after::countDown);
    serial.execute(() -> {
      throw new AssertionError("an Error (expected in this test)");
    });
    serial.execute(after::countDown);
    assertTrue(after.await(30, TimeUnit.SECONDS));
  }

  @Test
  void aTaskSubmittedByATaskRunsAfterItNotInsideIt() {
    SerializingExecutor serial = new SerializingExecutor(Runnable::run);
    List<String> events = new ArrayList<>();
    serial.execute(() -> {
      events.add("outer starts");
      serial.execute(() -> events.add("inner"));
      events.add("outer ends");
    });
    assertEquals(List.of("outer starts", "outer ends", "inner"), events);
  }

  @Test
  void aShutDownExecutorStillRunsTheTasksOnTheCallingThread() {
    pool.shutdown();
    SerializingExecutor serial = new SerializingExecutor(pool);
    List<Thread> ranOn = new ArrayList<>();
    serial.execute(() -> ranOn.add(Thread.currentThread()));
    serial.execute(() -> ranOn.add(Thread.currentThread()));
    assertEquals(List.of(Thread.currentThread(), Thread.currentThread()), ranOn);
  }

  private static void awaitUninterruptibly(CountDownLatch latch) {
    try {
      assertTrue(latch.await(30, TimeUnit.SECONDS));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  /** Counts tasks running at once, and the most that ever did. */
  private static final class Overlap {
    final AtomicInteger running = new AtomicInteger();
    final AtomicInteger max = new AtomicInteger();

    void enter() {
      max.accumulateAndGet(running.incrementAndGet(), Math::max);
    }

    void exit() {
      running.decrementAndGet();
    }
  }

  @Test
  void aSuspendedExecutorHoldsLaterTasksUntilResumeRunsItsTaskFirst() throws Exception {
    SerializingExecutor serial = new SerializingExecutor(pool);
    List<String> order = new java.util.concurrent.CopyOnWriteArrayList<>();
    CompletableFuture<Void> suspended = new CompletableFuture<>();
    serial.execute(() -> {
      order.add("suspending");
      serial.suspend();
      suspended.complete(null);
    });
    serial.execute(() -> order.add("held"));
    suspended.get(10, TimeUnit.SECONDS);
    serial.execute(() -> order.add("also held"));
    assertEquals(List.of("suspending"), order);

    CountDownLatch done = new CountDownLatch(1);
    serial.resume(() -> order.add("resumed"));
    serial.execute(done::countDown);
    assertTrue(done.await(10, TimeUnit.SECONDS));
    assertEquals(List.of("suspending", "resumed", "held", "also held"), order);
  }

  @Test
  void aResumeWhileTheSuspendingTaskStillRunsIsNotLost() throws Exception {
    for (int round = 0; round < 200; round++) {
      SerializingExecutor serial = new SerializingExecutor(pool);
      List<String> order = new java.util.concurrent.CopyOnWriteArrayList<>();
      CountDownLatch done = new CountDownLatch(1);
      serial.execute(() -> {
        serial.suspend();
        // The answer comes at once, from another thread, racing with the end of this task.
        pool.execute(() -> serial.resume(() -> order.add("resumed")));
      });
      serial.execute(() -> {
        order.add("next");
        done.countDown();
      });
      assertTrue(done.await(10, TimeUnit.SECONDS), "round " + round);
      assertEquals(List.of("resumed", "next"), order);
    }
  }
}
