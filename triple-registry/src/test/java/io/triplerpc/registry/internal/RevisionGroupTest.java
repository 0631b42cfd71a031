package io.triplerpc.registry.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.registry.ServiceInstance;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link RevisionGroup} against a plain list doing the same adds, removes and reweighs: slots stay
 * dense and self-consistent, the Fenwick tree stays the prefix sums of the slots' weights, and picks
 * follow the weights.
 */
class RevisionGroupTest {

  private static final int DEFAULT = ServiceInstance.DEFAULT_WEIGHT;

  private static RevisionGroup group() {
    return new RevisionGroup("app", "rev-1", false);
  }

  private static Endpoint endpoint(int port, int weight) {
    return new Endpoint("10.0.0.1", port, weight);
  }

  @Test
  void addAndRemoveKeepSlotsDenseAndPointingAtTheirEndpoint() {
    RevisionGroup group = group();
    List<Endpoint> model = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      Endpoint e = endpoint(1000 + i, DEFAULT);
      group.add(e);
      model.add(e);
      assertSame(group, e.group);
    }
    checkInvariants(group, model, "after adds");

    // Removing from the middle moves the last endpoint into the hole.
    Endpoint middle = model.get(1);
    Endpoint last = model.get(4);
    group.remove(middle);
    model.remove(middle);
    assertNull(middle.group, "a removed endpoint belongs to no group");
    assertEquals(1, last.slot(), "the last endpoint fills the hole");
    checkInvariants(group, model, "after removing a middle one");

    // Removing the last one moves nothing.
    Endpoint tail = group.at(group.size() - 1);
    group.remove(tail);
    model.remove(tail);
    checkInvariants(group, model, "after removing the last one");
  }

  @Test
  void randomAddsRemovesAndReweighsMatchAList() throws Exception {
    for (long seed = 1; seed <= 6; seed++) {
      Random random = new Random(seed);
      RevisionGroup group = group();
      List<Endpoint> model = new ArrayList<>();
      int nextPort = 1;
      for (int step = 0; step < 3_000; step++) {
        // Grow to ~150 (several array growths), shrink to a handful, grow again.
        int phase = (step / 750) % 2;
        int roll = random.nextInt(10);
        String where = "seed " + seed + " step " + step;
        if (model.isEmpty() || (phase == 0 ? roll < 5 : roll < 2)) {
          Endpoint e = endpoint(nextPort++, randomWeight(random));
          group.add(e);
          model.add(e);
        } else if (roll < 8) {
          Endpoint e = model.remove(random.nextInt(model.size()));
          group.remove(e);
          assertNull(e.group, where);
        } else {
          Endpoint e = model.get(random.nextInt(model.size()));
          group.reweigh(e, randomWeight(random));
        }
        checkInvariants(group, model, where);
      }
      // Empty it.
      while (!model.isEmpty()) {
        Endpoint e = model.remove(random.nextInt(model.size()));
        group.remove(e);
        checkInvariants(group, model, "seed " + seed + " emptying");
      }
    }
  }

  /**
   * A list's changes in bulk ({@link RevisionGroup#beginBulk}): the tree and total wait, the slots do
   * not; at {@link RevisionGroup#endBulk} they agree with the slots again, whatever happened meanwhile
   * (growth, a reservation, removals that move the last endpoint, reweighs).
   */
  @Test
  void bulkChangesLeaveTheTreeRightAtTheirEnd() {
    for (long seed = 1; seed <= 6; seed++) {
      Random random = new Random(seed);
      RevisionGroup group = group();
      List<Endpoint> model = new ArrayList<>();
      int nextPort = 1;
      for (int round = 0; round < 40; round++) {
        String where = "seed " + seed + " round " + round;
        group.beginBulk();
        if (random.nextBoolean()) {
          group.ensureCapacity(model.size() + random.nextInt(200));
        }
        for (int step = 0, steps = random.nextInt(120); step < steps; step++) {
          int roll = random.nextInt(10);
          if (model.isEmpty() || roll < 5) {
            Endpoint e = endpoint(nextPort++, randomWeight(random));
            group.add(e);
            model.add(e);
          } else if (roll < 8) {
            group.remove(model.remove(random.nextInt(model.size())));
          } else {
            group.reweigh(model.get(random.nextInt(model.size())), randomWeight(random));
          }
          assertEquals(model.size(), group.size(), where);
        }
        group.endBulk();
        checkInvariants(group, model, where);
        // And changes one by one after it keep it right.
        Endpoint e = endpoint(nextPort++, randomWeight(random));
        group.add(e);
        model.add(e);
        checkInvariants(group, model, where + " then one more");
      }
    }
  }

  private static int randomWeight(Random random) {
    int kind = random.nextInt(4);
    if (kind == 0) {
      return 0;
    }
    if (kind == 1) {
      return 1 + random.nextInt(1_000);
    }
    return DEFAULT;
  }

  /** Size, total weight, slots and the weight tree agree with {@code model}. */
  private static void checkInvariants(RevisionGroup group, List<Endpoint> model, String where) {
    assertEquals(model.size(), group.size(), where + ": size");
    long total = 0;
    for (Endpoint e : model) {
      total += e.weight;
    }
    assertEquals(total, group.totalWeight(), where + ": total weight");
    Map<Endpoint, Integer> seen = new IdentityHashMap<>();
    for (int slot = 0; slot < group.size(); slot++) {
      Endpoint e = group.at(slot);
      assertNotNull(e, where + ": slot " + slot + " empty");
      assertEquals(slot, e.slot(), where + ": " + e + " thinks it is elsewhere");
      assertSame(group, e.group, where + ": " + e);
      assertNull(seen.put(e, slot), where + ": " + e + " in two slots");
    }
    assertNull(group.at(group.size()), where + ": slot past the end still holds an endpoint");
    for (Endpoint e : model) {
      assertSame(e, group.at(e.slot()), where + ": " + e);
    }
    assertEquals(model.size(), seen.size(), where);
    checkWeightTree(group, where);
  }

  /**
   * The Fenwick tree is private and the weighted pick takes a {@link ThreadLocalRandom}, which cannot
   * be seeded; so the tree is read directly and each prefix sum compared with the slots' weights.
   */
  private static void checkWeightTree(RevisionGroup group, String where) {
    long[] tree = weightTree(group);
    long prefix = 0;
    for (int count = 1; count < tree.length; count++) {
      Endpoint e = count <= group.size() ? group.at(count - 1) : null;
      prefix += e == null ? 0 : e.weight;
      long fromTree = 0;
      for (int j = count; j > 0; j -= j & -j) {
        fromTree += tree[j];
      }
      assertEquals(prefix, fromTree, where + ": weight of the first " + count + " slots");
    }
  }

  private static long[] weightTree(RevisionGroup group) {
    try {
      Field field = RevisionGroup.class.getDeclaredField("weights");
      field.setAccessible(true);
      Object tree = field.get(group);
      if (tree instanceof int[]) {
        return java.util.Arrays.stream((int[]) tree).asLongStream().toArray();
      }
      return (long[]) tree;
    } catch (ReflectiveOperationException e) {
      throw new AssertionError("RevisionGroup keeps its weight tree in a field named weights", e);
    }
  }

  private static boolean hasLongTree(RevisionGroup group) throws ReflectiveOperationException {
    Field field = RevisionGroup.class.getDeclaredField("weights");
    field.setAccessible(true);
    return field.get(group) instanceof long[];
  }

  /**
   * The tree holds ints until the total weight passes 2^30, then longs (and stays so); sums stay
   * right across the switch, in bulk or not, and weighted picks still follow the weights.
   */
  @Test
  void bigWeightsMoveTheTreeToLongs() throws Exception {
    RevisionGroup group = group();
    List<Endpoint> model = new ArrayList<>();
    for (int i = 0; i < 20; i++) {
      Endpoint e = endpoint(i + 1, DEFAULT);
      group.add(e);
      model.add(e);
    }
    assertFalse(hasLongTree(group));
    Endpoint heavy = endpoint(100, Integer.MAX_VALUE);
    group.add(heavy);
    model.add(heavy);
    assertTrue(hasLongTree(group));
    checkInvariants(group, model, "after a weight of 2^31 - 1");
    group.reweigh(model.get(3), 1_500_000_000);
    checkInvariants(group, model, "after a second big weight");
    group.remove(heavy);
    model.remove(heavy);
    checkInvariants(group, model, "after removing the first");
    assertProportional(group, model, 40_000);

    RevisionGroup reweighed = group();
    List<Endpoint> others = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      Endpoint e = endpoint(i + 1, DEFAULT);
      reweighed.add(e);
      others.add(e);
    }
    reweighed.reweigh(others.get(0), 1 << 30);
    assertTrue(hasLongTree(reweighed), "a reweigh past 2^30 too");
    checkInvariants(reweighed, others, "after a reweigh past 2^30");

    RevisionGroup bulk = group();
    List<Endpoint> listed = new ArrayList<>();
    bulk.beginBulk();
    for (int i = 0; i < 50; i++) {
      Endpoint e = endpoint(i + 1, i % 10 == 0 ? 400_000_000 : DEFAULT);
      bulk.add(e);
      listed.add(e);
    }
    bulk.endBulk();
    assertTrue(hasLongTree(bulk), "a list whose total passes 2^30");
    checkInvariants(bulk, listed, "after a list of big weights");
  }


  @Test
  void weightedPicksFollowWeightsAndNeverPickWeightZero() {
    RevisionGroup group = group();
    Endpoint light = endpoint(1, 100);
    Endpoint heavy = endpoint(2, 300);
    Endpoint zero = endpoint(3, 0);
    group.add(light);
    group.add(heavy);
    group.add(zero);

    Map<Endpoint, Integer> counts = pick(group, 100_000);
    assertNull(counts.get(zero), "weight 0 is never picked: " + counts);
    double ratio = counts.get(heavy) / (double) counts.get(light);
    assertTrue(ratio > 2.7 && ratio < 3.3, "heavy/light should be ~3: " + counts);
  }

  @Test
  void defaultWeightsPickUniformly() {
    RevisionGroup group = group();
    List<Endpoint> all = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      Endpoint e = endpoint(i + 1, DEFAULT);
      group.add(e);
      all.add(e);
    }
    Map<Endpoint, Integer> counts = pick(group, 100_000);
    for (Endpoint e : all) {
      int n = counts.getOrDefault(e, 0);
      assertTrue(n > 22_500 && n < 27_500, "each of 4 gets ~25%: " + counts);
    }
  }

  @Test
  void reweighingBackToDefaultReturnsToUniformAndToZeroStopsPicks() {
    RevisionGroup group = group();
    Endpoint a = endpoint(1, DEFAULT);
    Endpoint b = endpoint(2, DEFAULT);
    group.add(a);
    group.add(b);
    group.reweigh(b, 0);
    Map<Endpoint, Integer> counts = pick(group, 10_000);
    assertEquals(Map.of(a, 10_000), counts, "b weighs 0");

    group.reweigh(b, DEFAULT);
    assertEquals(2L * DEFAULT, group.totalWeight());
    counts = pick(group, 100_000);
    int nb = counts.getOrDefault(b, 0);
    assertTrue(nb > 45_000 && nb < 55_000, "back to even: " + counts);
  }

  @Test
  void allWeightsZeroPicksNothing() {
    RevisionGroup group = group();
    group.add(endpoint(1, 0));
    group.add(endpoint(2, 0));
    assertNull(group.weightedRandom(ThreadLocalRandom.current()));
    assertNotNull(group.random(ThreadLocalRandom.current()), "a uniform pick ignores weights");
  }

  /**
   * Many endpoints (several growths of the arrays) with varied weights, then most removed: picks
   * follow the weights both times, each endpoint within six standard deviations of its share.
   */
  @Test
  void weightedPicksStayProportionalAfterGrowthAndManyRemovals() {
    RevisionGroup group = group();
    List<Endpoint> model = new ArrayList<>();
    for (int i = 0; i < 100; i++) {
      Endpoint e = endpoint(i + 1, (i % 7) * 10);
      group.add(e);
      model.add(e);
    }
    checkInvariants(group, model, "after growth");
    assertProportional(group, model, 300_000);

    Random random = new Random(7);
    while (model.size() > 12) {
      Endpoint e = model.remove(random.nextInt(model.size()));
      group.remove(e);
    }
    checkInvariants(group, model, "after removals");
    assertProportional(group, model, 200_000);
  }

  private static void assertProportional(RevisionGroup group, List<Endpoint> model, int picks) {
    Map<Endpoint, Integer> counts = pick(group, picks);
    long total = group.totalWeight();
    for (Endpoint e : model) {
      int observed = counts.getOrDefault(e, 0);
      if (e.weight == 0) {
        assertEquals(0, observed, "weight 0 picked: " + e);
        continue;
      }
      double p = e.weight / (double) total;
      double expected = picks * p;
      double sigma = Math.sqrt(picks * p * (1 - p));
      assertTrue(Math.abs(observed - expected) <= 6 * sigma + 1,
          e + " picked " + observed + " times, expected ~" + Math.round(expected));
    }
    int sum = 0;
    for (int n : counts.values()) {
      sum += n;
    }
    assertEquals(picks, sum, "every pick found an endpoint of the group");
  }

  @Test
  void emptiedGroupPicksNothingAndCanBeRefilled() {
    RevisionGroup group = group();
    List<Endpoint> model = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      Endpoint e = endpoint(i + 1, i % 2 == 0 ? DEFAULT : 50);
      group.add(e);
      model.add(e);
    }
    for (Endpoint e : List.copyOf(model)) {
      group.remove(e);
      model.remove(e);
    }
    checkInvariants(group, model, "emptied");
    assertEquals(0, group.size());
    assertEquals(0, group.totalWeight());
    assertNull(group.random(ThreadLocalRandom.current()));
    assertNull(group.weightedRandom(ThreadLocalRandom.current()));
    assertNull(group.at(0));

    Endpoint again = endpoint(100, DEFAULT);
    group.add(again);
    model.add(again);
    checkInvariants(group, model, "refilled");
    assertSame(again, group.weightedRandom(ThreadLocalRandom.current()));
  }

  private static Map<Endpoint, Integer> pick(RevisionGroup group, int picks) {
    Map<Endpoint, Integer> counts = new IdentityHashMap<>();
    ThreadLocalRandom random = ThreadLocalRandom.current();
    for (int i = 0; i < picks; i++) {
      Endpoint e = group.weightedRandom(random);
      assertNotNull(e, "pick " + i);
      counts.merge(e, 1, Integer::sum);
    }
    return counts;
  }
}
