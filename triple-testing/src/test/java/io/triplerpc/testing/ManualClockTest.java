package io.triplerpc.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ManualClockTest {

  @Test
  void tasksRunAtTheirOwnTimeInOrderAsTheClockMoves() {
    try (ManualClock clock = new ManualClock()) {
      long start = clock.nanoTime();
      List<String> ran = new ArrayList<>();
      clock.scheduler().scheduleWithFixedDelay(
          () -> ran.add("tick " + TimeUnit.NANOSECONDS.toMillis(clock.nanoTime() - start)), 1, 1, TimeUnit.SECONDS);
      clock.scheduler().schedule(
          () -> ran.add("once " + TimeUnit.NANOSECONDS.toMillis(clock.nanoTime() - start)), 1500, TimeUnit.MILLISECONDS);
      clock.advance(Duration.ofMillis(999));
      assertTrue(ran.isEmpty());
      clock.advance(Duration.ofMillis(2001));
      assertEquals(List.of("tick 1000", "once 1500", "tick 2000", "tick 3000"), ran);
      assertEquals(Duration.ofSeconds(3).toNanos(), clock.nanoTime() - start);
    }
  }

  @Test
  void aCancelledTaskNeverRuns() {
    try (ManualClock clock = new ManualClock()) {
      List<String> ran = new ArrayList<>();
      ScheduledFuture<?> task = clock.scheduler().schedule(() -> ran.add("ran"), 1, TimeUnit.SECONDS);
      task.cancel(false);
      clock.advance(Duration.ofMinutes(1));
      assertTrue(ran.isEmpty());
    }
  }

  @Test
  void tasksScheduledFromOtherThreadsRunAtTheClockTimeTheyAskedFor() throws Exception {
    try (ManualClock clock = new ManualClock()) {
      long start = clock.nanoTime();
      List<String> ran = new java.util.concurrent.CopyOnWriteArrayList<>();
      // Many threads at once, as event loops and resolver threads of code under test schedule.
      List<Thread> threads = new ArrayList<>();
      for (int i = 0; i < 8; i++) {
        int n = i;
        threads.add(new Thread(() -> clock.scheduler().schedule(() -> ran.add("task " + n + " at "
            + TimeUnit.NANOSECONDS.toMillis(clock.nanoTime() - start)), 100 * (n + 1), TimeUnit.MILLISECONDS)));
      }
      threads.forEach(Thread::start);
      for (Thread thread : threads) {
        thread.join();
      }
      ScheduledFuture<?> cancelled = clock.scheduler().schedule(() -> ran.add("cancelled"), 1, TimeUnit.SECONDS);
      Thread canceller = new Thread(() -> cancelled.cancel(false));
      canceller.start();
      canceller.join();
      clock.advance(Duration.ofMillis(450));
      assertEquals(List.of("task 0 at 100", "task 1 at 200", "task 2 at 300", "task 3 at 400"), ran);
      clock.advance(Duration.ofSeconds(1));
      assertEquals(8, ran.size(), ran.toString());
      assertEquals("task 7 at 800", ran.get(7));
      assertTrue(cancelled.isCancelled());
    }
  }

  @Test
  void aTaskDueNowThatATaskScheduledRunsInTheSameRun() {
    try (ManualClock clock = new ManualClock()) {
      List<String> ran = new ArrayList<>();
      clock.scheduler().schedule(() -> {
        ran.add("first");
        clock.scheduler().schedule(() -> ran.add("second"), 0, TimeUnit.SECONDS);
      }, 0, TimeUnit.SECONDS);
      clock.runPending();
      assertEquals(List.of("first", "second"), ran);
    }
  }
}
