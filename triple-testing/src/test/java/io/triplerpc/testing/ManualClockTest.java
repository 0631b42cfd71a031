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
}
