package io.triplerpc.internal.server;

import io.triplerpc.AdaptiveConcurrencyLimit;
import io.triplerpc.Status;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@link AdaptiveConcurrencyLimit} of a server: admits a call while fewer than the limit are in flight
 * (a compare-and-set), and after each call adjusts the limit from its time, as the class's Javadoc says.
 * The adjustment takes a lock, once per ended call; admission does not.
 */
final class VegasLimiter {

  /** Calls between two measurements of the shortest time, per unit of limit. */
  private static final int PROBE_MULTIPLIER = 30;

  private final int minLimit;
  private final int maxLimit;
  private final AtomicInteger inFlight = new AtomicInteger();
  private volatile int limit;
  /** Guarded by this. */
  private double estimate;
  private long shortestNanos;
  private long samplesUntilProbe;

  VegasLimiter(AdaptiveConcurrencyLimit settings) {
    this.minLimit = settings.minLimit();
    this.maxLimit = settings.maxLimit();
    this.estimate = settings.initialLimit();
    this.limit = settings.initialLimit();
    this.samplesUntilProbe = (long) PROBE_MULTIPLIER * settings.initialLimit();
  }

  /** Admits a call if fewer than the limit are in flight. */
  boolean tryAcquire() {
    for (int now = inFlight.get(); now < limit; now = inFlight.get()) {
      if (inFlight.compareAndSet(now, now + 1)) {
        return true;
      }
    }
    return false;
  }

  /** A call admitted by {@link #tryAcquire} ended after {@code nanos}; {@code dropped} if it was cancelled or timed out. */
  void release(long nanos, boolean dropped) {
    int flying = inFlight.getAndDecrement();
    synchronized (this) {
      if (--samplesUntilProbe <= 0) {
        // Measure the shortest time again: the service may have become slower for good.
        shortestNanos = 0;
        samplesUntilProbe = (long) PROBE_MULTIPLIER * limit;
      }
      if (nanos <= 0) {
        return;
      }
      if (shortestNanos == 0 || nanos < shortestNanos) {
        shortestNanos = nanos;
        return;
      }
      double l = estimate;
      double log = Math.max(1, Math.log10(l));
      if (dropped) {
        l -= log;
      } else if (flying * 2 < l) {
        return;
      } else {
        double queue = Math.ceil(l * (1 - (double) shortestNanos / nanos));
        if (queue <= log) {
          l += 6 * log;
        } else if (queue < 3 * log) {
          l += log;
        } else if (queue > 6 * log) {
          l -= log;
        } else {
          return;
        }
      }
      estimate = Math.max(minLimit, Math.min(maxLimit, l));
      limit = (int) estimate;
    }
  }

  int limit() {
    return limit;
  }

  int inFlight() {
    return inFlight.get();
  }

  Status refusal() {
    return Status.RESOURCE_EXHAUSTED.withDescription("The server runs " + limit
        + " calls, its adaptive concurrency limit now: try again later");
  }
}
