package io.triplerpc.registry.internal;

import io.triplerpc.Status;
import io.triplerpc.registry.OutlierDetection;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLongFieldUpdater;

/**
 * One instance's calls and ejection state for outlier detection: counters that calls bump, and the
 * state the {@link OutlierDetector} keeps on its scheduler. Only instances of clients with outlier
 * detection on have one.
 */
final class OutlierStats {

  private static final AtomicLongFieldUpdater<OutlierStats> CALLS =
      AtomicLongFieldUpdater.newUpdater(OutlierStats.class, "calls");
  private static final AtomicIntegerFieldUpdater<OutlierStats> CONSECUTIVE =
      AtomicIntegerFieldUpdater.newUpdater(OutlierStats.class, "consecutiveFailures");
  /** Successes in the high 32 bits, failures in the low ones, since the last evaluation. */
  static final long SUCCESS = 1L << 32;

  private final OutlierDetection config;
  private volatile long calls;
  private volatile int consecutiveFailures;
  /** Read by balancers on every pick; written by the detector. */
  private volatile boolean ejected;
  /** The detector's own, on its scheduler's thread. */
  long ejectedAtNanos;
  int multiplier;

  OutlierStats(OutlierDetection config) {
    this.config = config;
  }

  /** Counts a call that ended with {@code code}: a failure, a success, or nothing if cancelled. */
  void record(Status.Code code) {
    if (config.isFailure(code)) {
      CALLS.incrementAndGet(this);
      CONSECUTIVE.incrementAndGet(this);
    } else if (code != Status.Code.CANCELLED) {
      CALLS.addAndGet(this, SUCCESS);
      if (consecutiveFailures != 0) {
        consecutiveFailures = 0;
      }
    }
  }

  /** The calls since the last time, successes in the high half; resets them. */
  long takeCalls() {
    return CALLS.getAndSet(this, 0);
  }

  int consecutiveFailures() {
    return consecutiveFailures;
  }

  boolean isEjected() {
    return ejected;
  }

  void eject(long nowNanos) {
    ejected = true;
    ejectedAtNanos = nowNanos;
    multiplier++;
  }

  /** Back in rotation: it needs as many failures in a row as a newcomer to be ejected again. */
  void uneject() {
    consecutiveFailures = 0;
    ejected = false;
  }
}
