package io.triplerpc.registry.internal;

import io.triplerpc.registry.DiscoveryObserver;
import io.triplerpc.registry.LoadBalancing;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * How a consumer's directories behave.
 *
 * @param balancing how an instance is picked per call
 * @param retries further attempts of an idempotent call on other instances after UNAVAILABLE
 * @param coalesceWindowNanos how long changes arriving during a burst are collected before being applied together
 * @param snapshotDelayNanos how long after a change the snapshot file is rewritten
 * @param emptyProtection whether an empty list after a non-empty one is ignored
 * @param initialWaitNanos how long a first call waits for a service's first list of instances
 * @param appliedListener told after each batch of changes is applied
 * @param outlierDetection how failing instances are ejected; null for never
 * @param peakEwma the latency estimates of {@link LoadBalancing#PEAK_EWMA}; the defaults if null with that
 *     balancer, and always null with another (its instances then carry no estimate)
 * @param observer told the services' sizes and the pushes' lag, guarded against its failures; null for no one
 * @param clock times the pushes' lag, in nanoseconds
 * @param hashHeader with {@link LoadBalancing#CONSISTENT_HASH}, the request header whose value is a call's key
 *     when its options give none (lower case); null for none
 * @param hashNodes with {@link LoadBalancing#CONSISTENT_HASH}, the points each instance has on the ring
 * @param warmupMillis the window over which a new instance's weight ramps up from its start time; 0 for none
 * @param wallClock the time in epoch milliseconds, which instances' start times are compared with
 */
public record DirectorySettings(
    LoadBalancing balancing,
    int retries,
    long coalesceWindowNanos,
    long snapshotDelayNanos,
    boolean emptyProtection,
    long initialWaitNanos,
    ApplicationDirectory.AppliedListener appliedListener,
    io.triplerpc.registry.OutlierDetection outlierDetection,
    PeakEwma peakEwma,
    DiscoveryObserver observer,
    LongSupplier clock,
    String hashHeader,
    int hashNodes,
    long warmupMillis,
    LongSupplier wallClock) {

  /** The settings, with {@code peakEwma} resolved as its parameter says and {@code observer} guarded. */
  public DirectorySettings {
    // Only the peak-EWMA balancer reads estimates: other clients' instances carry none.
    peakEwma = balancing != LoadBalancing.PEAK_EWMA ? null : peakEwma != null ? peakEwma : PeakEwma.defaults();
    observer = GuardedObserver.of(observer);
    Objects.requireNonNull(clock, "clock");
    hashHeader = hashHeader == null ? null : hashHeader.toLowerCase(java.util.Locale.ROOT);
    if (hashNodes < 4) {
      throw new IllegalArgumentException("hashNodes must be at least 4: " + hashNodes);
    }
    if (warmupMillis < 0) {
      throw new IllegalArgumentException("warmupMillis must not be negative: " + warmupMillis);
    }
    Objects.requireNonNull(wallClock, "wallClock");
  }

  /** Settings without outlier detection or observer, and the default peak-EWMA estimates if {@code balancing} uses them. */
  public DirectorySettings(
      LoadBalancing balancing,
      int retries,
      long coalesceWindowNanos,
      long snapshotDelayNanos,
      boolean emptyProtection,
      long initialWaitNanos,
      ApplicationDirectory.AppliedListener appliedListener) {
    this(balancing, retries, coalesceWindowNanos, snapshotDelayNanos, emptyProtection, initialWaitNanos,
        appliedListener, null, null, null, System::nanoTime, null, HashRing.DEFAULT_NODES,
        Warmup.DEFAULT_MILLIS, System::currentTimeMillis);
  }

  /** These settings, with {@code observer} told what the directories see, timed by {@code clock}. */
  public DirectorySettings withObserver(DiscoveryObserver observer, LongSupplier clock) {
    return new DirectorySettings(balancing, retries, coalesceWindowNanos, snapshotDelayNanos, emptyProtection,
        initialWaitNanos, appliedListener, outlierDetection, peakEwma, observer, clock, hashHeader, hashNodes,
        warmupMillis, wallClock);
  }

  /** The revision of static address lists, which serves every service. */
  public static final String ANY_REVISION = "*";

  boolean servesAll(String revision) {
    return ANY_REVISION.equals(revision);
  }
}
