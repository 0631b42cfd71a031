package io.triplerpc.benchmark.triple;

import io.triplerpc.Status;
import io.triplerpc.StatusException;
import java.util.Arrays;
import java.util.concurrent.CompletionException;

/**
 * What became of {@link OverloadBenchmark}'s calls since the last {@link #reset}: counts by outcome and the
 * latency of each call that succeeded, from its intended send time. Calls end on the transport's threads.
 */
final class OverloadOutcomes {

  static final OverloadOutcomes INSTANCE = new OverloadOutcomes();

  private long since = System.nanoTime();
  /** When the window closed, or 0 while it is open. */
  private long until;
  private long[] latencies = new long[1 << 16];
  private int succeeded;
  private long refused;
  private long timedOut;
  private long failed;

  synchronized void reset() {
    since = System.nanoTime();
    until = 0;
    succeeded = 0;
    refused = 0;
    timedOut = 0;
    failed = 0;
  }

  /**
   * Ends the window: what ends later is not counted (JMH tears the trial down, closing the client, before
   * profilers see the last iteration).
   */
  synchronized void close() {
    if (until == 0) {
      until = System.nanoTime();
    }
  }

  synchronized void record(long intendedNanos, Throwable failure) {
    if (intendedNanos < since || until != 0) {
      return; // sent in an earlier window, or ended after this one
    }
    if (failure == null) {
      if (succeeded == latencies.length) {
        latencies = Arrays.copyOf(latencies, succeeded * 2);
      }
      latencies[succeeded++] = System.nanoTime() - intendedNanos;
      return;
    }
    Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    Status.Code code = cause instanceof StatusException e ? e.status().code() : Status.Code.UNKNOWN;
    if (code == Status.Code.RESOURCE_EXHAUSTED) {
      refused++;
    } else if (code == Status.Code.DEADLINE_EXCEEDED) {
      timedOut++;
    } else {
      failed++;
    }
  }

  /** Counts per second since the last reset, and percentiles of the successes' latency in milliseconds. */
  synchronized Snapshot snapshot() {
    double seconds = ((until != 0 ? until : System.nanoTime()) - since) / 1e9;
    long[] sorted = Arrays.copyOf(latencies, succeeded);
    Arrays.sort(sorted);
    return new Snapshot(succeeded / seconds, refused / seconds, timedOut / seconds, failed / seconds,
        percentile(sorted, 0.50), percentile(sorted, 0.99), percentile(sorted, 0.999));
  }

  private static double percentile(long[] sorted, double p) {
    if (sorted.length == 0) {
      return Double.NaN;
    }
    int index = (int) Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1);
    return sorted[Math.max(0, index)] / 1e6;
  }

  record Snapshot(double goodput, double refused, double timedOut, double failed, double p50, double p99,
      double p999) {
  }
}
