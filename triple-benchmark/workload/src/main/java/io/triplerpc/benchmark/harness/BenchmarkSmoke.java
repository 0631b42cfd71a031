package io.triplerpc.benchmark.harness;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.profile.Profiler;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs every benchmark of a contender briefly in this JVM, so the suite cannot rot: each contender's
 * smoke test calls it and asserts that {@link #problems} is empty. Its figures mean nothing. One
 * warm-up iteration because profilers see the server only from the iteration after the set-up.
 */
public final class BenchmarkSmoke {

  private BenchmarkSmoke() {}

  @SafeVarargs
  public static Collection<RunResult> run(Class<?> benchmarks, Class<? extends Profiler>... profilers)
      throws RunnerException {
    return run(benchmarks, Map.of(), profilers);
  }

  /** As {@link #run(Class, Class[])}, with these values of the benchmarks' {@code @Param}s. */
  @SafeVarargs
  public static Collection<RunResult> run(Class<?> benchmarks, Map<String, String> params,
      Class<? extends Profiler>... profilers) throws RunnerException {
    ChainedOptionsBuilder options = new OptionsBuilder()
        .include(benchmarks.getName())
        .forks(0)
        .threads(2)
        .warmupIterations(1)
        .warmupTime(TimeValue.milliseconds(100))
        .measurementIterations(1)
        .measurementTime(TimeValue.milliseconds(200))
        .timeUnit(TimeUnit.SECONDS)
        .shouldFailOnError(true);
    params.forEach(options::param);
    for (Class<? extends Profiler> profiler : profilers) {
      options.addProfiler(profiler);
    }
    return new Runner(options.build()).run();
  }

  /**
   * What is wrong with a smoke run: a benchmark count other than {@code expected}, a benchmark that
   * scored nothing, or one without each of the {@code secondaries} (positive where it must count).
   */
  public static List<String> problems(Collection<RunResult> results, int expected, String... secondaries) {
    List<String> problems = new ArrayList<>();
    if (results.size() != expected) {
      problems.add(results.size() + " benchmarks ran, not " + expected);
    }
    for (RunResult result : results) {
      String name = result.getParams().getBenchmark();
      if (!(result.getPrimaryResult().getScore() > 0)) {
        problems.add(name + " scored nothing");
      }
      for (String secondary : secondaries) {
        Result value = result.getSecondaryResults().get(secondary);
        if (value == null) {
          problems.add(name + " has no " + secondary + ": " + result.getSecondaryResults().keySet());
        } else if (secondary.startsWith("wq.") && !(value.getScore() > 0)) {
          problems.add(name + ": " + secondary + " = " + value.getScore());
        }
      }
    }
    return problems;
  }
}
