package io.triplerpc.registry.internal;

/**
 * One instance's latency as the peak-EWMA balancer sees it: an estimate and the time it was last
 * updated, on a {@link PeakEwma}'s clock. Balancers read it without locking; calls update it when
 * they end, one at a time under this object's lock. The decay is the client's, passed in by
 * {@link PeakEwma}, so that an instance costs no more than this object (about 32 bytes).
 */
final class RttEstimate {

  /** In nanoseconds, as of {@link #updatedAtNanos}; written after it. */
  private volatile double estimateNanos;
  /** When the estimate was last set, on the clock; written before it. */
  private volatile long updatedAtNanos;

  RttEstimate(double initialNanos, long nowNanos) {
    this.updatedAtNanos = nowNanos;
    this.estimateNanos = initialNanos;
  }

  /**
   * The estimate as of {@code nowNanos}: decayed toward zero for the time since it was set, so an
   * instance no longer called (for having been slow) comes back into consideration. Never blocks.
   */
  double at(long nowNanos, double decayNanos) {
    // The estimate before the time: a reader racing an update may pair the old estimate with the new
    // time (seen a little less decayed than it is), never a new peak with an old time (seen decayed
    // to nothing, and flooded).
    double estimate = estimateNanos;
    long elapsed = nowNanos - updatedAtNanos;
    return elapsed <= 0 ? estimate : estimate * Math.exp(-elapsed / decayNanos);
  }

  /**
   * Counts a call that took {@code rttNanos}, ending at {@code nowNanos}. A call slower than the
   * estimate sets it at once (the peak). A faster one that {@code succeeded} moves it toward itself by
   * {@code 1 - w}, {@code w = exp(-elapsed / decay)} for the time elapsed since the last update:
   * samples close together move it little, a sample after a long silence nearly replaces it. A faster
   * one that failed (or was cancelled) only says the instance took at least that long: it raises the
   * decayed estimate if it is above it, and is otherwise ignored, so that failing fast never makes an
   * instance look fast.
   */
  synchronized void observe(long rttNanos, long nowNanos, boolean succeeded, double decayNanos) {
    double rtt = Math.max(0, rttNanos);
    double estimate = estimateNanos;
    long elapsed = Math.max(0, nowNanos - updatedAtNanos);
    double w = Math.exp(-elapsed / decayNanos);
    double next;
    if (rtt > estimate) {
      next = rtt;
    } else if (succeeded) {
      next = estimate * w + rtt * (1 - w);
    } else if (rtt > estimate * w) {
      next = rtt;
    } else {
      return;
    }
    updatedAtNanos = Math.max(nowNanos, updatedAtNanos);
    estimateNanos = next;
  }

  @Override
  public String toString() {
    return "RttEstimate{" + estimateNanos / 1e6 + " ms at " + updatedAtNanos + '}';
  }
}
