package io.triplerpc.benchmark.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class ServerCpuProfilerTest {

  @Test
  void parsesUtimePlusStimeEvenWithSpacesInTheCommandName() {
    String stat = "4242 (java (main) x) S 1 4242 4242 0 -1 4194560 1 0 0 0 1234 567 0 0 20 0 30 0 100 0 0";
    assertEquals(1234 + 567, ServerCpuProfiler.parseCpuTicks(stat));
  }

  @Test
  void readsThisProcessWhichHasUsedSomeCpu() {
    long ticks = ServerCpuProfiler.cpuTicks(ProcessHandle.current().pid());
    assertTrue(ticks > 0, "ticks " + ticks);
  }

  @Test
  void aMissingProcessReadsAsUnknown() {
    assertEquals(-1, ServerCpuProfiler.cpuTicks(Long.MAX_VALUE));
  }
}
