package io.triplerpc.benchmark.dubbo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.benchmark.harness.ServerCpuProfiler;
import java.util.Collection;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs every benchmark briefly, so the suite cannot rot; its figures mean nothing. One warm-up
 * iteration because profilers see the server only from the iteration after the trial set-up.
 */
class DubboBenchmarkSmokeTest {

  @Test
  void everyBenchmarkRunsAndScores() throws Exception {
    Options options = new OptionsBuilder()
        .include(DubboBenchmark.class.getName())
        .forks(0)
        .addProfiler(ServerCpuProfiler.class)
        .threads(2)
        .warmupIterations(1)
        .warmupTime(TimeValue.milliseconds(100))
        .measurementIterations(1)
        .measurementTime(TimeValue.milliseconds(200))
        .timeUnit(TimeUnit.SECONDS)
        .shouldFailOnError(true)
        .build();
    Collection<RunResult> results = new Runner(options).run();
    assertEquals(7, results.size());
    for (RunResult result : results) {
      String name = result.getParams().getBenchmark();
      assertTrue(result.getPrimaryResult().getScore() > 0, name + " scored nothing");
      Map<String, Result> secondary = result.getSecondaryResults();
      assertTrue(secondary.containsKey("server.cpu"), name + " has no server CPU: " + secondary.keySet());
    }
  }
}
