package io.triplerpc.registry.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The peak-EWMA latency estimate of one instance, on a clock the test moves: 10 s decay and a 30 ms
 * default, as {@link PeakEwma#defaults()}. Times are in milliseconds.
 */
class PeakEwmaTest {

  private static final double MS = 1e6;
  private static final double EPSILON = 1e-6;

  private long now = 5_000_000_000L;
  private final PeakEwma ewma = new PeakEwma(PeakEwma.DEFAULT_DECAY, PeakEwma.DEFAULT_RTT, () -> now);
  private int nextPort = 1;

  private Endpoint endpoint() {
    return new Endpoint("10.0.0.1", nextPort++, 100, null, ewma.newEstimate());
  }

  private void advanceMillis(double millis) {
    now += (long) (millis * MS);
  }

  /** A call to {@code e} that took {@code millis} and ends now. */
  private void call(Endpoint e, double millis, boolean succeeded) {
    ewma.observe(e, now - (long) (millis * MS), succeeded);
  }

  private double estimate(Endpoint e) {
    return ewma.estimate(e, now) / MS;
  }

  @Test
  void anInstanceNotMeasuredYetCountsTheDefaultWhichDecaysLikeAnyEstimate() {
    Endpoint e = endpoint();
    assertEquals(30, estimate(e), EPSILON);
    advanceMillis(10_000);
    assertEquals(30 * Math.exp(-1), estimate(e), EPSILON, "one decay time later: 1/e of it");

    Endpoint byHand = new Endpoint("10.0.0.2", 1, 100);
    assertEquals(30, estimate(byHand), EPSILON, "an endpoint without an estimate counts the default, always");
    advanceMillis(60_000);
    assertEquals(30, estimate(byHand), EPSILON);
  }

  @Test
  void aSlowerCallIsTakenAtOnce() {
    Endpoint e = endpoint();
    call(e, 200, true);
    assertEquals(200, estimate(e), EPSILON, "the peak, with no time for any average");
    advanceMillis(1);
    call(e, 500, true);
    assertEquals(500, estimate(e), EPSILON);
  }

  @Test
  void aFasterCallMovesTheEstimateByTheTimeSinceTheLastUpdate() {
    Endpoint e = endpoint();
    call(e, 200, true);
    call(e, 20, true);
    assertEquals(200, estimate(e), EPSILON, "at the same instant a faster call weighs nothing");

    advanceMillis(10_000);
    call(e, 20, true);
    double w = Math.exp(-1);
    assertEquals(200 * w + 20 * (1 - w), estimate(e), EPSILON, "ewma × w + rtt × (1 - w), w = exp(-10 s / 10 s)");
  }

  @Test
  void theEstimateFollowsTimeNotTheNumberOfCalls() {
    Endpoint fewCalls = endpoint();
    Endpoint manyCalls = endpoint();
    call(fewCalls, 200, true);
    call(manyCalls, 200, true);
    // Both recover to 5 ms: one is called once a second, the other ten times as often.
    for (int tick = 1; tick <= 600; tick++) {
      advanceMillis(100);
      call(manyCalls, 5, true);
      if (tick % 10 == 0) {
        call(fewCalls, 5, true);
      }
    }
    assertEquals(estimate(fewCalls), estimate(manyCalls), 1e-3);
    // 60 s = 6 decay times: 5 + 195 × e^-6.
    assertEquals(5 + 195 * Math.exp(-6), estimate(manyCalls), 1e-3);
  }

  @Test
  void theEstimateDecaysTowardZeroWhileNothingIsMeasured() {
    Endpoint e = endpoint();
    call(e, 200, true);
    advanceMillis(10_000);
    assertEquals(200 * Math.exp(-1), estimate(e), EPSILON);
    advanceMillis(36_000);
    assertTrue(estimate(e) < 2.1, "below 2 ms after 4.6 decay times: " + estimate(e));

    // After a long silence the next call is nearly all the estimate, slower or faster.
    advanceMillis(100_000);
    call(e, 5, true);
    assertEquals(5, estimate(e), 1e-3);
  }

  @Test
  void aRecoveredInstanceComesBackDownWithItsCalls() {
    Endpoint e = endpoint();
    call(e, 200, true);
    double previous = estimate(e);
    for (int second = 1; second <= 30; second++) {
      advanceMillis(1_000);
      call(e, 5, true);
      assertTrue(estimate(e) < previous, "lower every second: " + estimate(e) + " after " + previous);
      previous = estimate(e);
    }
    assertEquals(5 + 195 * Math.exp(-3), estimate(e), 1e-3, "30 s = 3 decay times");
    call(e, 100, true);
    assertEquals(100, estimate(e), EPSILON, "and back up at once when it slows again");
  }

  @Test
  void costIsTheEstimateTimesCallsInFlightPlusOne() {
    Endpoint e = endpoint();
    call(e, 40, true);
    assertEquals(40 * MS, ewma.cost(e, now), 1);
    e.callStarted();
    e.callStarted();
    e.callStarted();
    assertEquals(4 * 40 * MS, ewma.cost(e, now), 1);
    e.callEnded();
    assertEquals(3 * 40 * MS, ewma.cost(e, now), 1);
    advanceMillis(10_000);
    assertEquals(3 * 40 * Math.exp(-1) * MS, ewma.cost(e, now), 1, "decayed like the estimate");
  }

  @Test
  void aFailedCallCountsOnlyWhenSlowerThanTheEstimateSoFailingFastNeverLooksFast() {
    Endpoint e = endpoint();
    call(e, 100, true);
    advanceMillis(10_000); // Seen as 36.8 ms now.
    double decayed = 100 * Math.exp(-1);
    call(e, 5, false);
    assertEquals(decayed, estimate(e), EPSILON, "a fast failure: no sample at all");
    call(e, 50, false);
    assertEquals(50, estimate(e), EPSILON, "it took at least 50 ms: above the 36.8 ms seen, it counts");
    call(e, 500, false);
    assertEquals(500, estimate(e), EPSILON, "a failure after a long wait is a peak like any other");
  }

  @Test
  void settingsAreChecked() {
    assertThrows(IllegalArgumentException.class, () -> new PeakEwma(Duration.ZERO, PeakEwma.DEFAULT_RTT, () -> 0));
    assertThrows(IllegalArgumentException.class,
        () -> new PeakEwma(PeakEwma.DEFAULT_DECAY, Duration.ofMillis(-1), () -> 0));
    assertThrows(NullPointerException.class, () -> new PeakEwma(PeakEwma.DEFAULT_DECAY, PeakEwma.DEFAULT_RTT, null));
  }
}
