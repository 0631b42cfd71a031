package io.triplerpc.registry.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.Status;
import io.triplerpc.registry.LoadBalancing;
import io.triplerpc.registry.OutlierDetection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link OutlierDetector} over endpoints built by hand, evaluated at times the test names (in whole
 * seconds, as a 1 s interval timer would run it), and the balancers' handling of ejected endpoints.
 */
class OutlierDetectorTest {

  private static final OutlierDetection CONFIG = OutlierDetection.builder()
      .interval(Duration.ofSeconds(1))
      .baseEjectionTime(Duration.ofSeconds(2))
      .maxEjectionTime(Duration.ofSeconds(5))
      .maxEjectionPercent(50)
      .consecutiveFailures(3)
      .build();

  private final OutlierDetector detector = new OutlierDetector(CONFIG, () -> 0);
  private final List<Endpoint> endpoints = new ArrayList<>();

  private Endpoint endpoint() {
    Endpoint e = new Endpoint("10.0.0.1", endpoints.size() + 1, 100, new OutlierStats(CONFIG));
    endpoints.add(e);
    return e;
  }

  private static void fail(Endpoint e, int times) {
    for (int i = 0; i < times; i++) {
      e.recordOutcome(Status.Code.INTERNAL);
    }
  }

  private void evaluateAt(long seconds) {
    detector.evaluate(endpoints, TimeUnit.SECONDS.toNanos(seconds));
  }

  /** The first second, from {@code from} on, at which {@code e} is back. */
  private long backAt(Endpoint e, long from) {
    for (long t = from; t < from + 100; t++) {
      evaluateAt(t);
      if (!e.isEjected()) {
        return t;
      }
    }
    throw new AssertionError("never back");
  }

  @Test
  void ejectionTimeGrowsWithEachEjectionInARowUpToTheMaximum() {
    Endpoint bad = endpoint();
    endpoint();
    long t = 0;
    List<Long> durations = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      fail(bad, 3);
      evaluateAt(t);
      assertTrue(bad.isEjected(), "ejection " + i);
      long back = backAt(bad, t + 1);
      durations.add(back - t);
      t = back + 1; // Failing again at once: its multiplier has not decayed.
    }
    assertEquals(List.of(2L, 4L, 5L, 5L), durations, "2 s, 4 s, then capped by maxEjectionTime");
  }

  @Test
  void multiplierDecaysOnePerIntervalOutOfEjection() {
    Endpoint bad = endpoint();
    endpoint();
    fail(bad, 3);
    evaluateAt(0);
    assertEquals(2, backAt(bad, 1)); // multiplier 1
    fail(bad, 3);
    evaluateAt(3);
    assertEquals(7, backAt(bad, 4)); // multiplier 2: 4 s
    evaluateAt(8); // multiplier 1
    evaluateAt(9); // multiplier 0
    fail(bad, 3);
    evaluateAt(10);
    assertEquals(12, backAt(bad, 11), "after two quiet intervals the ejection is a first one again");
  }

  @Test
  void aSuccessResetsTheConsecutiveFailuresAndCancelledCallsDoNotCount() {
    Endpoint e = endpoint();
    endpoint();
    fail(e, 2);
    e.recordOutcome(Status.Code.OK);
    fail(e, 2);
    e.recordOutcome(Status.Code.CANCELLED);
    e.recordOutcome(Status.Code.NOT_FOUND); // an answer: counts as a success
    fail(e, 2);
    evaluateAt(0);
    assertFalse(e.isEjected());
    fail(e, 1);
    evaluateAt(1);
    assertTrue(e.isEjected());
  }

  @Test
  void maxEjectionPercentIsCheckedBeforeEachEjection() {
    for (int i = 0; i < 5; i++) {
      fail(endpoint(), 3);
    }
    evaluateAt(0);
    // 50 % of 5: ejections at 0 %, 20 %, 40 %; at 60 % it stops.
    assertEquals(3, endpoints.stream().filter(Endpoint::isEjected).count());
  }

  @Test
  void failurePercentageEjectsAboveTheThresholdOnlyAmongEnoughBusyHosts() {
    OutlierDetection config = OutlierDetection.builder().consecutiveFailures(0).maxEjectionPercent(100)
        .failurePercentage(85, 100, 5, 10).build();
    OutlierDetector detector = new OutlierDetector(config, () -> 0);
    List<Endpoint> hosts = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      hosts.add(new Endpoint("10.0.0.1", i + 1, 100, new OutlierStats(config)));
    }
    Endpoint above = hosts.get(0);
    Endpoint atThreshold = hosts.get(1);
    record(above, 9, 1); // 90 %
    record(atThreshold, 17, 3); // 85 %: not above
    for (int i = 2; i < 5; i++) {
      record(hosts.get(i), 0, 10);
    }
    detector.evaluate(hosts, 0);
    assertTrue(above.isEjected());
    assertFalse(atThreshold.isEjected());

    // Next interval: only four hosts with 10 calls (the ejected one has none): below the minimum.
    record(atThreshold, 10, 0);
    for (int i = 2; i < 5; i++) {
      record(hosts.get(i), 0, 10);
    }
    detector.evaluate(hosts, 1);
    assertFalse(atThreshold.isEjected(), "4 hosts with enough calls, 5 needed");
  }

  private static void record(Endpoint e, int failures, int successes) {
    fail(e, failures);
    for (int i = 0; i < successes; i++) {
      e.recordOutcome(Status.Code.OK);
    }
  }

  @ParameterizedTest
  @EnumSource(LoadBalancing.class)
  void everyBalancerSkipsEjectedEndpoints(LoadBalancing balancing) {
    RevisionGroup group = new RevisionGroup("app", "r1", false);
    for (int i = 0; i < 4; i++) {
      group.add(endpoint());
    }
    Endpoint ejected = endpoints.get(2);
    fail(ejected, 3);
    evaluateAt(0);
    assertTrue(ejected.isEjected());
    ServiceDirectory service = new ServiceDirectory("demo.Greeter", balancing);
    service.link(group);
    for (int i = 0; i < 400; i++) {
      Endpoint picked = service.pick(new Endpoint[0], 0);
      assertNotNull(picked);
      assertNotSame(ejected, picked, "pick " + i);
    }
  }

  @Test
  void nothingIsPickedWhenEveryEndpointIsEjected() {
    OutlierDetection all = OutlierDetection.builder().maxEjectionPercent(100).consecutiveFailures(1).build();
    OutlierDetector detector = new OutlierDetector(all, () -> 0);
    RevisionGroup group = new RevisionGroup("app", "r1", false);
    Endpoint only = new Endpoint("10.0.0.1", 1, 100, new OutlierStats(all));
    group.add(only);
    only.recordOutcome(Status.Code.UNAVAILABLE);
    detector.evaluate(List.of(only), 0);
    ServiceDirectory service = new ServiceDirectory("demo.Greeter", LoadBalancing.ROUND_ROBIN);
    service.link(group);
    assertNull(service.pick(new Endpoint[0], 0));
  }
}
