package io.triplerpc;

/**
 * A server's limit on calls in flight that adapts to measured latency, after TCP Vegas as Netflix's
 * concurrency-limits library applies it to RPC servers: while calls take about as long as the fastest
 * seen (no queueing), the limit grows; when they take longer (calls queue somewhere), it shrinks. A call
 * past the limit fails at once with {@link Status#RESOURCE_EXHAUSTED} instead of waiting, so admitted calls
 * keep their latency under overload. Immutable.
 *
 * <p>After each call that ends, with {@code L} the limit, {@code rtt} the call's time and {@code rtt0} the
 * shortest time seen, the estimated queue is {@code L × (1 − rtt0 / rtt)}; with {@code α = 3·log10 L} and
 * {@code β = 6·log10 L}: a queue of at most {@code log10 L} grows the limit by {@code β}, one below {@code α}
 * by {@code log10 L}, one above {@code β} shrinks it by {@code log10 L}. A call that was cancelled or passed
 * its deadline shrinks it too. Calls made while fewer than half the limit are in flight teach nothing (the
 * server was not busy). {@code rtt0} is measured again every few hundred calls, so it follows the service.
 */
public final class AdaptiveConcurrencyLimit {

  private final int initialLimit;
  private final int minLimit;
  private final int maxLimit;

  private AdaptiveConcurrencyLimit(int initialLimit, int minLimit, int maxLimit) {
    this.initialLimit = initialLimit;
    this.minLimit = minLimit;
    this.maxLimit = maxLimit;
  }

  /** A Vegas-style limit starting at 20, between 1 and 1,000. */
  public static AdaptiveConcurrencyLimit vegas() {
    return new AdaptiveConcurrencyLimit(20, 1, 1000);
  }

  /** A copy that starts at {@code initial} and stays within {@code [min, max]}. */
  public AdaptiveConcurrencyLimit withLimits(int initial, int min, int max) {
    if (min < 1 || max < min || initial < min || initial > max) {
      throw new IllegalArgumentException(
          "Adaptive limits need 1 <= min <= initial <= max: " + min + ", " + initial + ", " + max);
    }
    return new AdaptiveConcurrencyLimit(initial, min, max);
  }

  public int initialLimit() {
    return initialLimit;
  }

  public int minLimit() {
    return minLimit;
  }

  public int maxLimit() {
    return maxLimit;
  }

  @Override
  public String toString() {
    return "AdaptiveConcurrencyLimit{vegas, initial=" + initialLimit + ", min=" + minLimit + ", max=" + maxLimit + '}';
  }
}
