package io.triplerpc.benchmark.grpc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.triplerpc.benchmark.harness.BenchmarkSmoke;
import io.triplerpc.benchmark.harness.ServerCpuProfiler;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Runs every benchmark once, briefly, so the suite cannot rot; its figures mean nothing. */
class GrpcBenchmarkSmokeTest {

  @Test
  void everyBenchmarkRunsAndScores() throws Exception {
    assertEquals(List.of(), BenchmarkSmoke.problems(
        BenchmarkSmoke.run(GrpcBenchmark.class, ServerCpuProfiler.class), 7, "server.cpu"));
  }

  /** getUser and streamUsers observed every way, tracing too (the pom sets grpc-java's switch for it). */
  @Test
  void observabilityRunsEveryCase() throws Exception {
    assertEquals(List.of(), BenchmarkSmoke.problems(
        BenchmarkSmoke.run(GrpcObservabilityBenchmark.class, ServerCpuProfiler.class), 8, "server.cpu"));
  }

  /** Two connections, threads spread over both, a kilobyte each way. */
  @Test
  void sweepRunsAndScores() throws Exception {
    assertEquals(List.of(), BenchmarkSmoke.problems(
        BenchmarkSmoke.run(GrpcSweepBenchmark.class, Map.of("payload", "1024", "connections", "2")), 1));
  }
}
