package io.triplerpc.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SerializingExecutorTest {

  @Test
  void tasksRunOneAtATimeInSubmissionOrderOnAPool() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      SerializingExecutor serial = new SerializingExecutor(pool);
      AtomicInteger running = new AtomicInteger();
      AtomicInteger maxRunning = new AtomicInteger();
      List<Integer> order = new ArrayList<>();
      CountDownLatch done = new CountDownLatch(1000);
      for (int i = 0; i < 1000; i++) {
        int n = i;
        serial.execute(() -> {
          maxRunning.accumulateAndGet(running.incrementAndGet(), Math::max);
          order.add(n);
          running.decrementAndGet();
          done.countDown();
        });
      }
      assertTrue(done.await(10, TimeUnit.SECONDS));
      assertEquals(1, maxRunning.get());
      for (int i = 0; i < 1000; i++) {
        assertEquals(i, order.get(i));
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aThrowingTaskDoesNotStopTheOthers() throws Exception {
    SerializingExecutor serial = new SerializingExecutor(Runnable::run);
    CountDownLatch after = new CountDownLatch(1);
    serial.execute(() -> {
      throw new IllegalStateException("boom (expected in this test)");
    });
    serial.execute(after::countDown);
    assertTrue(after.await(1, TimeUnit.SECONDS));
  }
}
