package io.triplerpc.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.testing.ManualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Outlier ejection through {@link Discovery}, with real servers on loopback registered in an
 * {@link InProcessRegistry}; the evaluation runs on a {@link ManualClock}, so ejection times pass
 * when the test moves the clock. Failing instances answer INTERNAL, which counts as a failure but does
 * not set off the one-second UNAVAILABLE penalty (on the real clock) that would otherwise mix in.
 */
class OutlierDetectionTest {

  private static final Duration INTERVAL = Duration.ofSeconds(1);
  private static final Duration BASE = Duration.ofSeconds(3);

  private final InProcessRegistry registry = new InProcessRegistry();
  private final ManualClock clock = new ManualClock();
  private final List<TripleServer> servers = new ArrayList<>();
  private final List<TripleClient> clients = new ArrayList<>();

  @AfterEach
  void stop() throws InterruptedException {
    clients.forEach(TripleClient::close);
    for (TripleServer server : servers) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(5));
    }
    registry.close();
    clock.close();
  }

  /** An instance that counts its calls and answers INTERNAL while failing. */
  private final class Instance implements Whoami {

    final String name;
    final AtomicInteger calls = new AtomicInteger();
    volatile boolean failing;

    Instance(String name, boolean failing) {
      this.name = name;
      this.failing = failing;
      servers.add(TripleServer.builder().host("127.0.0.1").port(0)
          .addService(Whoami.class, this)
          .registration(Registration.to(registry).application("outlier-app").build())
          .build().start());
    }

    @Override
    public String who(String caller) {
      calls.incrementAndGet();
      if (failing) {
        throw Status.INTERNAL.withDescription(name + " is broken").asException();
      }
      return name;
    }

    @Override
    public String whoIdempotent(String caller) {
      return who(caller);
    }
  }

  private static OutlierDetection.Builder detection() {
    return OutlierDetection.builder().interval(INTERVAL).baseEjectionTime(BASE);
  }

  /**
   * A round-robin consumer with {@code detection}, once it has reached each of {@code instances} (every
   * instance registered) with one call.
   */
  private Whoami consumer(OutlierDetection detection, Instance... instances) throws Exception {
    RecordingDiscoveryObserver seen = new RecordingDiscoveryObserver();
    TripleClient client = TripleClient.builder()
        .cluster(Discovery.using(registry).observer(seen).loadBalancing(LoadBalancing.ROUND_ROBIN).retries(0)
            .outlierDetection(detection)
            .outlierClock(clock.scheduler(), clock::nanoTime)
            .build())
        .build();
    clients.add(client);
    Whoami whoami = client.proxy(Whoami.class);
    // The first call waits for the instances; once all are in use, round robin gives each one of the
    // first calls.
    List<Integer> before = Arrays.stream(instances).map(instance -> instance.calls.get()).toList();
    call(whoami, 1);
    seen.awaitInstances("triple.test.Whoami", instances.length);
    call(whoami, instances.length - 1);
    for (int i = 0; i < instances.length; i++) {
      assertEquals(before.get(i) + 1, instances[i].calls.get(), instances[i].name + " is called once");
    }
    return whoami;
  }

  /** Makes {@code count} calls; failures must be the failing instances' INTERNAL. */
  private static void call(Whoami whoami, int count) {
    for (int i = 0; i < count; i++) {
      try {
        whoami.who("test");
      } catch (StatusException e) {
        assertEquals(Status.Code.INTERNAL, e.status().code(), e.status().toString());
      }
    }
  }

  /** How many of {@code count} calls reached {@code instance}. */
  private static int reaching(Instance instance, Whoami whoami, int count) {
    int before = instance.calls.get();
    call(whoami, count);
    return instance.calls.get() - before;
  }

  @Test
  void consecutiveFailuresEjectForTheEjectionTimeThenTwiceAsLong() throws Exception {
    Instance a = new Instance("a", false);
    Instance b = new Instance("b", false);
    Instance broken = new Instance("broken", true);
    Whoami whoami = consumer(detection().consecutiveFailures(5).build(), a, b, broken);

    assertEquals(10, reaching(broken, whoami, 30), "round robin: a third of the calls");
    clock.advance(INTERVAL); // t = 1 s: 10 failures in a row, ejected for 3 s
    assertEquals(0, reaching(broken, whoami, 30), "ejected: no calls");
    int before = a.calls.get() + b.calls.get();
    call(whoami, 30);
    assertEquals(30, a.calls.get() + b.calls.get() - before, "the others take every call");
    clock.advance(Duration.ofSeconds(2)); // t = 3 s
    assertEquals(0, reaching(broken, whoami, 30), "still ejected before its ejection time has passed");

    clock.advance(INTERVAL); // t = 4 s: 3 s have passed
    assertEquals(10, reaching(broken, whoami, 30), "back in rotation after the ejection time");
    clock.advance(INTERVAL); // t = 5 s: failing again before its multiplier decayed: ejected for 2 × 3 s
    assertEquals(0, reaching(broken, whoami, 30));
    clock.advance(Duration.ofSeconds(5)); // t = 10 s
    assertEquals(0, reaching(broken, whoami, 30), "a second ejection lasts twice as long");
    clock.advance(INTERVAL); // t = 11 s
    assertEquals(10, reaching(broken, whoami, 30), "back after 6 s");
  }

  @Test
  void healedInstanceStaysAndSuccessesBetweenFailuresDoNotEject() throws Exception {
    Instance a = new Instance("a", false);
    Instance flaky = new Instance("flaky", true);
    Whoami whoami = consumer(detection().consecutiveFailures(5).maxEjectionPercent(50).build(), a, flaky);

    assertEquals(5, reaching(flaky, whoami, 10));
    clock.advance(INTERVAL);
    assertEquals(0, reaching(flaky, whoami, 10), "ejected");
    flaky.failing = false;
    clock.advance(BASE);
    for (int round = 0; round < 5; round++) {
      assertEquals(5, reaching(flaky, whoami, 10), "healed, it keeps its share in round " + round);
      clock.advance(INTERVAL);
    }

    // Four failures, a success, four failures: never five in a row.
    flaky.failing = true;
    assertEquals(4, reaching(flaky, whoami, 8));
    flaky.failing = false;
    assertEquals(1, reaching(flaky, whoami, 2));
    flaky.failing = true;
    assertEquals(4, reaching(flaky, whoami, 8));
    clock.advance(INTERVAL);
    assertEquals(5, reaching(flaky, whoami, 10), "not ejected: its failures were not consecutive");
  }

  @Test
  void maxEjectionPercentCapsEjections() throws Exception {
    Instance a = new Instance("a", false);
    Instance broken1 = new Instance("broken1", true);
    Instance broken2 = new Instance("broken2", true);
    Whoami capped = consumer(detection().build(), a, broken1, broken2); // 10 %: one of three, as A50 allows
    Whoami uncapped = consumer(detection().maxEjectionPercent(100).build(), a, broken1, broken2);
    call(capped, 30);
    call(uncapped, 30);
    clock.advance(INTERVAL);

    int toFirst = reaching(broken1, capped, 30);
    int toSecond = reaching(broken2, capped, 30);
    assertTrue(toFirst == 0 ^ toSecond == 0,
        "exactly one of the two failing instances is ejected: " + toFirst + ", " + toSecond);
    assertEquals(0, reaching(broken1, uncapped, 30) + reaching(broken2, uncapped, 30),
        "at 100 % both are ejected");
    assertEquals(30, reaching(a, uncapped, 30));
  }

  @Test
  void callsFailWhenEveryInstanceIsEjected() throws Exception {
    Instance broken = new Instance("broken", true);
    Whoami whoami = consumer(detection().maxEjectionPercent(100).build(), broken);
    call(whoami, 5);
    clock.advance(INTERVAL);

    StatusException e = assertThrows(StatusException.class, () -> whoami.who("test"));
    assertEquals(Status.Code.UNAVAILABLE, e.status().code());
    assertTrue(e.status().description().contains("ejected as outliers"), e.status().description());
    assertEquals(0, reaching(broken, whoami, 0));
    clock.advance(BASE);
    assertEquals(1, reaching(broken, whoami, 1), "probed again once its ejection time has passed");
  }

  @Test
  void successRateEjectsTheOutlierAmongEnoughHosts() throws Exception {
    List<Instance> healthy = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      healthy.add(new Instance("healthy" + i, false));
    }
    Instance broken = new Instance("broken", true);
    Instance[] all = {healthy.get(0), healthy.get(1), healthy.get(2), healthy.get(3), broken};
    // Consecutive failures off: only the success rate can eject.
    Whoami whoami = consumer(detection().consecutiveFailures(0).successRate(1.9, 100, 5, 10).build(), all);

    assertEquals(10, reaching(broken, whoami, 50));
    clock.advance(INTERVAL); // mean 0.8, stdev 0.4: below 0.8 - 1.9 × 0.4 = 0.04 is an outlier
    assertEquals(0, reaching(broken, whoami, 50), "the outlier is ejected");
  }

  @Test
  void failurePercentageEjectsAnInstanceFailingMostCalls() throws Exception {
    Instance[] all = new Instance[5];
    for (int i = 0; i < 4; i++) {
      all[i] = new Instance("healthy" + i, false);
    }
    Instance broken = new Instance("broken", true);
    all[4] = broken;
    Whoami whoami = consumer(detection().consecutiveFailures(0).failurePercentage(85, 100, 5, 10).build(), all);

    assertEquals(10, reaching(broken, whoami, 50));
    clock.advance(INTERVAL); // 100 % failures, above 85 %
    assertEquals(0, reaching(broken, whoami, 50), "ejected");
  }

  @Test
  void noSuccessRateEjectionBelowMinimumHostsOrRequestVolume() throws Exception {
    Instance[] all = new Instance[5];
    for (int i = 0; i < 4; i++) {
      all[i] = new Instance("healthy" + i, false);
    }
    Instance broken = new Instance("broken", true);
    all[4] = broken;
    Whoami tooFewHosts = consumer(detection().consecutiveFailures(0).successRate(1.9, 100, 6, 10).build(), all);
    Whoami tooFewCalls = consumer(detection().consecutiveFailures(0).successRate(1.9, 100, 5, 11).build(), all);
    Whoami neverEnforced = consumer(detection().consecutiveFailures(0).successRate(1.9, 0, 5, 10).build(), all);
    clock.advance(INTERVAL); // The calls made while waiting for the instances counted: an interval without them

    call(tooFewHosts, 50);
    call(tooFewCalls, 50); // 10 calls each: below the volume of 11
    call(neverEnforced, 50);
    clock.advance(INTERVAL);
    assertEquals(10, reaching(broken, tooFewHosts, 50), "5 hosts with calls, 6 needed: nothing ejected");
    assertEquals(10, reaching(broken, tooFewCalls, 50), "no host had 11 calls: nothing ejected");
    assertEquals(10, reaching(broken, neverEnforced, 50), "enforcement 0 %: nothing ejected");
  }

  @Test
  void settingsAreChecked() {
    assertEquals("outlier detection maxEjectionPercent must be between 0 and 100: 101",
        assertThrows(IllegalArgumentException.class, () -> OutlierDetection.builder().maxEjectionPercent(101))
            .getMessage());
    assertEquals("outlier detection interval must be positive: PT0S",
        assertThrows(IllegalArgumentException.class, () -> OutlierDetection.builder().interval(Duration.ZERO))
            .getMessage());
    assertEquals("outlier detection baseEjectionTime must be positive: PT-1S",
        assertThrows(IllegalArgumentException.class,
            () -> OutlierDetection.builder().baseEjectionTime(Duration.ofSeconds(-1))).getMessage());
    assertEquals("outlier detection consecutiveFailures must not be negative (0 turns it off): -1",
        assertThrows(IllegalArgumentException.class, () -> OutlierDetection.builder().consecutiveFailures(-1))
            .getMessage());
    assertEquals("outlier detection stdevFactor must be a finite number not below zero: NaN",
        assertThrows(IllegalArgumentException.class,
            () -> OutlierDetection.builder().successRate(Double.NaN, 100, 5, 100)).getMessage());
    assertEquals("outlier detection enforcementPercentage must be between 0 and 100: -5",
        assertThrows(IllegalArgumentException.class,
            () -> OutlierDetection.builder().successRate(1.9, -5, 5, 100)).getMessage());
    assertEquals("outlier detection minimumHosts must be at least 1: 0",
        assertThrows(IllegalArgumentException.class,
            () -> OutlierDetection.builder().successRate(1.9, 100, 0, 100)).getMessage());
    assertEquals("outlier detection requestVolume must be at least 1: 0",
        assertThrows(IllegalArgumentException.class,
            () -> OutlierDetection.builder().successRate(1.9, 100, 5, 0)).getMessage());
    assertThrows(IllegalArgumentException.class,
        () -> OutlierDetection.builder().failureCodes(Set.of(Status.Code.OK)));
    assertEquals("outlier detection failure percentage threshold must be between 0 and 100: 101",
        assertThrows(IllegalArgumentException.class,
            () -> OutlierDetection.builder().failurePercentage(101, 100, 5, 50)).getMessage());
    assertEquals("outlier detection failure percentage requestVolume must be at least 1: 0",
        assertThrows(IllegalArgumentException.class,
            () -> OutlierDetection.builder().failurePercentage(85, 100, 5, 0)).getMessage());
    assertEquals("outlier detection with consecutiveFailures 0, no successRate and no failurePercentage would never"
        + " eject anything",
        assertThrows(IllegalArgumentException.class, () -> OutlierDetection.builder().consecutiveFailures(0).build())
            .getMessage());
    assertThrows(NullPointerException.class, () -> Discovery.using(registry).outlierDetection(null));

    OutlierDetection defaults = OutlierDetection.builder().build();
    assertEquals(Duration.ofSeconds(10), defaults.interval());
    assertEquals(Duration.ofSeconds(30), defaults.baseEjectionTime());
    assertEquals(Duration.ofSeconds(300), defaults.maxEjectionTime());
    assertEquals(10, defaults.maxEjectionPercent());
    assertEquals(5, defaults.consecutiveFailures());
    assertEquals(false, defaults.successRateEjection());
    assertTrue(defaults.isFailure(Status.Code.DEADLINE_EXCEEDED));
    assertEquals(false, defaults.isFailure(Status.Code.NOT_FOUND));
  }
}
