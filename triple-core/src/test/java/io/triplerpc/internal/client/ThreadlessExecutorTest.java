package io.triplerpc.internal.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ThreadlessExecutorTest {

  @Test
  void tasksFromAnotherThreadRunOnTheWaitingThreadInOrder() throws Exception {
    ThreadlessExecutor executor = new ThreadlessExecutor();
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
    }).get(10, TimeUnit.SECONDS);
    executor.waitAndDrain();
    assertEquals(List.of(0, 1, 2), order);
    assertTrue(ranOn.stream().allMatch(t -> t == Thread.currentThread()));
  }

  @Test
  void aParkedCallerWakesWhenATaskArrives() throws Exception {
    ThreadlessExecutor executor = new ThreadlessExecutor();
    boolean[] ran = new boolean[1];
    CompletableFuture<Void> producer = CompletableFuture.runAsync(() -> executor.execute(() -> ran[0] = true));
    while (!ran[0]) {
      executor.waitAndDrain();
    }
    producer.get(10, TimeUnit.SECONDS);
  }

  @Test
  void interruptWhileParkedThrows() {
    ThreadlessExecutor executor = new ThreadlessExecutor();
    Thread.currentThread().interrupt();
    assertThrows(InterruptedException.class, executor::waitAndDrain);
  }
}
