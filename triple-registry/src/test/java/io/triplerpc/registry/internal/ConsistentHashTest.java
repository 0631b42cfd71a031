package io.triplerpc.registry.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.registry.LoadBalancing;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The consistent-hash ring: one owner per key on every consumer, and little movement when instances change. */
class ConsistentHashTest {

  private static final Endpoint[] NONE_TRIED = new Endpoint[0];
  private static final int KEYS = 20_000;

  private static List<String> addresses(int count) {
    List<String> addresses = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      addresses.add("10.1." + (i / 200) + '.' + (i % 200 + 1) + ":20880");
    }
    return addresses;
  }

  private final Map<ServiceDirectory, RevisionGroup> groups = new java.util.IdentityHashMap<>();

  /** A consumer's directory of {@code addresses}, added in the order given. */
  private ServiceDirectory consumer(List<String> addresses) {
    RevisionGroup group = new RevisionGroup("app", "rev-1", false);
    for (String address : addresses) {
      int colon = address.lastIndexOf(':');
      group.add(new Endpoint(address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)), 100));
    }
    ServiceDirectory service = new ServiceDirectory("demo.Greeter", "", "", LoadBalancing.CONSISTENT_HASH, null);
    service.link(group);
    groups.put(service, group);
    return service;
  }

  private static String owner(ServiceDirectory service, String key) {
    Endpoint e = service.pick(NONE_TRIED, 0, key);
    assertNotNull(e, key);
    return e.host() + ':' + e.port;
  }

  private static Map<String, String> owners(ServiceDirectory service) {
    Map<String, String> owners = new HashMap<>();
    for (int k = 0; k < KEYS; k++) {
      owners.put("user-" + k, owner(service, "user-" + k));
    }
    return owners;
  }

  @Test
  void everyConsumerSendsAKeyToTheSameInstanceWhateverOrderItLearnedThemIn() {
    List<String> addresses = addresses(12);
    List<String> shuffled = new ArrayList<>(addresses);
    Collections.shuffle(shuffled, new java.util.Random(7));
    Map<String, String> first = owners(consumer(addresses));
    assertEquals(first, owners(consumer(shuffled)));
    assertEquals(12, new java.util.HashSet<>(first.values()).size(), "every instance owns keys");
    // Calls with one key stay on one instance, call after call.
    ServiceDirectory service = consumer(addresses);
    for (int i = 0; i < 100; i++) {
      assertEquals(first.get("user-42"), owner(service, "user-42"));
    }
  }

  @Test
  void keysAreSpreadRoughlyEvenly() {
    Map<String, Integer> counts = new HashMap<>();
    owners(consumer(addresses(10))).values().forEach(a -> counts.merge(a, 1, Integer::sum));
    // 160 points per instance: each of 10 owns about a tenth (2,000 of 20,000 keys); MD5 is fixed, so is this.
    for (Map.Entry<String, Integer> e : counts.entrySet()) {
      assertTrue(e.getValue() > 1_200 && e.getValue() < 2_800, e.toString());
    }
  }

  @Test
  void aJoiningInstanceTakesOnlyItsShareAndNothingElseMoves() {
    List<String> ten = addresses(11).subList(0, 10);
    String joining = addresses(11).get(10);
    ServiceDirectory service = consumer(ten);
    Map<String, String> before = owners(service);
    RevisionGroup group = groups.get(service);
    group.add(new Endpoint("10.1.0.11", 20880, 100));
    Map<String, String> after = owners(service);
    int moved = 0;
    for (Map.Entry<String, String> e : before.entrySet()) {
      String now = after.get(e.getKey());
      if (!now.equals(e.getValue())) {
        moved++;
        assertEquals(joining, now, "a key only ever moves to the new instance: " + e.getKey());
      }
    }
    // About one key in eleven moves (1,818 of 20,000); a modulo hash would move about ten in eleven.
    assertTrue(moved > 900 && moved < 2_800, "moved " + moved);
  }

  @Test
  void aLeavingInstancesKeysGoElsewhereAndNoOtherKeyMoves() {
    List<String> ten = addresses(10);
    ServiceDirectory service = consumer(ten);
    Map<String, String> before = owners(service);
    RevisionGroup group = groups.get(service);
    Endpoint leaving = group.at(3);
    String gone = leaving.host() + ':' + leaving.port;
    group.remove(leaving);
    leaving.remove();
    Map<String, String> after = owners(service);
    int moved = 0;
    for (Map.Entry<String, String> e : before.entrySet()) {
      if (e.getValue().equals(gone)) {
        assertNotEquals(gone, after.get(e.getKey()));
        moved++;
      } else {
        assertEquals(e.getValue(), after.get(e.getKey()), "an unaffected key stays: " + e.getKey());
      }
    }
    assertTrue(moved > 1_000, "the leaving instance owned its share: " + moved);
  }

  @Test
  void anInstanceThatCannotTakeTheCallPassesItToTheNextRoundTheRingAndGetsItBack() {
    ServiceDirectory service = consumer(addresses(5));
    Endpoint owner = service.pick(NONE_TRIED, 0, "order-7");
    Endpoint next = service.pick(new Endpoint[] {owner}, 1, "order-7");
    assertNotSame(owner, next, "a failover attempt goes to another instance");
    owner.markFailed();
    assertSame(next, service.pick(NONE_TRIED, 0, "order-7"), "the next one round the ring, not a random one");
    owner.markHealthy();
    assertSame(owner, service.pick(NONE_TRIED, 0, "order-7"), "back to its owner once it serves again");
  }

  @Test
  void callsWithoutAKeyGoToAnyInstance() {
    ServiceDirectory service = consumer(addresses(4));
    Map<Endpoint, Integer> counts = new java.util.IdentityHashMap<>();
    for (int i = 0; i < 400; i++) {
      counts.merge(service.pick(NONE_TRIED, 0, null), 1, Integer::sum);
    }
    assertEquals(4, counts.size(), "spread over every instance: " + counts.values());
  }

  @Test
  void theRingIsRebuiltOnlyWhenTheInstancesChange() {
    ServiceDirectory service = consumer(addresses(3));
    service.pick(NONE_TRIED, 0, "a");
    HashRing ring = service.ring;
    service.pick(NONE_TRIED, 0, "b");
    assertSame(ring, service.ring, "same instances, same ring");
    groups.get(service).at(0).markFailed();
    service.pick(NONE_TRIED, 0, "c");
    assertSame(ring, service.ring, "a failing instance stays on the ring");
    groups.get(service).add(new Endpoint("10.9.9.9", 1, 100));
    service.pick(NONE_TRIED, 0, "d");
    assertNotSame(ring, service.ring);
  }
}
