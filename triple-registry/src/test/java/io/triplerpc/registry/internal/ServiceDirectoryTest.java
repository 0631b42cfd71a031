package io.triplerpc.registry.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.registry.LoadBalancing;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Each balancer over groups built by hand, and the exclusion of tried and removed endpoints. */
class ServiceDirectoryTest {

  private static final Endpoint[] NONE_TRIED = new Endpoint[0];
  private int nextPort = 1;

  private RevisionGroup group(String revision, int... weights) {
    RevisionGroup group = new RevisionGroup("app", revision, false);
    for (int weight : weights) {
      group.add(new Endpoint("10.0.0.1", nextPort++, weight));
    }
    return group;
  }

  private static List<Endpoint> endpoints(RevisionGroup... groups) {
    List<Endpoint> all = new ArrayList<>();
    for (RevisionGroup group : groups) {
      for (int i = 0; i < group.size(); i++) {
        all.add(group.at(i));
      }
    }
    return all;
  }

  private static ServiceDirectory service(LoadBalancing balancing, RevisionGroup... groups) {
    ServiceDirectory service = new ServiceDirectory("demo.Greeter", balancing);
    for (RevisionGroup group : groups) {
      service.link(group);
    }
    return service;
  }

  private static Map<Endpoint, Integer> tally(ServiceDirectory service, int picks) {
    Map<Endpoint, Integer> counts = new IdentityHashMap<>();
    for (int i = 0; i < picks; i++) {
      Endpoint e = service.pick(NONE_TRIED, 0);
      assertNotNull(e, "pick " + i);
      counts.merge(e, 1, Integer::sum);
    }
    return counts;
  }

  @Test
  void roundRobinVisitsEveryEndpointEquallyAcrossTwoGroups() {
    RevisionGroup first = group("rev-1", 100, 100, 100);
    RevisionGroup second = group("rev-2", 500, 0);
    ServiceDirectory service = service(LoadBalancing.ROUND_ROBIN, first, second);
    List<Endpoint> all = endpoints(first, second);
    assertEquals(5, service.size());

    int rounds = 7;
    Map<Endpoint, Integer> counts = tally(service, rounds * all.size());
    for (Endpoint e : all) {
      assertEquals(rounds, counts.getOrDefault(e, 0), "round robin ignores weights: " + counts);
    }

    // Any n consecutive picks are n different endpoints.
    Set<Endpoint> window = Collections.newSetFromMap(new IdentityHashMap<>());
    for (int i = 0; i < all.size(); i++) {
      window.add(service.pick(NONE_TRIED, 0));
    }
    assertEquals(all.size(), window.size());
  }

  @Test
  void roundRobinCyclesOverWhatIsLeftAfterARemoval() {
    RevisionGroup only = group("rev-1", 100, 100, 100, 100);
    ServiceDirectory service = service(LoadBalancing.ROUND_ROBIN, only);
    Endpoint gone = only.at(2);
    only.remove(gone);
    gone.remove();
    Map<Endpoint, Integer> counts = tally(service, 3 * 10);
    assertNull(counts.get(gone));
    for (Endpoint e : endpoints(only)) {
      assertEquals(10, counts.get(e), counts.toString());
    }
  }

  @Test
  void weightedRandomSplitsBetweenGroupsByTheirTotalWeight() {
    // rev-1 weighs 200 in all, rev-2 600: 1/8, 1/8, 3/4.
    RevisionGroup light = group("rev-1", 100, 100);
    RevisionGroup heavy = group("rev-2", 600);
    ServiceDirectory service = service(LoadBalancing.WEIGHTED_RANDOM, light, heavy);
    int picks = 80_000;
    Map<Endpoint, Integer> counts = tally(service, picks);
    int heavyCount = counts.getOrDefault(heavy.at(0), 0);
    assertTrue(heavyCount > 57_000 && heavyCount < 63_000, "~60,000 of 80,000: " + counts);
    for (Endpoint e : endpoints(light)) {
      int n = counts.getOrDefault(e, 0);
      assertTrue(n > 8_500 && n < 11_500, "~10,000 of 80,000: " + counts);
    }
  }

  @Test
  void weightedRandomFollowsWeightsInsideEachGroupAndSkipsAGroupWeighingZero() {
    RevisionGroup mixed = group("rev-1", 100, 300);
    RevisionGroup idle = group("rev-2", 0, 0);
    ServiceDirectory service = service(LoadBalancing.WEIGHTED_RANDOM, mixed, idle);
    Map<Endpoint, Integer> counts = tally(service, 40_000);
    for (Endpoint e : endpoints(idle)) {
      assertNull(counts.get(e), "weight 0: " + counts);
    }
    double ratio = counts.get(mixed.at(1)) / (double) counts.get(mixed.at(0));
    assertTrue(ratio > 2.6 && ratio < 3.4, "~3: " + counts);
  }

  @Test
  void leastActivePicksOnlyTheLeastBusyAndSharesTies() {
    RevisionGroup first = group("rev-1", 100, 100);
    RevisionGroup second = group("rev-2", 100, 100);
    ServiceDirectory service = service(LoadBalancing.LEAST_ACTIVE, first, second);
    List<Endpoint> all = endpoints(first, second);
    int[] active = {3, 1, 5, 1};
    for (int i = 0; i < all.size(); i++) {
      for (int c = 0; c < active[i]; c++) {
        all.get(i).callStarted();
      }
    }
    // One call ended on the busiest: 4 in flight there now.
    all.get(2).callEnded();
    assertEquals(4, all.get(2).active());

    Map<Endpoint, Integer> counts = tally(service, 20_000);
    // Endpoint has identity equality, so these sets compare the objects themselves.
    assertEquals(Set.of(all.get(1), all.get(3)), Set.copyOf(counts.keySet()), "only the two with 1 call: " + counts);
    for (Endpoint e : List.of(all.get(1), all.get(3))) {
      assertTrue(counts.get(e) > 8_000, "ties are shared: " + counts);
    }

    // The tie breaks when one finishes its call.
    all.get(3).callEnded();
    counts = tally(service, 1_000);
    assertEquals(Map.of(all.get(3), 1_000), counts);
  }

  /** Two endpoints: power of two choices compares both every time, so the busy one is never picked. */
  @Test
  void powerOfTwoChoicesNeverPicksTheBusierOfTwo() {
    RevisionGroup only = group("rev-1", 100, 100);
    ServiceDirectory service = service(LoadBalancing.POWER_OF_TWO_CHOICES, only);
    Endpoint busy = only.at(0);
    Endpoint idle = only.at(1);
    busy.callStarted();
    busy.callStarted();
    Map<Endpoint, Integer> counts = tally(service, 2_000);
    assertEquals(Map.of(idle, 2_000), counts, "the idle one every time");

    // Two in different groups.
    RevisionGroup other = group("rev-2", 100);
    ServiceDirectory split = service(LoadBalancing.POWER_OF_TWO_CHOICES, group("rev-3"), other);
    split.link(new RevisionGroup("app", "rev-4", false));
    RevisionGroup withBusy = new RevisionGroup("app", "rev-5", false);
    Endpoint busyElsewhere = new Endpoint("10.0.0.2", 1, 100);
    busyElsewhere.callStarted();
    withBusy.add(busyElsewhere);
    split.link(withBusy);
    assertEquals(Map.of(other.at(0), 2_000), tally(split, 2_000));
  }

  @Test
  void powerOfTwoChoicesRarelyPicksAHeavilyLoadedEndpoint() {
    RevisionGroup first = group("rev-1", 100, 100);
    RevisionGroup second = group("rev-2", 100, 100);
    ServiceDirectory service = service(LoadBalancing.POWER_OF_TWO_CHOICES, first, second);
    List<Endpoint> all = endpoints(first, second);
    Endpoint busy = all.get(2);
    for (int i = 0; i < 50; i++) {
      busy.callStarted();
    }
    Map<Endpoint, Integer> counts = tally(service, 40_000);
    // Two distinct choices: the busy one only loses, never wins. Idle ones share evenly.
    assertNull(counts.get(busy), "the busiest of four is never the less busy of two: " + counts);
    for (Endpoint e : all) {
      if (e != busy) {
        int n = counts.get(e);
        assertTrue(n > 11_500 && n < 15_000, "~1/3 each: " + counts);
      }
    }
  }

  /** The clock of {@link #ewma}, in nanoseconds. */
  private long now = 1_000_000_000L;
  private final PeakEwma ewma = new PeakEwma(PeakEwma.DEFAULT_DECAY, PeakEwma.DEFAULT_RTT, () -> now);
  private static final long MS = 1_000_000;
  /** Ten decay times: estimates set before are forgotten, the next answers set them. */
  private static final long FORGET_DEFAULTS = 100_000 * MS;

  /** An endpoint of {@code group} with a latency estimate on {@link #ewma}, the default to start with. */
  private Endpoint timed(RevisionGroup group, int weight) {
    Endpoint e = new Endpoint("10.0.0.3", nextPort++, weight, null, ewma.newEstimate());
    group.add(e);
    return e;
  }

  private ServiceDirectory peakEwma(RevisionGroup... groups) {
    ServiceDirectory service = new ServiceDirectory("demo.Greeter", "", "", LoadBalancing.PEAK_EWMA, ewma);
    for (RevisionGroup group : groups) {
      service.link(group);
    }
    return service;
  }

  /** A call to {@code e} that took {@code millis} and ends now. */
  private void answered(Endpoint e, long millis) {
    ewma.observe(e, now - millis * MS, true);
  }

  /**
   * {@code calls} calls one after the other, each taking its endpoint's {@code millis} on the clock,
   * and 10 ms between them; the number each endpoint got.
   */
  private Map<Endpoint, Integer> oneAtATime(ServiceDirectory service, int calls, Map<Endpoint, Long> millis) {
    Map<Endpoint, Integer> counts = new IdentityHashMap<>();
    for (int i = 0; i < calls; i++) {
      Endpoint e = service.pick(NONE_TRIED, 0);
      counts.merge(e, 1, Integer::sum);
      long started = now;
      now += millis.get(e) * MS;
      ewma.observe(e, started, true);
      now += 10 * MS;
    }
    return counts;
  }

  /**
   * One call at a time, so calls in flight never tell the two apart: power of two choices splits
   * them, peak EWMA sends all but a probe every 23 s (50 ms decaying below 5 ms) to the faster.
   */
  @Test
  void peakEwmaSendsCallsToTheFasterOfTwoWhereTwoChoicesSplitsThem() {
    RevisionGroup group = new RevisionGroup("app", "rev-1", false);
    Endpoint fast = timed(group, 100);
    Endpoint slow = timed(group, 100);
    Map<Endpoint, Long> millis = Map.of(fast, 5L, slow, 50L);

    Map<Endpoint, Integer> byLatency = oneAtATime(peakEwma(group), 2_000, millis); // 31 s on the clock
    int toSlow = byLatency.getOrDefault(slow, 0);
    assertTrue(toSlow >= 1 && toSlow <= 20, "the slower tried, then 1 % at most: " + byLatency);

    Map<Endpoint, Integer> byCallsInFlight = oneAtATime(service(LoadBalancing.POWER_OF_TWO_CHOICES, group), 2_000,
        millis);
    int evenly = byCallsInFlight.getOrDefault(slow, 0);
    assertTrue(evenly > 800 && evenly < 1_200, "about half: " + byCallsInFlight);
  }

  /** Two endpoints are both drawn every time: the choice is the cost's, 10 ms × (n + 1) against 50 ms. */
  @Test
  void peakEwmaLetsTheSlowerTakeCallsOnceTheFasterHasEnoughInFlight() {
    RevisionGroup group = new RevisionGroup("app", "rev-1", false);
    Endpoint fast = timed(group, 100);
    Endpoint slow = timed(group, 100);
    now += FORGET_DEFAULTS;
    answered(fast, 10);
    answered(slow, 50);
    ServiceDirectory service = peakEwma(group);
    for (int inFlight = 0; inFlight < 4; inFlight++) {
      assertEquals(Map.of(fast, 1_000), tally(service, 1_000), inFlight + " in flight at the faster");
      fast.callStarted();
    }
    fast.callStarted();
    assertEquals(Map.of(slow, 1_000), tally(service, 1_000), "5 in flight: 60 ms against 50");
    slow.callStarted();
    assertEquals(Map.of(fast, 1_000), tally(service, 1_000), "60 ms against 2 × 50");
  }

  @Test
  void peakEwmaNeverPicksTheSlowestOfFour() {
    RevisionGroup first = new RevisionGroup("app", "rev-1", false);
    RevisionGroup second = new RevisionGroup("app", "rev-2", false);
    List<Endpoint> all = List.of(timed(first, 100), timed(first, 100), timed(second, 100), timed(second, 100));
    Endpoint slow = all.get(2);
    answered(slow, 100);
    Map<Endpoint, Integer> counts = tally(peakEwma(first, second), 30_000);
    assertNull(counts.get(slow), "it loses every draw it is in: " + counts);
    for (Endpoint e : all) {
      if (e != slow) {
        int n = counts.get(e);
        assertTrue(n > 8_500 && n < 11_500, "~1/3 each: " + counts);
      }
    }
  }

  /**
   * A slow endpoint left alone is tried again once its peak has decayed below the other's estimate
   * (200 ms to 5 ms: 10 s × ln 40 = 36.9 s), and having recovered, wins its calls back.
   */
  @Test
  void peakEwmaTriesASlowEndpointAgainOnceItsPeakHasDecayedAndARecoveredOneWinsItsCallsBack() {
    RevisionGroup group = new RevisionGroup("app", "rev-1", false);
    Endpoint steady = timed(group, 100);
    Endpoint recovering = timed(group, 100);
    now += FORGET_DEFAULTS;
    answered(steady, 5);
    answered(recovering, 200);
    long slowSince = now;
    ServiceDirectory service = peakEwma(group);
    Map<Endpoint, Long> millis = Map.of(steady, 5L, recovering, 2L); // It has recovered, unknown to the balancer.

    long triedAgainAt = -1;
    for (int i = 0; i < 10_000 && triedAgainAt < 0; i++) {
      if (oneAtATime(service, 1, millis).containsKey(recovering)) {
        triedAgainAt = now - slowSince;
      }
    }
    assertTrue(triedAgainAt > 36_000 * MS && triedAgainAt < 38_000 * MS,
        "tried again after 36.9 s: " + triedAgainAt / MS + " ms");
    // Each answer of 2 ms brings it down; within a decay time it takes nearly every call.
    oneAtATime(service, 500, millis);
    Map<Endpoint, Integer> later = oneAtATime(service, 1_000, millis);
    assertTrue(later.getOrDefault(recovering, 0) > 900, "the faster now: " + later);
  }

  /** A failing instance ends its calls at once, so it has the fewest in flight: it must still lose the draw. */
  @Test
  void powerOfTwoChoicesPassesOverAFailingEndpointThoughItHasNoCallsInFlight() {
    RevisionGroup group = group("rev-1", 100, 100);
    List<Endpoint> all = endpoints(group);
    Endpoint failing = all.get(0);
    Endpoint busy = all.get(1);
    failing.markFailed();
    for (int i = 0; i < 5; i++) {
      busy.callStarted();
    }
    ServiceDirectory service = service(LoadBalancing.POWER_OF_TWO_CHOICES, group);
    Endpoint[] none = new Endpoint[1];
    for (int i = 0; i < 1_000; i++) {
      assertSame(busy, service.pickOnce(), "the draw itself prefers the healthy one");
      assertSame(busy, service.pick(none, 0));
    }
  }

  @Test
  void peakEwmaPassesOverWeightZeroAndFailingEndpointsHoweverFast() {
    RevisionGroup group = new RevisionGroup("app", "rev-1", false);
    Endpoint drained = timed(group, 0);
    Endpoint failing = timed(group, 100);
    Endpoint slow = timed(group, 100);
    answered(slow, 500);
    failing.markFailed();
    ServiceDirectory service = peakEwma(group);
    assertEquals(Map.of(slow, 1_000), tally(service, 1_000), "only the slow one is fit to call");

    slow.remove();
    failing.markHealthy();
    assertEquals(Map.of(failing, 1_000), tally(service, 1_000), "weight 0 only loses, to any other");
    failing.remove();
    assertEquals(Map.of(drained, 100), tally(service, 100), "weight 0, yet the last one left");
  }

  @ParameterizedTest
  @EnumSource(LoadBalancing.class)
  void pickAvoidsTriedEndpointsWhileOthersRemain(LoadBalancing balancing) {
    RevisionGroup first = group("rev-1", 100, 100, 300);
    RevisionGroup second = group("rev-2", 100);
    ServiceDirectory service = service(balancing, first, second);
    List<Endpoint> all = endpoints(first, second);
    Endpoint[] tried = {all.get(0), all.get(2), all.get(3), null};
    for (int i = 0; i < 500; i++) {
      assertSame(all.get(1), service.pick(tried, 3), balancing + ": the only one not tried");
    }
    // Only the first two entries count as tried.
    for (int i = 0; i < 500; i++) {
      Endpoint e = service.pick(tried, 2);
      assertTrue(e == all.get(1) || e == all.get(3), balancing + ": " + e);
    }
  }

  @ParameterizedTest
  @EnumSource(LoadBalancing.class)
  void pickFallsBackToATriedEndpointWhenAllWereTried(LoadBalancing balancing) {
    RevisionGroup first = group("rev-1", 100, 0);
    RevisionGroup second = group("rev-2", 100);
    ServiceDirectory service = service(balancing, first, second);
    List<Endpoint> all = endpoints(first, second);
    Endpoint[] tried = all.toArray(new Endpoint[0]);
    for (int i = 0; i < 200; i++) {
      Endpoint e = service.pick(tried, tried.length);
      assertNotNull(e, balancing + ": some instance rather than none");
      assertTrue(all.contains(e));
    }

    RevisionGroup single = group("rev-3", 100);
    ServiceDirectory alone = service(balancing, single);
    assertSame(single.at(0), alone.pick(new Endpoint[] {single.at(0)}, 1), "the one and only, tried");
  }

  @ParameterizedTest
  @EnumSource(LoadBalancing.class)
  void removedEndpointsAreNeverPicked(LoadBalancing balancing) {
    RevisionGroup first = group("rev-1", 100, 100, 100);
    RevisionGroup second = group("rev-2", 100, 100);
    ServiceDirectory service = service(balancing, first, second);
    Endpoint unlinked = first.at(0);
    first.remove(unlinked);
    unlinked.remove();
    // Marked removed but still in its group: a writer between the two steps, as seen by a reader.
    Endpoint marked = second.at(1);
    marked.remove();
    assertTrue(marked.isRemoved());

    Map<Endpoint, Integer> counts = tally(service, 2_000);
    assertNull(counts.get(unlinked), balancing + ": " + counts);
    assertNull(counts.get(marked), balancing + ": " + counts);
    // pick_first keeps every call on one instance; the others spread them over every live one.
    assertEquals(balancing == LoadBalancing.PICK_FIRST ? 1 : 3, counts.size(),
        balancing + ": the live ones are picked: " + counts);
    assertFalse(service.contains(unlinked));

    // Even with every live one tried, a removed one is not the fallback.
    Endpoint[] tried = endpoints(first, second).stream().filter(e -> !e.isRemoved()).toArray(Endpoint[]::new);
    for (int i = 0; i < 200; i++) {
      Endpoint e = service.pick(tried, tried.length);
      assertFalse(e.isRemoved(), balancing + ": " + e);
    }
  }

  @ParameterizedTest
  @EnumSource(LoadBalancing.class)
  void emptyOrUnlinkedServicePicksNothing(LoadBalancing balancing) {
    ServiceDirectory none = service(balancing);
    assertNull(none.pick(NONE_TRIED, 0));
    assertEquals(0, none.size());

    RevisionGroup empty = group("rev-1");
    ServiceDirectory withEmpty = service(balancing, empty);
    assertNull(withEmpty.pick(NONE_TRIED, 0));

    RevisionGroup group = group("rev-2", 100, 100);
    ServiceDirectory service = service(balancing, group, empty);
    assertTrue(service.contains(group.at(0)));
    assertNotNull(service.pick(NONE_TRIED, 0), balancing + ": linked");
    service.unlink(group);
    service.unlink(group);
    assertFalse(service.contains(group.at(0)));
    assertNull(service.pick(NONE_TRIED, 0), balancing + ": unlinked group");
    assertEquals(0, service.size());
  }

  @Test
  void linkingTwiceCountsOnce() {
    RevisionGroup group = group("rev-1", 100, 100);
    ServiceDirectory service = service(LoadBalancing.ROUND_ROBIN, group, group);
    service.link(group);
    assertEquals(2, service.size());
    Map<Endpoint, Integer> counts = tally(service, 20);
    assertEquals(10, counts.get(group.at(0)));
    assertEquals(10, counts.get(group.at(1)));
  }
}
