package io.triplerpc.registry.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link EndpointIndex} against a {@link HashMap} doing the same operations, with hashes chosen to
 * collide: hosts built from "Aa" and "BB" share one {@code String.hashCode}, so at one port they share
 * a home slot and form long probe runs, which removal must re-seat without losing anyone.
 */
class EndpointIndexTest {

  /** Eight different hosts with one hash code, so at a given port they all probe from one slot. */
  private static final List<String> COLLIDING_HOSTS = collidingHosts(3);

  private static List<String> collidingHosts(int blocks) {
    List<String> hosts = new ArrayList<>(List.of(""));
    for (int b = 0; b < blocks; b++) {
      List<String> longer = new ArrayList<>();
      for (String h : hosts) {
        longer.add(h + "Aa");
        longer.add(h + "BB");
      }
      hosts = longer;
    }
    return hosts;
  }

  @Test
  void collidingHostsReallyShareOneHash() {
    for (String host : COLLIDING_HOSTS) {
      assertEquals(Endpoint.hash(COLLIDING_HOSTS.get(0), 8080), Endpoint.hash(host, 8080), host);
    }
    assertEquals(8, COLLIDING_HOSTS.size());
  }

  @Test
  void emptyIndexFindsNothingAndRemovesNothing() {
    EndpointIndex index = new EndpointIndex();
    assertNull(index.get("10.0.0.1", 80));
    assertFalse(index.remove(new Endpoint("10.0.0.1", 80, 100)));
    assertEquals(0, index.size());
    index.forEach(e -> {
      throw new AssertionError("visited " + e);
    });
  }

  @Test
  void removeIsByIdentityNotByAddress() {
    EndpointIndex index = new EndpointIndex();
    Endpoint kept = new Endpoint("10.0.0.1", 80, 100);
    index.add(kept);
    assertFalse(index.remove(new Endpoint("10.0.0.1", 80, 100)), "an equal-address stranger is not in the index");
    assertSame(kept, index.get("10.0.0.1", 80));
    assertEquals(1, index.size());
    assertTrue(index.remove(kept));
    assertFalse(index.remove(kept), "removing twice");
    assertNull(index.get("10.0.0.1", 80));
    assertEquals(0, index.size());
  }

  /**
   * A probe run that starts in the table's last slot wraps to slot 0; removing its head, middle and
   * tail must leave every other member reachable.
   */
  @Test
  void probeRunWrappingAroundTheTableSurvivesRemovals() {
    // Fewer than 12 entries keep the initial capacity of 17.
    int port = portWithHomeSlot(COLLIDING_HOSTS.get(0), 16, 17);
    for (int removeAt = 0; removeAt < 6; removeAt++) {
      EndpointIndex index = new EndpointIndex();
      Map<String, Endpoint> model = new HashMap<>();
      for (int i = 0; i < 6; i++) {
        Endpoint e = new Endpoint(COLLIDING_HOSTS.get(i), port, 100);
        index.add(e);
        model.put(COLLIDING_HOSTS.get(i), e);
      }
      // A neighbour whose home is slot 0, inside the wrapped run: it must stay findable as well.
      int neighbourPort = portWithHomeSlot("neighbour", 0, 17);
      Endpoint neighbour = new Endpoint("neighbour", neighbourPort, 100);
      index.add(neighbour);

      Endpoint gone = model.remove(COLLIDING_HOSTS.get(removeAt));
      assertTrue(index.remove(gone));
      assertNull(index.get(gone.host(), gone.port), "removed member " + removeAt);
      for (Endpoint e : model.values()) {
        assertSame(e, index.get(e.host(), e.port), "after removing member " + removeAt + ": " + e);
      }
      assertSame(neighbour, index.get("neighbour", neighbourPort));
      assertEquals(6, index.size());
    }
  }

  /** A port at which {@code host}'s home slot in a table of {@code capacity} slots is {@code slot}. */
  private static int portWithHomeSlot(String host, int slot, int capacity) {
    for (int port = 1; port <= 65535; port++) {
      if (EndpointIndex.home(Endpoint.hash(host, port), capacity) == slot) {
        return port;
      }
    }
    throw new AssertionError("no port of " + host + " has home slot " + slot);
  }

  @Test
  void randomOperationsMatchAHashMap() {
    for (long seed = 1; seed <= 8; seed++) {
      runAgainstModel(new Random(seed), 6_000, seed);
    }
  }

  /**
   * Adds, removes (present, absent, and strangers at a present address) and lookups, drawn from a
   * small address space so entries come and go and collide; after each step the index must agree
   * with the model, and every few steps every model entry is looked up and the whole index visited.
   */
  private static void runAgainstModel(Random random, int steps, long seed) {
    EndpointIndex index = new EndpointIndex();
    Map<String, Endpoint> model = new HashMap<>();
    // Grow towards ~200 entries, then shrink, then grow again: resizes happen with runs in place.
    for (int step = 0; step < steps; step++) {
      String host = randomHost(random);
      int port = randomPort(random);
      String key = host + ':' + port;
      int phase = (step / 1_500) % 2;
      int roll = random.nextInt(10);
      boolean adding = phase == 0 ? roll < 6 : roll < 3;
      String where = "seed " + seed + " step " + step + " " + key;
      if (adding) {
        if (!model.containsKey(key)) {
          Endpoint e = new Endpoint(host, port, 100);
          index.add(e);
          model.put(key, e);
        }
      } else if (roll < 8) {
        Endpoint present = model.remove(key);
        if (present != null) {
          assertTrue(index.remove(present), where);
        } else {
          assertFalse(index.remove(new Endpoint(host, port, 100)), "absent " + where);
        }
      } else {
        Endpoint present = model.get(key);
        if (present != null) {
          assertFalse(index.remove(new Endpoint(host, port, 100)), "stranger at a present address " + where);
        }
      }
      assertSame(model.get(key), index.get(host, port), where);
      assertEquals(model.size(), index.size(), where);
      if (step % 97 == 0) {
        assertSameContents(model, index, where);
      }
    }
    assertSameContents(model, index, "seed " + seed + " at the end");
    // Empty it completely, in random order.
    List<Endpoint> all = new ArrayList<>(model.values());
    Collections.shuffle(all, random);
    for (Endpoint e : all) {
      assertTrue(index.remove(e), e.toString());
      assertNull(index.get(e.host(), e.port));
    }
    assertEquals(0, index.size());
    index.forEach(e -> {
      throw new AssertionError("left behind: " + e);
    });
  }

  private static String randomHost(Random random) {
    int kind = random.nextInt(4);
    if (kind < 2) {
      return COLLIDING_HOSTS.get(random.nextInt(COLLIDING_HOSTS.size()));
    }
    if (kind == 2) {
      return "10.0.0.1";
    }
    return "10.0.1." + random.nextInt(8);
  }

  /** Few distinct ports, some a multiple of common table sizes apart so their low bits agree. */
  private static int randomPort(Random random) {
    int kind = random.nextInt(3);
    if (kind == 0) {
      return 20_000 + random.nextInt(16);
    }
    if (kind == 1) {
      return 1_024 * (1 + random.nextInt(16));
    }
    return 30_000 + random.nextInt(64);
  }

  private static void assertSameContents(Map<String, Endpoint> model, EndpointIndex index, String where) {
    for (Endpoint e : model.values()) {
      assertSame(e, index.get(e.host(), e.port), where + ": lookup of " + e);
    }
    Map<Endpoint, Boolean> visited = new IdentityHashMap<>();
    index.forEach(e -> {
      assertNotNull(e);
      assertNull(visited.put(e, Boolean.TRUE), where + ": visited twice " + e);
    });
    assertEquals(model.size(), visited.size(), where);
    for (Endpoint e : model.values()) {
      assertTrue(visited.containsKey(e), where + ": not visited " + e);
    }
  }
}
