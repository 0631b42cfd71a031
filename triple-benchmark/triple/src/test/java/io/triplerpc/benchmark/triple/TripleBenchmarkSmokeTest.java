package io.triplerpc.benchmark.triple;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.triplerpc.benchmark.harness.BenchmarkSmoke;
import io.triplerpc.benchmark.harness.ServerCpuProfiler;
import io.triplerpc.benchmark.harness.WriteStatsProfiler;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Runs every benchmark once, briefly, so the suite cannot rot; its figures mean nothing. */
class TripleBenchmarkSmokeTest {

  @Test
  void everyBenchmarkRunsAndScores() throws Exception {
    assertEquals(List.of(), BenchmarkSmoke.problems(
        BenchmarkSmoke.run(TripleBenchmark.class, ServerCpuProfiler.class, WriteStatsProfiler.class),
        7, "server.cpu", "wq.flushes.per.op", "wq.commands.per.flush"));
  }

  @Test
  void discoveryOverheadRunsAndScores() throws Exception {
    assertEquals(List.of(), BenchmarkSmoke.problems(BenchmarkSmoke.run(DiscoveryOverheadBenchmark.class), 2));
  }

  /** Every row of the feature-cost table, TLS on the JDK's provider and on OpenSSL included. */
  @Test
  void featureCostRunsEveryRow() throws Exception {
    assertEquals(List.of(), BenchmarkSmoke.problems(BenchmarkSmoke.run(FeatureCostBenchmark.class), 6));
  }

  /** getUser and streamUsers observed every way the page measures. */
  @Test
  void observabilityRunsEveryCase() throws Exception {
    assertEquals(List.of(), BenchmarkSmoke.problems(
        BenchmarkSmoke.run(ObservabilityBenchmark.class, ServerCpuProfiler.class), 12, "server.cpu"));
  }

  /** Two connections, threads spread over both, a kilobyte each way. */
  @Test
  void sweepRunsAndScores() throws Exception {
    assertEquals(List.of(), BenchmarkSmoke.problems(
        BenchmarkSmoke.run(SweepBenchmark.class, Map.of("payload", "1024", "connections", "2")), 1));
  }

  /** A request's header block with and without a trace context, encoded and round-tripped. */
  @Test
  void headerCodecRunsBothWays() throws Exception {
    assertEquals(List.of(), BenchmarkSmoke.problems(BenchmarkSmoke.run(HeaderCodecBenchmark.class), 4));
  }

  /**
   * The blocking front on the default pool: its servers' JVM starts, the set-up's check call answers, a few
   * hundred calls go through the front to the downstream and back, and the trial drains its windows.
   */
  @Test
  void blockingServiceRunsOnThePool() throws Exception {
    assertEquals(List.of(), BenchmarkSmoke.problems(
        BenchmarkSmoke.run(BlockingServiceBenchmark.class, Map.of("executor", "pool")), 1));
  }

  /** The same on virtual threads, which the servers' JVM (this test's Java) has from 21 on. */
  @Test
  void blockingServiceRunsOnVirtualThreads() throws Exception {
    assumeTrue(Runtime.version().feature() >= 21, "virtual threads need Java 21; this is " + Runtime.version());
    assertEquals(List.of(), BenchmarkSmoke.problems(
        BenchmarkSmoke.run(BlockingServiceBenchmark.class, Map.of("executor", "virtual")), 1));
  }

  /** The three ways of parsing a message spread over frames, on the large page. */
  @Test
  void messageParseRunsEveryWay() throws Exception {
    assertEquals(List.of(), BenchmarkSmoke.problems(
        BenchmarkSmoke.run(MessageParseBenchmark.class, Map.of("message", "page")), 3));
  }
}
