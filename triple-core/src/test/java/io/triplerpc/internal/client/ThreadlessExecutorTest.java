package io.triplerpc.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ThreadlessExecutorTest {

  private final ThreadlessExecutor executor = new ThreadlessExecutor();

  @AfterEach
  void leaveTheTestThreadUninterrupted() {
    Thread.interrupted();
  }

  @Test
  void tasksFromAnotherThreadRunOnTheWaitingThreadInOrder() throws Exception {
    List<Thread> ranOn = new CopyOnWriteArrayList<>();
    List<Integer> order = new CopyOnWriteArrayList<>();
    CompletableFuture.runAsync(() -> {
      for (int i = 0; i < 3; i++) {
        int n = i;
        executor.execute(() -> {
          ranOn.add(Thread.currentThread());
          order.add(n);
        });
      }
    }).get(30, TimeUnit.SECONDS);
    assertTrue(order.isEmpty(), "nothing runs before the caller drains");
    executor.waitAndDrain();
    assertEquals(List.of(0, 1, 2), order);
    assertTrue(ranOn.stream().allMatch(t -> t == Thread.currentThread()));
  }

  @Test
  void aParkedCallerWakesWhenATaskArrives() throws Exception {
    Thread caller = Thread.currentThread();
    List<Thread> ranOn = new ArrayList<>();
    CompletableFuture<Void> producer = CompletableFuture.runAsync(() -> {
      awaitParked(caller);
      executor.execute(() -> ranOn.add(Thread.currentThread()));
    });
    executor.waitAndDrain();
    assertEquals(List.of(caller), ranOn);
    producer.get(30, TimeUnit.SECONDS);
  }

  @Test
  void anInterruptWhileParkedThrowsAndClearsTheFlag() throws Exception {
    Thread caller = Thread.currentThread();
    CompletableFuture<Void> interrupter = CompletableFuture.runAsync(() -> {
      awaitParked(caller);
      caller.interrupt();
    });
    assertThrows(InterruptedException.class, executor::waitAndDrain);
    assertFalse(Thread.currentThread().isInterrupted(), "InterruptedException clears the interrupt");
    interrupter.get(30, TimeUnit.SECONDS);
  }

  @Test
  void anInterruptBeforeWaitingOnNothingThrows() {
    Thread.currentThread().interrupt();
    assertThrows(InterruptedException.class, executor::waitAndDrain);
  }

  @Test
  void queuedTasksRunEvenIfTheCallerWasInterrupted() throws Exception {
    List<String> ran = new ArrayList<>();
    executor.execute(() -> ran.add("queued"));
    Thread.currentThread().interrupt();
    executor.waitAndDrain();
    assertEquals(List.of("queued"), ran);
    assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is left for the caller to see");
  }

  @Test
  void aThrowingTaskDoesNotStopTheRest() throws Exception {
    List<String> ran = new ArrayList<>();
    executor.execute(() -> {
      throw new IllegalStateException("boom (expected in this test)");
    });
    executor.execute(() -> ran.add("after"));
    executor.waitAndDrain();
    assertEquals(List.of("after"), ran);
  }

  @Test
  void tasksQueuedByATaskRunInTheSameDrain() throws Exception {
    List<String> ran = new ArrayList<>();
    executor.execute(() -> {
      ran.add("first");
      executor.execute(() -> ran.add("queued by first"));
    });
    executor.waitAndDrain();
    assertEquals(List.of("first", "queued by first"), ran);
    assertTrue(executor.isEmpty());
  }

  @Test
  void drainNowRunsWhatIsQueuedWithoutWaiting() {
    executor.drainNow();
    List<String> ran = new ArrayList<>();
    executor.execute(() -> ran.add("a"));
    executor.execute(() -> ran.add("b"));
    executor.drainNow();
    assertEquals(List.of("a", "b"), ran);
    assertTrue(executor.isEmpty());
  }

  @Test
  void afterTheCallerLeftTasksRunOnTheThreadThatHandsThemOver() throws Exception {
    List<String> ran = new CopyOnWriteArrayList<>();
    executor.executeLater(() -> ran.add("queued before"));
    executor.abandon();
    assertEquals(List.of("queued before"), ran, "what was queued runs as the caller leaves");
    // A response still on its way, as the event loop hands it over: it must not wait in the queue.
    Thread loop = new Thread(() -> {
      executor.executeLater(() -> ran.add("message on " + Thread.currentThread().getName()));
      executor.execute(() -> ran.add("close on " + Thread.currentThread().getName()));
    }, "event-loop");
    loop.start();
    loop.join(10_000);
    assertEquals(List.of("queued before", "message on event-loop", "close on event-loop"), ran);
    assertTrue(executor.isEmpty());
  }

  /** Returns once {@code thread} is parked; a test cannot observe that by any event, so it looks. */
  private static void awaitParked(Thread thread) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (thread.getState() != Thread.State.WAITING) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError(thread + " never parked; it is " + thread.getState());
      }
      Thread.yield();
    }
  }
}
