package io.triplerpc.benchmark.harness;

import java.util.Collection;
import java.util.List;
import java.util.function.LongSupplier;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * How well the client's write queue batches: commands per flush and flushes per operation, over each
 * iteration ({@code -prof io.triplerpc.benchmark.harness.WriteStatsProfiler}). A contender that has
 * such counters registers them with {@link #source}; for the others this profiler reports nothing.
 */
public final class WriteStatsProfiler implements InternalProfiler {

  private static volatile LongSupplier commandsSource;
  private static volatile LongSupplier flushesSource;

  // Captured before each iteration: the trial's tear-down clears the source before afterIteration.
  private LongSupplier commands;
  private LongSupplier flushes;
  private long commandsBefore;
  private long flushesBefore;

  /** Registers the counters of the client being measured (null to clear). */
  public static void source(LongSupplier commands, LongSupplier flushes) {
    commandsSource = commands;
    flushesSource = flushes;
  }

  @Override
  public String getDescription() {
    return "Client write queue: commands per flush and flushes per operation";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    commands = commandsSource;
    flushes = flushesSource;
    if (commands != null && flushes != null) {
      commandsBefore = commands.getAsLong();
      flushesBefore = flushes.getAsLong();
    }
  }

  @Override
  public Collection<? extends Result> afterIteration(
      BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
    long ops = result.getMetadata().getMeasuredOps();
    if (commands == null || flushes == null || ops <= 0) {
      return List.of();
    }
    long commandDelta = commands.getAsLong() - commandsBefore;
    long flushDelta = flushes.getAsLong() - flushesBefore;
    if (flushDelta <= 0) {
      return List.of();
    }
    return List.of(
        new ScalarResult("wq.commands.per.flush", (double) commandDelta / flushDelta, "commands", AggregationPolicy.AVG),
        new ScalarResult("wq.flushes.per.op", (double) flushDelta / ops, "flushes/op", AggregationPolicy.AVG));
  }
}
