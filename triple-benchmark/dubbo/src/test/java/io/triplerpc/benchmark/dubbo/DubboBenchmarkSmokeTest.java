package io.triplerpc.benchmark.dubbo;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.triplerpc.benchmark.harness.BenchmarkSmoke;
import io.triplerpc.benchmark.harness.ServerCpuProfiler;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Runs every benchmark once, briefly, so the suite cannot rot; its figures mean nothing. */
class DubboBenchmarkSmokeTest {

  @Test
  void everyBenchmarkRunsAndScores() throws Exception {
    assertEquals(List.of(), BenchmarkSmoke.problems(
        BenchmarkSmoke.run(DubboBenchmark.class, ServerCpuProfiler.class), 7, "server.cpu"));
  }

  /** Two connections, threads spread over both, a kilobyte each way. */
  @Test
  void sweepRunsAndScores() throws Exception {
    assertEquals(List.of(), BenchmarkSmoke.problems(
        BenchmarkSmoke.run(DubboSweepBenchmark.class, Map.of("payload", "1024", "connections", "2")), 1));
  }
}
