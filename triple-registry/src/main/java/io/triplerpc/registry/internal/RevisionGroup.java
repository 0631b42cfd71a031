package io.triplerpc.registry.internal;

import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.ServiceInstance;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The endpoints of one application that serve one metadata revision: every service of the revision
 * reads this same list, so a service costs nothing per instance.
 *
 * <p>Writers hold the directory's lock; balancers read without locking. Removal moves the last
 * endpoint into the hole, so a change costs O(log n) (the weight tree) and allocates nothing unless
 * the arrays grow. A reader racing a writer may see a slot empty or an endpoint twice, and tries
 * again; it never sees a torn endpoint.
 */
public final class RevisionGroup {

  final String application;
  final String revision;
  /** Null until fetched; then tells which services this group serves. */
  volatile MetadataInfo metadata;
  /** Whether this revision serves every service (a static address list). */
  final boolean servesAll;

  private volatile Endpoint[] slots = new Endpoint[4];
  /**
   * Fenwick tree of weights over slots, 1-based: an {@code int[]} while the total weight is at most
   * {@link #INT_TREE_LIMIT} (half an int, so that no sum overflows while a removal is half done), else
   * a {@code long[]}.
   */
  private volatile Object weights = new int[5];
  private volatile int size;
  private volatile long totalWeight;
  /** Endpoints whose weight is not the default; when 0, a weighted pick is a uniform one. */
  private volatile int unusualWeights;
  /**
   * Endpoints added and removed so far: a consistent-hash ring built from this group is stale once it
   * moved. Written under the directory's lock, after the change.
   */
  private volatile int changes;
  /** Between {@link #beginBulk} and {@link #endBulk}: the tree and total wait. Under the directory's lock. */
  private boolean bulk;

  RevisionGroup(String application, String revision, boolean servesAll) {
    this.application = application;
    this.revision = revision;
    this.servesAll = servesAll;
  }

  /** Whether this group serves the export {@code service} calls. */
  boolean serves(ServiceDirectory service) {
    MetadataInfo m = metadata;
    return servesAll || (m != null && m.export(service.serviceName, service.version, service.group) != null);
  }

  int size() {
    return size;
  }

  long totalWeight() {
    return totalWeight;
  }

  /**
   * Makes room for {@code expected} endpoints in all, and some to spare, before a list adds them: the
   * arrays then grow once, not many times.
   */
  static final long INT_TREE_LIMIT = 1 << 30;

  void ensureCapacity(int expected) {
    long wanted = expected + expected / 8L + 8;
    if (wanted > slots.length) {
      grow((int) Math.min(Integer.MAX_VALUE - 8, wanted));
    }
  }

  /**
   * From now until {@link #endBulk}, additions, removals and weight changes leave the weight tree and
   * total as they were (weighted picks meanwhile draw among the endpoints in slots as they were
   * weighed); the end rebuilds them in linear time, not O(log n) per change. For a whole list.
   */
  void beginBulk() {
    bulk = true;
  }

  /** Rebuilds the weight tree and total after {@link #beginBulk}. */
  void endBulk() {
    if (!bulk) {
      return;
    }
    bulk = false;
    long total = weightOf(slots, size);
    weights = buildTree(slots, size, slots.length, total);
    totalWeight = total;
  }

  void add(Endpoint endpoint) {
    int n = size;
    if (n == slots.length) {
      grow(n + (n >> 1) + 1);
    }
    endpoint.group = this;
    endpoint.slot(n);
    slots[n] = endpoint;
    if (endpoint.weight != ServiceInstance.DEFAULT_WEIGHT) {
      unusualWeights++;
    }
    if (!bulk) {
      fitTree(totalWeight + endpoint.weight);
      treeAdd(n, endpoint.weight);
      totalWeight += endpoint.weight;
    }
    size = n + 1;
    changes++;
  }

  void remove(Endpoint endpoint) {
    int n = size - 1;
    int hole = endpoint.slot();
    Endpoint last = slots[n];
    if (hole != n) {
      slots[hole] = last;
      last.slot(hole);
    }
    if (!bulk) {
      if (hole != n) {
        treeAdd(hole, (long) last.weight - endpoint.weight);
        treeAdd(n, -last.weight);
      } else {
        treeAdd(hole, -endpoint.weight);
      }
      totalWeight -= endpoint.weight;
    }
    size = n;
    slots[n] = null;
    if (endpoint.weight != ServiceInstance.DEFAULT_WEIGHT) {
      unusualWeights--;
    }
    endpoint.group = null;
    changes++;
  }

  /** How many endpoints were added and removed so far. */
  int changes() {
    return changes;
  }

  void reweigh(Endpoint endpoint, int weight) {
    int old = endpoint.weight;
    if (old == weight) {
      return;
    }
    if (!bulk) {
      fitTree(totalWeight + weight - old);
      treeAdd(endpoint.slot(), (long) weight - old);
      totalWeight += weight - old;
    }
    unusualWeights += (weight != ServiceInstance.DEFAULT_WEIGHT ? 1 : 0) - (old != ServiceInstance.DEFAULT_WEIGHT ? 1 : 0);
    endpoint.weight = weight;
  }

  private void grow(int capacity) {
    Endpoint[] bigger = java.util.Arrays.copyOf(slots, capacity);
    if (!bulk) {
      weights = buildTree(bigger, size, capacity, totalWeight);
    }
    slots = bigger;
  }

  private static long weightOf(Endpoint[] slots, int size) {
    long total = 0;
    for (int i = 0; i < size; i++) {
      total += slots[i].weight;
    }
    return total;
  }

  /** Before the total weight becomes {@code total}: a tree of longs if ints no longer do. */
  private void fitTree(long total) {
    if (total > INT_TREE_LIMIT && weights instanceof int[]) {
      Endpoint[] s = slots;
      weights = buildTree(s, size, s.length, total);
    }
  }

  /**
   * The Fenwick tree of the weights of {@code slots[0..size-1]}, whose sum is {@code total}, for
   * {@code capacity} slots, in linear time: ints if the total allows.
   */
  private static Object buildTree(Endpoint[] slots, int size, int capacity, long total) {
    // Each node passes its sum on to its parent; no sum exceeds the total.
    if (total > INT_TREE_LIMIT) {
      long[] tree = new long[capacity + 1];
      for (int i = 0; i < size; i++) {
        tree[i + 1] = slots[i].weight;
      }
      for (int j = 1; j <= capacity; j++) {
        int parent = j + (j & -j);
        if (parent > 0 && parent <= capacity) {
          tree[parent] += tree[j];
        }
      }
      return tree;
    }
    int[] tree = new int[capacity + 1];
    for (int i = 0; i < size; i++) {
      tree[i + 1] = slots[i].weight;
    }
    for (int j = 1; j <= capacity; j++) {
      int parent = j + (j & -j);
      if (parent > 0 && parent <= capacity) {
        tree[parent] += tree[j];
      }
    }
    return tree;
  }

  private void treeAdd(int slot, long delta) {
    Object t = weights;
    if (t instanceof int[]) {
      int[] tree = (int[]) t;
      int d = (int) delta;
      for (int j = slot + 1; j < tree.length; j += j & -j) {
        tree[j] += d;
      }
    } else {
      long[] tree = (long[]) t;
      for (int j = slot + 1; j < tree.length; j += j & -j) {
        tree[j] += delta;
      }
    }
  }

  /** The endpoint in {@code slot}, or null if a writer moved it meanwhile. */
  Endpoint at(int slot) {
    Endpoint[] s = slots;
    return slot < s.length ? s[slot] : null;
  }

  /** A uniformly random endpoint, or null if the group is empty or changing under the reader. */
  Endpoint random(ThreadLocalRandom random) {
    int n = size;
    return n == 0 ? null : at(random.nextInt(n));
  }

  /** A random endpoint with probability proportional to its weight; null if all weights are 0. */
  Endpoint weightedRandom(ThreadLocalRandom random) {
    if (unusualWeights == 0) {
      return random(random);
    }
    long total = totalWeight;
    if (total <= 0) {
      return null;
    }
    long target = random.nextLong(total);
    Object t = weights;
    int position = 0;
    if (t instanceof int[]) {
      int[] tree = (int[]) t;
      for (int step = Integer.highestOneBit(tree.length - 1); step > 0; step >>= 1) {
        int next = position + step;
        if (next < tree.length && tree[next] <= target) {
          position = next;
          target -= tree[next];
        }
      }
    } else {
      long[] tree = (long[]) t;
      for (int step = Integer.highestOneBit(tree.length - 1); step > 0; step >>= 1) {
        int next = position + step;
        if (next < tree.length && tree[next] <= target) {
          position = next;
          target -= tree[next];
        }
      }
    }
    // position is the count of slots whose cumulative weight is <= target: the pick is that slot.
    int n = size;
    return n == 0 ? null : at(Math.min(position, n - 1));
  }

  @Override
  public String toString() {
    return "RevisionGroup{" + application + '@' + revision + ", " + size + " endpoints}";
  }
}
