package io.triplerpc.benchmark.triple;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collection;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/** Runs every benchmark once, briefly, so the suite cannot rot; its figures mean nothing. */
class TripleBenchmarkSmokeTest {

  @Test
  void everyBenchmarkRunsAndScores() throws Exception {
    Options options = new OptionsBuilder()
        .include(TripleBenchmark.class.getName())
        .forks(0)
        .threads(2)
        .warmupIterations(0)
        .measurementIterations(1)
        .measurementTime(TimeValue.milliseconds(200))
        .timeUnit(TimeUnit.SECONDS)
        .shouldFailOnError(true)
        .build();
    Collection<RunResult> results = new Runner(options).run();
    assertEquals(7, results.size());
    for (RunResult result : results) {
      assertTrue(result.getPrimaryResult().getScore() > 0, result.getParams().getBenchmark() + " scored nothing");
    }
  }
}
