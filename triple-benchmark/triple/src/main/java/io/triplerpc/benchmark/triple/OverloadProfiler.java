package io.triplerpc.benchmark.triple;

import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * {@link OverloadBenchmark}'s outcomes per iteration, as secondary results: goodput (calls that succeeded
 * per second), refusals and timeouts per second, and the p50/p99/p99.9 latency of the calls that succeeded
 * ({@code -prof io.triplerpc.benchmark.triple.OverloadProfiler}).
 */
public final class OverloadProfiler implements InternalProfiler {

  @Override
  public String getDescription() {
    return "Goodput, refusals, timeouts and latency of admitted calls under open-loop load";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    OverloadOutcomes.INSTANCE.reset();
  }

  @Override
  public Collection<? extends Result> afterIteration(
      BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
    OverloadOutcomes.Snapshot s = OverloadOutcomes.INSTANCE.snapshot();
    return List.of(
        new ScalarResult("goodput", s.goodput(), "ops/s", AggregationPolicy.AVG),
        new ScalarResult("refused", s.refused(), "ops/s", AggregationPolicy.AVG),
        new ScalarResult("timedOut", s.timedOut(), "ops/s", AggregationPolicy.AVG),
        new ScalarResult("failed", s.failed(), "ops/s", AggregationPolicy.AVG),
        new ScalarResult("admitted.p50", s.p50(), "ms", AggregationPolicy.AVG),
        new ScalarResult("admitted.p99", s.p99(), "ms", AggregationPolicy.AVG),
        new ScalarResult("admitted.p999", s.p999(), "ms", AggregationPolicy.AVG));
  }
}
