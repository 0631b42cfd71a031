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
    assertEquals(3, counts.size(), balancing + ": every other one is picked: " + counts);
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
