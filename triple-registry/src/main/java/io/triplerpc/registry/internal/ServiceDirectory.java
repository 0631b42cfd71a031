package io.triplerpc.registry.internal;

import io.triplerpc.CallOptions;
import io.triplerpc.registry.DiscoveryObserver;
import io.triplerpc.registry.LoadBalancing;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.spi.ServerInfo;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The instances of one export of a service (its version and group): a view over the
 * {@link RevisionGroup}s (of one or more applications) whose metadata says they serve it. Holds no
 * per-instance state of its own, so a service with 3,000 instances costs a few dozen bytes here.
 */
public final class ServiceDirectory {

  private static final RevisionGroup[] NONE = new RevisionGroup[0];
  private static final int PICK_ATTEMPTS = 8;

  final String serviceName;
  /** The version and group called: exact, empty for none, {@code "*"} for any. */
  final String version;
  final String group;
  private final LoadBalancing balancing;
  /** The latency estimates compared by {@link LoadBalancing#PEAK_EWMA}; null with other balancers. */
  final PeakEwma peakEwma;
  /** Whether an instance of weight 0 is picked only when no other is left (for the others, weights mean nothing). */
  private final boolean skipsZeroWeight;
  private final AtomicInteger nextIndex = new AtomicInteger(ThreadLocalRandom.current().nextInt(1 << 16));
  /** Copy on write: groups come and go with revisions, rarely. */
  private volatile RevisionGroup[] groups = NONE;
  /** With {@link LoadBalancing#CONSISTENT_HASH}: the points each instance has on the ring. */
  private final int hashNodes;
  /** With {@link LoadBalancing#CONSISTENT_HASH}: the ring, made on the first keyed call, again after a change. */
  volatile HashRing ring;
  private final Object ringLock = new Object();
  /** With {@link LoadBalancing#PICK_FIRST}: the instance every call goes to while it serves, or null. */
  private volatile Endpoint first;
  private final java.util.concurrent.CompletableFuture<Void> ready = new java.util.concurrent.CompletableFuture<>();
  private volatile String unavailableReason;
  /** Tag routing, or null when the consumer obeys no rules; set before the directory's first call. */
  volatile TagRouter tagRouter;
  /** Condition routing, the stage after tag routing, or null when the consumer obeys no rules; set before the first call. */
  volatile ConditionStage conditions;
  /** Dynamic configuration, or null when the consumer obeys no rules; set before the directory's first call. */
  volatile Configurators configurators;
  /** What the dynamic configuration overrides here, for the rules and instances it was worked out from. */
  private volatile Overrides overrides;
  /** The routes of each request tag, for the rules and instances they were worked out from; null before the first. */
  private volatile Routes routes;
  /** The applications attached so far; copy on write, rarely changed. */
  private volatile java.util.Set<String> applications = java.util.Set.of();

  ServiceDirectory(String serviceName, LoadBalancing balancing) {
    this(serviceName, "", "", balancing);
  }

  ServiceDirectory(String serviceName, String version, String group, LoadBalancing balancing) {
    this(serviceName, version, group, balancing, null);
  }

  /** With {@link LoadBalancing#PEAK_EWMA}, {@code peakEwma} times the calls (the defaults if null). */
  ServiceDirectory(String serviceName, String version, String group, LoadBalancing balancing, PeakEwma peakEwma) {
    this(serviceName, version, group, balancing, peakEwma, HashRing.DEFAULT_NODES);
  }

  /** With {@link LoadBalancing#CONSISTENT_HASH}, each instance has {@code hashNodes} points on the ring. */
  ServiceDirectory(String serviceName, String version, String group, LoadBalancing balancing, PeakEwma peakEwma,
      int hashNodes) {
    this.hashNodes = hashNodes;
    this.serviceName = serviceName;
    this.version = version;
    this.group = group;
    this.balancing = balancing;
    this.peakEwma = balancing != LoadBalancing.PEAK_EWMA ? null : peakEwma != null ? peakEwma : PeakEwma.defaults();
    this.skipsZeroWeight = balancing == LoadBalancing.WEIGHTED_RANDOM || balancing == LoadBalancing.PEAK_EWMA;
  }

  /** The export called, in messages. */
  String describe() {
    return version.isEmpty() && group.isEmpty() ? serviceName
        : serviceName + " (" + (version.isEmpty() ? "no version" : "version " + version) + ", "
            + (group.isEmpty() ? "no group" : "group " + group) + ")";
  }

  /**
   * The options of a call to {@code endpoint}: with the serializations its export reads (so that a plain
   * Java call writes one it reads, as Dubbo's consumers follow a provider's {@code prefer.serialization}),
   * and, when they ask for any version or group, naming the export the endpoint's metadata lists, so that
   * the server routes the call to it. As given when the endpoint's metadata says neither.
   */
  CallOptions toExportOf(Endpoint endpoint, CallOptions options) {
    RevisionGroup revision = endpoint.group;
    boolean wildcard = version.equals("*") || group.equals("*");
    if (!wildcard) {
      String served = options.preferredSerializations() == null ? servedSerializations(revision) : null;
      return served == null ? options : options.withPreferredSerializations(served);
    }
    MetadataInfo metadata = revision == null ? null : revision.metadata;
    ServerInfo.Service export = metadata == null ? null : metadata.export(serviceName, version, group);
    if (export == null) {
      return options.withServiceVersion("").withServiceGroup("");
    }
    CallOptions named = options.withServiceVersion(export.version()).withServiceGroup(export.group());
    String served = options.preferredSerializations() == null ? serializationsAt(revision) : null;
    return served == null ? named : named.withPreferredSerializations(served);
  }

  /** The serializations the export this directory calls reads at {@code revision}, as its metadata lists them. */
  private String servedSerializations(RevisionGroup revision) {
    Served known = served;
    for (int i = 0; i < known.groups.length; i++) {
      if (known.groups[i] == revision) {
        return known.serializations[i];
      }
    }
    return serializationsAt(revision);
  }

  /** Null for a protobuf export: its messages travel as protobuf whatever a provider prefers. */
  private String serializationsAt(RevisionGroup revision) {
    MetadataInfo metadata = revision == null ? null : revision.metadata;
    ServerInfo.Service export = metadata == null ? null : metadata.export(serviceName, version, group);
    String serialization = export == null ? null : export.serialization();
    return serialization == null || serialization.isEmpty() || serialization.equals("proto")
        || serialization.equals("protobuf") ? null : serialization;
  }

  /** What each linked group's export reads, found once when it is linked rather than per call. */
  private record Served(RevisionGroup[] groups, String[] serializations) {}

  private volatile Served served = new Served(NONE, new String[0]);

  private void remember(RevisionGroup[] linked) {
    String[] serializations = new String[linked.length];
    for (int i = 0; i < linked.length; i++) {
      serializations[i] = serializationsAt(linked[i]);
    }
    served = new Served(linked, serializations);
  }

  /** Writers hold the owning cluster's lock. */
  synchronized void link(RevisionGroup group) {
    RevisionGroup[] g = groups;
    for (RevisionGroup existing : g) {
      if (existing == group) {
        return;
      }
    }
    RevisionGroup[] more = Arrays.copyOf(g, g.length + 1);
    more[g.length] = group;
    groups = more;
    remember(more);
  }

  synchronized void unlink(RevisionGroup group) {
    RevisionGroup[] g = groups;
    for (int i = 0; i < g.length; i++) {
      if (g[i] == group) {
        RevisionGroup[] fewer = new RevisionGroup[g.length - 1];
        System.arraycopy(g, 0, fewer, 0, i);
        System.arraycopy(g, i + 1, fewer, i, g.length - i - 1);
        groups = fewer;
        remember(fewer);
        return;
      }
    }
  }

  /**
   * A full list of instances arrived (or could not): calls need wait no more. {@code reasonIfEmpty}
   * says why there is no instance, or is null once an application's list is in.
   */
  void markReady(String reasonIfEmpty) {
    unavailableReason = reasonIfEmpty;
    ready.complete(null);
  }

  /** Records that {@code application} serves this service; false if it was known already. */
  synchronized boolean addApplication(String application) {
    if (applications.contains(application)) {
      return false;
    }
    java.util.Set<String> more = new java.util.HashSet<>(applications);
    more.add(application);
    applications = java.util.Set.copyOf(more);
    return true;
  }

  /** The applications attached so far. */
  java.util.Set<String> applications() {
    return applications;
  }

  boolean hasApplications() {
    return !applications.isEmpty();
  }

  /** Runs {@code task} once the first list is in (now, if it is). */
  void whenReady(Runnable task) {
    ready.thenRun(task);
  }

  boolean isReady() {
    return ready.isDone();
  }

  String unavailableReason() {
    return unavailableReason;
  }

  /** The groups serving the service now; the array is never written after it is published. */
  RevisionGroup[] groups() {
    return groups;
  }

  /** Instances now serving the service. */
  public int size() {
    int n = 0;
    for (RevisionGroup group : groups) {
      n += group.size();
    }
    return n;
  }

  /** Serializes {@link #reportSize}, so that the last report reads the size after the last change. */
  private final Object reportLock = new Object();
  /** The size {@link #reportSize} last told; -1 before the first report. Guarded by {@link #reportLock}. */
  private int reportedSize = -1;

  /**
   * Tells {@code observer} the number of instances if it changed since the last report. Called after
   * each change, by whichever thread made it, with none of the directories' locks held: calls never
   * wait for an observer.
   */
  void reportSize(DiscoveryObserver observer) {
    synchronized (reportLock) {
      int instances = size();
      if (instances != reportedSize) {
        reportedSize = instances;
        observer.instancesChanged(serviceName, version, group, instances);
      }
    }
  }

  /** Whether {@code endpoint} is one of this service's instances now. */
  boolean contains(Endpoint endpoint) {
    RevisionGroup group = endpoint.group;
    if (group == null) {
      return false;
    }
    for (RevisionGroup g : groups) {
      if (g == group) {
        return true;
      }
    }
    return false;
  }

  /**
   * An endpoint for the next call, avoiding those in {@code tried} when others exist; null if the
   * service has no instance.
   */
  Endpoint pick(Endpoint[] tried, int triedCount) {
    return pick(tried, triedCount, null);
  }

  /**
   * As {@link #pick(Endpoint[], int)}; with {@link LoadBalancing#CONSISTENT_HASH} and a {@code hashKey},
   * the instance owning the key on the ring, or the next one round it that can take the call.
   */
  Endpoint pick(Endpoint[] tried, int triedCount, String hashKey) {
    if (hashKey != null && balancing == LoadBalancing.CONSISTENT_HASH) {
      Endpoint e = ownerOf(hashKey, tried, triedCount);
      if (e != null) {
        return e;
      }
    } else if (balancing == LoadBalancing.PICK_FIRST) {
      Endpoint e = pickFirst(tried, triedCount);
      if (e != null) {
        return e;
      }
    } else if (balancing == LoadBalancing.LEAST_ACTIVE) {
      // It looks at every instance anyway: one pass that skips the unwanted, not a pass per try.
      Endpoint e = leastActive(groups, ThreadLocalRandom.current(), tried, triedCount);
      if (e != null) {
        return e;
      }
    }
    for (int attempt = 0; attempt < PICK_ATTEMPTS; attempt++) {
      Endpoint e = pickOnce();
      if (e != null && !e.isRemoved() && !e.isEjected() && !isTried(e, tried, triedCount) && !e.failedRecently()
          && !(skipsZeroWeight && e.weight == 0)) {
        return e;
      }
    }
    // Unlucky, or few healthy instances left: look at every one; failing that, take one that failed
    // lately, then one already tried.
    Endpoint failing = null;
    Endpoint fallback = null;
    for (RevisionGroup group : groups) {
      for (int i = 0, n = group.size(); i < n; i++) {
        Endpoint e = group.at(i);
        if (e == null || e.isRemoved() || e.isEjected()) {
          continue; // Ejected instances are never picked: A50 fails the call when all are ejected.
        }
        if (isTried(e, tried, triedCount)) {
          fallback = e;
        } else if (e.failedRecently() || (skipsZeroWeight && e.weight == 0)) {
          // Weight 0 means "not picked" to the weighted and peak-EWMA balancers: only when nothing else is left.
          failing = e;
        } else {
          return e;
        }
      }
    }
    return failing != null ? failing : fallback;
  }

  /**
   * As {@link #pick(Endpoint[], int, String)}, for a request with the routing tag {@code tag} (null for
   * none): among the instances tag routing allows, if a tag rule applies to this service's instances.
   */
  Endpoint pick(Endpoint[] tried, int triedCount, String hashKey, String tag) {
    Endpoint[] allowed = routed(tag);
    Overrides o = overrides();
    if (o != null && o.reweighs) {
      return pickOverridden(allowed, o, tried, triedCount, hashKey);
    }
    if (allowed == null) {
      return pick(tried, triedCount, hashKey);
    }
    return pickAmong(allowed, null, tried, triedCount);
  }

  /**
   * What the dynamic configuration in force overrides here, or null if nothing (or the consumer obeys no
   * rules). Worked out again after a rule or the instances changed (and, while an overridden weight warms
   * up, once a warm-up tick): a call reads a few volatile fields.
   */
  Overrides overrides() {
    Configurators c = configurators;
    if (c == null) {
      return null;
    }
    long generation = c.generation();
    RevisionGroup[] g = groups;
    Overrides o = overrides;
    if (o == null || !o.isCurrent(generation, g)
        || (o.expiresAtMillis != Long.MAX_VALUE && c.now() >= o.expiresAtMillis)) {
      o = c.compute(this, generation, g);
      overrides = o;
    }
    return o.isEmpty() ? null : o;
  }

  /**
   * A pick while the dynamic configuration reweighs or disables some instance: with
   * {@link LoadBalancing#WEIGHTED_RANDOM}, in proportion to the weights the rules give (among those tag
   * routing allows); with another balancer, its own pick, passing over disabled instances (and those the rules
   * weigh 0, where weights count).
   */
  private Endpoint pickOverridden(Endpoint[] allowed, Overrides o, Endpoint[] tried, int triedCount, String hashKey) {
    if (balancing == LoadBalancing.WEIGHTED_RANDOM || allowed != null) {
      return pickAmong(allowed != null ? allowed : o.endpoints, o, tried, triedCount);
    }
    // The balancer's own pick, a barred instance counted as tried (a copy made only when one is drawn).
    Endpoint[] t = tried;
    int n = triedCount;
    for (int attempt = 0; attempt < PICK_ATTEMPTS; attempt++) {
      Endpoint e = pick(t, n, hashKey);
      if (e == null || !barred(e, o)) {
        return e;
      }
      if (isTried(e, t, n)) {
        break; // Nothing but barred or tried instances is left.
      }
      t = Arrays.copyOf(t, n + 1);
      t[n++] = e;
    }
    return pickAmong(o.endpoints, o, tried, triedCount);
  }

  /** Whether the rules keep calls off {@code e}: disabled, or weighed 0 by a balancer that passes weight 0 over. */
  private boolean barred(Endpoint e, Overrides o) {
    int w = o.weight(e);
    return w == Overrides.DISABLED || (w == 0 && skipsZeroWeight);
  }

  /**
   * The instances a request with {@code tag} may go to, or null if no tag rule applies here (then any).
   * Worked out once per rule generation and change of the instances, and per tag the rules name: a call
   * reads a few volatile fields and looks its tag up in a map.
   */
  Endpoint[] routed(String tag) {
    TagRouter router = tagRouter;
    if (router == null) {
      return null;
    }
    long generation = router.generation();
    RevisionGroup[] g = groups;
    Routes r = routes;
    if (r == null || !r.isCurrent(generation, g)) {
      r = new Routes(generation, g, router);
      routes = r;
    }
    if (r.tagNames.isEmpty()) {
      return null;
    }
    String key = tag == null || tag.isEmpty() ? TagRouter.NO_TAG
        : r.tagNames.contains(tag) ? tag : TagRouter.UNKNOWN_TAG;
    Endpoint[] allowed = r.byKey.get(key);
    if (allowed == null) {
      Routes current = r;
      allowed = r.byKey.computeIfAbsent(key, k -> router.route(current.seen.groups, k));
    }
    return allowed;
  }

  /**
   * One of {@code allowed} (condition routing's choice), as {@link #pick(Endpoint[], int, String, String)}
   * picks among tag routing's: weighed by the dynamic configuration where it reweighs or disables instances.
   */
  Endpoint pickAmong(Endpoint[] allowed, Endpoint[] tried, int triedCount) {
    Overrides o = overrides();
    return pickAmong(allowed, o != null && o.reweighs ? o : null, tried, triedCount);
  }

  /**
   * One of {@code allowed}: at random (in proportion to weight with {@link LoadBalancing#WEIGHTED_RANDOM})
   * among those in rotation and not tried; failing that one that failed lately, then one tried. Two
   * passes over the allowed, no allocation.
   */
  private Endpoint pickAmong(Endpoint[] allowed, Overrides o, Endpoint[] tried, int triedCount) {
    boolean weighted = balancing == LoadBalancing.WEIGHTED_RANDOM;
    long total = 0;
    Endpoint zeroWeight = null;
    for (Endpoint e : allowed) {
      if (inRotation(e) && !isTried(e, tried, triedCount)) {
        int w = weightOf(e, o, weighted);
        if (w > 0) {
          total += w;
        } else if (w == 0) {
          zeroWeight = e;
        }
      }
    }
    if (total > 0) {
      long point = ThreadLocalRandom.current().nextLong(total);
      for (Endpoint e : allowed) {
        if (inRotation(e) && !isTried(e, tried, triedCount)) {
          int w = weightOf(e, o, weighted);
          if (w > 0 && (point -= w) < 0) {
            return e;
          }
        }
      }
    }
    if (zeroWeight != null) {
      return zeroWeight;
    }
    Endpoint failing = null;
    Endpoint fallback = null;
    for (Endpoint e : allowed) {
      if (e.isRemoved() || e.isEjected() || (o != null && o.isDisabled(e))) {
        continue;
      }
      if (isTried(e, tried, triedCount)) {
        fallback = e;
      } else {
        failing = e;
      }
    }
    return failing != null ? failing : fallback;
  }

  /**
   * {@code e}'s weight in a pick among a list: with {@code weighted}, the weight the rules give it, else its
   * registry's (warmed up); 1 without; -1 if the rules disable it.
   */
  private static int weightOf(Endpoint e, Overrides o, boolean weighted) {
    int w = o == null ? Overrides.REGISTRY_WEIGHT : o.weight(e);
    if (w == Overrides.DISABLED) {
      return -1;
    }
    if (!weighted) {
      return 1;
    }
    return w == Overrides.REGISTRY_WEIGHT ? e.weight : w;
  }

  /** Whether some instance is in rotation (not removed, ejected or failing lately); a pass over all. */
  boolean anyInRotation() {
    for (RevisionGroup group : groups) {
      for (int i = 0, n = group.size(); i < n; i++) {
        Endpoint e = group.at(i);
        if (e != null && inRotation(e)) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean inRotation(Endpoint e) {
    return !e.isRemoved() && !e.isEjected() && !e.failedRecently();
  }

  /** Where each request tag may go, worked out from one rule generation and one state of the instances. */
  private static final class Routes {
    final long generation;
    final GroupsSeen seen;
    /** The tags the rules name; empty if no rule applies (then nothing is routed). */
    final java.util.Set<String> tagNames;
    /** By tag, {@link TagRouter#NO_TAG} or {@link TagRouter#UNKNOWN_TAG}: bounded by the rules' tags. */
    final java.util.concurrent.ConcurrentHashMap<String, Endpoint[]> byKey =
        new java.util.concurrent.ConcurrentHashMap<>();

    Routes(long generation, RevisionGroup[] groups, TagRouter router) {
      this.generation = generation;
      this.seen = new GroupsSeen(groups);
      this.tagNames = router.tagNames(groups);
    }

    boolean isCurrent(long currentGeneration, RevisionGroup[] current) {
      return currentGeneration == generation && seen.isCurrent(current);
    }
  }

  /**
   * The instance calls stick to, while it is in rotation and has not failed; else the first in the
   * directory's order that can take a call, which calls then stick to. Null if none can.
   */
  private Endpoint pickFirst(Endpoint[] tried, int triedCount) {
    Endpoint e = first;
    // Still this service's (its revision may have left the service without the instance being removed).
    if (e != null && !passedOver(e) && !isTried(e, tried, triedCount) && contains(e)) {
      return e;
    }
    for (RevisionGroup group : groups) {
      for (int i = 0, n = group.size(); i < n; i++) {
        e = group.at(i);
        if (e != null && !passedOver(e) && !isTried(e, tried, triedCount)) {
          first = e;
          return e;
        }
      }
    }
    return null;
  }

  /**
   * The first instance at or after {@code key}'s point on the ring that is in rotation and not tried (the
   * owner itself while it serves); null if none is.
   */
  private Endpoint ownerOf(String key, Endpoint[] tried, int triedCount) {
    HashRing r = currentRing();
    int size = r.size();
    if (size == 0) {
      return null;
    }
    int start = r.ceiling(HashRing.keyPoint(key));
    for (int i = 0; i < size; i++) {
      Endpoint e = r.ownerAt(start + i);
      if (!passedOver(e) && !isTried(e, tried, triedCount)) {
        return e;
      }
    }
    return null;
  }

  /** The ring of the instances now, built again (by one caller at a time) if they changed since. */
  private HashRing currentRing() {
    HashRing r = ring;
    RevisionGroup[] g = groups;
    if (r != null && r.isCurrent(g)) {
      return r;
    }
    synchronized (ringLock) {
      r = ring;
      g = groups;
      if (r == null || !r.isCurrent(g)) {
        r = HashRing.build(g, hashNodes);
        ring = r;
      }
      return r;
    }
  }

  private static boolean isTried(Endpoint e, Endpoint[] tried, int count) {
    for (int i = 0; i < count; i++) {
      if (tried[i] == e) {
        return true;
      }
    }
    return false;
  }

  /** One draw of the balancer, before {@link #pick} passes over what it must not return. */
  Endpoint pickOnce() {
    RevisionGroup[] g = groups;
    if (g.length == 0) {
      return null;
    }
    ThreadLocalRandom random = ThreadLocalRandom.current();
    switch (balancing) {
      case ROUND_ROBIN:
        return nth(g, nextIndex.getAndIncrement() & Integer.MAX_VALUE);
      case PICK_FIRST:
        // pick() tried the one calls stick to: this is the fallback's draw, the first in order.
        return nth(g, 0);
      case WEIGHTED_RANDOM:
        return weightedRandom(g, random);
      case LEAST_ACTIVE:
        return leastActive(g, random, null, 0);
      case POWER_OF_TWO_CHOICES:
      case PEAK_EWMA:
        return twoChoices(g, random);
      case CONSISTENT_HASH:
        // A call without a key: any instance, so that such calls spread.
        return nth(g, random.nextInt(Integer.MAX_VALUE));
      default:
        throw new AssertionError(balancing);
    }
  }

  private static Endpoint nth(RevisionGroup[] g, int index) {
    if (g.length == 1) {
      int n = g[0].size();
      return n == 0 ? null : g[0].at(index % n);
    }
    int total = 0;
    for (RevisionGroup group : g) {
      total += group.size();
    }
    if (total == 0) {
      return null;
    }
    int i = index % total;
    for (RevisionGroup group : g) {
      int n = group.size();
      if (i < n) {
        return group.at(i);
      }
      i -= n;
    }
    return null;
  }

  /**
   * Two different instances at random, then the one with fewer calls in flight, or with
   * {@link LoadBalancing#PEAK_EWMA} the cheaper of the two. Drawing the same instance twice would
   * hand the busier of two instances a quarter of the calls.
   */
  private Endpoint twoChoices(RevisionGroup[] g, ThreadLocalRandom random) {
    int total = 0;
    for (RevisionGroup group : g) {
      total += group.size();
    }
    if (total <= 1) {
      return total == 0 ? null : nth(g, 0);
    }
    int i = random.nextInt(total);
    int j = random.nextInt(total - 1);
    if (j >= i) {
      j++;
    }
    Endpoint a = nth(g, i);
    Endpoint b = nth(g, j);
    if (a == null || b == null) {
      return a == null ? b : a;
    }
    return better(a, b);
  }

  /**
   * The one with the lower {@link PeakEwma#cost}, or with fewer calls in flight; but one that a pick
   * would pass over (ejected, failed lately, removed; weight 0 where weights count) loses to one it would not: a failing
   * instance ends its calls fast, so it would otherwise win most draws, and every such draw be wasted.
   */
  private Endpoint better(Endpoint a, Endpoint b) {
    boolean aPassedOver = passedOver(a);
    if (aPassedOver != passedOver(b)) {
      return aPassedOver ? b : a;
    }
    if (peakEwma != null) {
      long now = peakEwma.now();
      return peakEwma.cost(a, now) <= peakEwma.cost(b, now) ? a : b;
    }
    return a.active() <= b.active() ? a : b;
  }

  private boolean passedOver(Endpoint e) {
    return (skipsZeroWeight && e.weight == 0) || e.isRemoved() || e.isEjected() || e.failedRecently();
  }

  private static Endpoint weightedRandom(RevisionGroup[] g, ThreadLocalRandom random) {
    if (g.length == 1) {
      return g[0].weightedRandom(random);
    }
    long total = 0;
    for (RevisionGroup group : g) {
      total += group.totalWeight();
    }
    if (total <= 0) {
      return null;
    }
    long target = random.nextLong(total);
    for (RevisionGroup group : g) {
      long w = group.totalWeight();
      if (target < w) {
        return group.weightedRandom(random);
      }
      target -= w;
    }
    return null;
  }

  /** The least busy endpoint; with {@code tried}, only among those not tried, removed or failing. */
  private static Endpoint leastActive(RevisionGroup[] g, ThreadLocalRandom random, Endpoint[] tried, int triedCount) {
    Endpoint best = null;
    int bestActive = Integer.MAX_VALUE;
    int ties = 0;
    for (RevisionGroup group : g) {
      for (int i = 0, n = group.size(); i < n; i++) {
        Endpoint e = group.at(i);
        if (e == null
            || (tried != null
                && (e.isRemoved() || e.isEjected() || e.failedRecently() || isTried(e, tried, triedCount)))) {
          continue;
        }
        int active = e.active();
        if (active < bestActive) {
          best = e;
          bestActive = active;
          ties = 1;
        } else if (active == bestActive && random.nextInt(++ties) == 0) {
          // Reservoir sampling among ties, so idle instances share the load evenly.
          best = e;
        }
      }
    }
    return best;
  }

  @Override
  public String toString() {
    return "ServiceDirectory{" + serviceName + ", " + size() + " instances}";
  }
}
