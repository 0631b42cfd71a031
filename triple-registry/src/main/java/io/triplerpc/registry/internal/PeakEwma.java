package io.triplerpc.registry.internal;

import io.triplerpc.registry.LoadBalancing;
import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * The latency side of {@link LoadBalancing#PEAK_EWMA}, one per client: the clock, the decay time, the
 * default for instances not measured yet, and the cost a pick compares. The state is per instance, in
 * each {@link Endpoint}'s {@link RttEstimate}. Immutable and thread-safe.
 */
public final class PeakEwma {

  /** How fast an estimate forgets, as linkerd2-proxy's balancer. */
  public static final Duration DEFAULT_DECAY = Duration.ofSeconds(10);
  /**
   * What an instance not measured yet is taken to answer in, as linkerd2-proxy: slower than a call
   * inside a data centre, so a newcomer is tried (its estimate decays, and calls in flight make the
   * others dearer) without being flooded before its first answers are in.
   */
  public static final Duration DEFAULT_RTT = Duration.ofMillis(30);

  private final double decayNanos;
  private final double defaultRttNanos;
  private final LongSupplier clock;

  /** Estimates decaying over {@code decay}, starting at {@code defaultRtt}, timed by {@code clock}. */
  public PeakEwma(Duration decay, Duration defaultRtt, LongSupplier clock) {
    this.decayNanos = Durations.positive(decay, "decay").toNanos();
    this.defaultRttNanos = Durations.notNegative(defaultRtt, "defaultRtt").toNanos();
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The defaults, on {@link System#nanoTime}. */
  public static PeakEwma defaults() {
    return new PeakEwma(DEFAULT_DECAY, DEFAULT_RTT, System::nanoTime);
  }

  /** The time on this balancer's clock, in nanoseconds. */
  long now() {
    return clock.getAsLong();
  }

  /** The estimate of an instance found now: the default, decaying from now on. */
  RttEstimate newEstimate() {
    return new RttEstimate(defaultRttNanos, clock.getAsLong());
  }

  /**
   * What calling {@code endpoint} costs at {@code nowNanos}: its latency estimate × (its calls in
   * flight + 1). An endpoint without an estimate (built by hand) counts the default. No lock, no
   * allocation.
   */
  double cost(Endpoint endpoint, long nowNanos) {
    return estimate(endpoint, nowNanos) * (endpoint.active() + 1);
  }

  /** The latency estimate of {@code endpoint} at {@code nowNanos}, in nanoseconds; the default without one. */
  double estimate(Endpoint endpoint, long nowNanos) {
    RttEstimate rtt = endpoint.rtt();
    return rtt == null ? defaultRttNanos : rtt.at(nowNanos, decayNanos);
  }

  /**
   * A call to {@code endpoint} that started at {@code startedAtNanos} (this clock) ended now; see
   * {@link RttEstimate#observe} for how it counts.
   */
  void observe(Endpoint endpoint, long startedAtNanos, boolean succeeded) {
    RttEstimate rtt = endpoint.rtt();
    if (rtt != null) {
      long now = clock.getAsLong();
      rtt.observe(now - startedAtNanos, now, succeeded, decayNanos);
    }
  }
}
