package io.triplerpc.benchmark.registry;

import io.triplerpc.registry.InstanceChange;
import io.triplerpc.registry.InstanceListener;
import io.triplerpc.registry.LoadBalancing;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.internal.DirectorySettings;
import io.triplerpc.registry.internal.RegistryCluster;
import io.triplerpc.registry.internal.ServiceDirectory;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Dubbo 3's Seed-700 address-push test against Triple's consumer directory: 70 applications × 10
 * services × 3,143 instances (220k instances, 2.2 million service-level addresses), one consumer
 * subscribed to all 700 services, fed by an in-process change source on this thread.
 *
 * <p>Measures the retained heap after the full sync, the bytes this (notifying) thread allocates per
 * one-instance change (for applications of 1k, 10k and 100k instances too, to show it is flat), the
 * time from a change to every affected service directory being updated, and a full resync of one
 * million instances. Ends with one line: {@code retained_heap_mb=N alloc_per_change_bytes=N
 * change_p99_ms=N resync_1m_ms=N ...} (further keys after those four).
 *
 * <p>Run with {@code scripts/registry-scale.sh}; flags: {@code --scale} (N times the Seed-700 shape:
 * 70 N applications, a resync of N million instances), {@code --apps}, {@code --services},
 * {@code --instances}, {@code --changes}, {@code --resync}.
 */
public final class RegistryScale {

  private static final long WINDOW_NANOS = TimeUnit.MILLISECONDS.toNanos(20);
  /** Isolated changes: one per window and a bit, so each one applies on arrival, as after a quiet spell. */
  private static final long SPACING_NANOS = TimeUnit.MILLISECONDS.toNanos(22);

  private final AtomicLong applied = new AtomicLong();
  private final com.sun.management.ThreadMXBean threads =
      (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

  /** Whether to print the classes the full sync retained (--histogram 1). */
  private boolean histogram;

  private RegistryScale() {}

  public static void main(String[] args) throws Exception {
    Map<String, Integer> flags = Flags.parse(args);
    // --scale N multiplies the Seed-700 shape: N times the applications, N million instances resynced.
    int scale = flags.getOrDefault("scale", 1);
    RegistryScale harness = new RegistryScale();
    harness.histogram = flags.getOrDefault("histogram", 0) != 0;
    harness.run(flags.getOrDefault("apps", 70 * scale), flags.getOrDefault("services", 10),
        flags.getOrDefault("instances", 3143), flags.getOrDefault("changes", 600), flags.getOrDefault("resync", 1_000_000 * scale));
  }

  private RegistryCluster cluster(ScaleSource source) {
    DirectorySettings settings = new DirectorySettings(LoadBalancing.WEIGHTED_RANDOM, 2, WINDOW_NANOS,
        TimeUnit.SECONDS.toNanos(1), true, TimeUnit.SECONDS.toNanos(3), (directory, changes) -> applied.addAndGet(changes));
    return new RegistryCluster(source, false, address -> {
      throw new UnsupportedOperationException("The harness makes no calls");
    }, settings, null, Map.of());
  }

  private void run(int apps, int services, int instances, int changes, int resyncSize) throws Exception {
    System.out.printf(Locale.ROOT, "seed: %d applications x %d services x %d instances = %,d instances, %,d service-level addresses%n",
        apps, services, instances, (long) apps * instances, (long) apps * services * instances);
    Map<String, long[]> classesBefore = histogram ? Histogram.take() : null;
    long heapBefore = usedHeapAfterGc();
    ScaleSource source = new ScaleSource();
    List<List<String>> serviceNames = new ArrayList<>();
    for (int a = 0; a < apps; a++) {
      serviceNames.add(source.declare("app" + a, services));
    }
    RegistryCluster cluster = cluster(source);
    List<ServiceDirectory> directories = new ArrayList<>();
    for (List<String> names : serviceNames) {
      for (String name : names) {
        directories.add(cluster.directory(name, ScaleSource.VERSION, ""));
      }
    }
    long syncStart = System.nanoTime();
    for (int a = 0; a < apps; a++) {
      String app = "app" + a;
      source.listeners.get(app).onResync(source.instances(app, a, 0, instances));
    }
    long syncNanos = System.nanoTime() - syncStart;
    long addresses = 0;
    for (ServiceDirectory directory : directories) {
      addresses += directory.size();
    }
    check(addresses == (long) apps * services * instances, "service-level addresses " + addresses);
    long retained = usedHeapAfterGc() - heapBefore;
    System.out.printf(Locale.ROOT, "full sync: %d ms; %,d service-level addresses in %d directories%n",
        TimeUnit.NANOSECONDS.toMillis(syncNanos), addresses, directories.size());
    System.out.printf(Locale.ROOT, "retained heap after full sync and GC: %.1f MB (%d bytes per instance)%n",
        retained / 1048576.0, retained / ((long) apps * instances));
    if (histogram) {
      Histogram.printDifference(classesBefore, Histogram.take(), (long) apps * instances);
    }

    Changes seed = changes(source, cluster, apps, instances, changes, serviceNames, services);
    System.out.printf(Locale.ROOT, "seed-700 changes: %d isolated one-instance changes (remove, add, reweigh in turn)%n", changes);
    System.out.printf(Locale.ROOT, "  change to all %d affected directories updated: p50 %.3f ms, p99 %.3f ms, max %.3f ms%n",
        services, seed.p50Millis(), seed.p99Millis(), seed.maxMillis());
    System.out.printf(Locale.ROOT, "  allocated on the notifying thread: %d bytes per change (mean; includes making the change record)%n",
        seed.allocPerChange);

    long burst = burst(source, cluster, "app0", 0, instances, 10_000);
    System.out.printf(Locale.ROOT, "burst: 10,000 changes sent back to back to app0, all applied after %d ms%n",
        TimeUnit.NANOSECONDS.toMillis(burst));
    cluster.close();
    directories.clear();

    for (int size : new int[] {1_000, 10_000, 100_000}) {
      ScaleSource one = new ScaleSource();
      List<String> names = one.declare("flat", services);
      RegistryCluster flat = cluster(one);
      names.forEach(flat::directory);
      one.listeners.get("flat").onResync(one.instances("flat", 0, 0, size));
      Changes measured = changes(one, flat, 1, size, Math.min(changes, 300), List.of(names), services);
      System.out.printf(Locale.ROOT, "flatness: application of %,7d instances: %d bytes per change, p99 %.3f ms%n",
          size, measured.allocPerChange, measured.p99Millis());
      flat.close();
    }

    long[] resync = resync(resyncSize, services);
    System.out.printf(Locale.ROOT, "resync of %,d instances: first list %d ms; after a reconnect (1%% new, 1%% gone, 1%% reweighed) %d ms%n",
        resyncSize, resync[0], resync[1]);
    // On a shared machine the wall time includes waiting for a core: the notifying thread's own CPU
    // time, and the collectors' pauses meanwhile, tell the work from the wait.
    System.out.printf(Locale.ROOT, "  CPU time of the notifying thread: first list %d ms, reconnect %d ms; GC pauses meanwhile %d ms, %d ms%n",
        resync[2], resync[3], resync[4], resync[5]);

    // The first four keys are those of the 1x run; resync_1m_ms is the slower of the two resyncs of --resync instances.
    System.out.printf(Locale.ROOT, "retained_heap_mb=%d alloc_per_change_bytes=%d change_p99_ms=%.2f resync_1m_ms=%d"
            + " retained_bytes_per_instance=%d resync_instances=%d resync_first_ms=%d resync_reconnect_ms=%d"
            + " resync_first_cpu_ms=%d resync_reconnect_cpu_ms=%d%n",
        Math.round(retained / 1048576.0), seed.allocPerChange, seed.p99Millis(), Math.max(resync[0], resync[1]),
        retained / ((long) apps * instances), resyncSize, resync[0], resync[1], resync[2], resync[3]);
  }

  /** Latencies and allocation of isolated changes. */
  private static final class Changes {
    long[] nanos;
    long allocPerChange;

    double p50Millis() {
      return nanos[nanos.length / 2] / 1e6;
    }

    double p99Millis() {
      return nanos[(int) Math.min(nanos.length - 1, Math.ceil(nanos.length * 0.99) - 1)] / 1e6;
    }

    double maxMillis() {
      return nanos[nanos.length - 1] / 1e6;
    }
  }

  /**
   * {@code count} one-instance changes to random applications, each timed from the call into the
   * listener until the change is applied to the application's groups (which every service of the
   * application reads), and the allocation of this thread meanwhile.
   */
  private Changes changes(ScaleSource source, RegistryCluster cluster, int apps, int instances, int count,
      List<List<String>> serviceNames, int services) {
    SplittableRandom random = new SplittableRandom(42);
    int[] next = new int[apps];
    int[] removed = new int[apps];
    Arrays.fill(next, instances);
    long[] nanos = new long[count];
    long allocated = 0;
    long thread = Thread.currentThread().getId();
    int[] expectedSize = new int[apps];
    Arrays.fill(expectedSize, instances);
    for (int i = 0; i < count; i++) {
      LockSupport.parkNanos(SPACING_NANOS);
      int a = random.nextInt(apps);
      String app = apps == 1 ? "flat" : "app" + a;
      InstanceListener listener = source.listeners.get(app);
      long expected = applied.get() + 1;
      long allocBefore = threads.getThreadAllocatedBytes(thread);
      long start = System.nanoTime();
      // The change record is made here, as a registry's event thread would decode it.
      switch (i % 3) {
        case 0:
          listener.onChanges(List.of(InstanceChange.removed(
              ScaleSource.instance(app, a, removed[a]++, source.revision(app)))));
          expectedSize[a]--;
          break;
        case 1:
          listener.onChanges(List.of(InstanceChange.added(
              ScaleSource.instance(app, a, next[a]++, source.revision(app)))));
          expectedSize[a]++;
          break;
        default:
          ServiceInstance someone = ScaleSource.instance(app, a, removed[a] + random.nextInt(instances - 1), source.revision(app));
          listener.onChanges(List.of(InstanceChange.updated(someone.withWeight(50 + random.nextInt(100)))));
          break;
      }
      while (applied.get() < expected) {
        Thread.onSpinWait();
      }
      nanos[i] = System.nanoTime() - start;
      allocated += threads.getThreadAllocatedBytes(thread) - allocBefore;
    }
    for (int a = 0; a < apps; a++) {
      for (String name : serviceNames.get(a)) {
        int size = cluster.directory(name, ScaleSource.VERSION, "").size();
        check(size == expectedSize[a], name + " has " + size + " instances, expected " + expectedSize[a]);
      }
    }
    Arrays.sort(nanos);
    Changes result = new Changes();
    result.nanos = nanos;
    result.allocPerChange = allocated / count;
    return result;
  }

  /** Sends {@code count} changes back to back; returns the time until all are applied. */
  private long burst(ScaleSource source, RegistryCluster cluster, String app, int a, int instances, int count) {
    InstanceListener listener = source.listeners.get(app);
    long expected = applied.get() + count;
    long start = System.nanoTime();
    for (int i = 0; i < count; i++) {
      int index = 2_000_000 + i / 2;
      ServiceInstance instance = ScaleSource.instance(app, a, index, source.revision(app));
      listener.onChanges(List.of(i % 2 == 0 ? InstanceChange.added(instance) : InstanceChange.removed(instance)));
    }
    while (applied.get() < expected) {
      Thread.onSpinWait();
    }
    return System.nanoTime() - start;
  }

  /** A first list of {@code size} instances, then a reconnect's list: 1% new, 1% gone, 1% reweighed. */
  private long[] resync(int size, int services) {
    ScaleSource source = new ScaleSource();
    List<String> names = source.declare("big", services);
    RegistryCluster cluster = cluster(source);
    names.forEach(cluster::directory);
    InstanceListener listener = source.listeners.get("big");
    List<ServiceInstance> first = source.instances("big", 0, 0, size);
    long gcBefore = gcMillis();
    long cpuBefore = threads.getCurrentThreadCpuTime();
    long start = System.nanoTime();
    listener.onResync(first);
    long firstMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    long firstCpu = TimeUnit.NANOSECONDS.toMillis(threads.getCurrentThreadCpuTime() - cpuBefore);
    long firstGc = gcMillis() - gcBefore;
    check(cluster.directory(names.get(0), ScaleSource.VERSION, "").size() == size, "first resync size");
    first = null;

    int churn = size / 100;
    List<ServiceInstance> again = source.instances("big", 0, churn, size + churn);
    for (int i = 0; i < churn; i++) {
      int at = churn + i * 97 % (size - churn);
      again.set(at, again.get(at).withWeight(60));
    }
    gcBefore = gcMillis();
    cpuBefore = threads.getCurrentThreadCpuTime();
    start = System.nanoTime();
    listener.onResync(again);
    long againMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    long againCpu = TimeUnit.NANOSECONDS.toMillis(threads.getCurrentThreadCpuTime() - cpuBefore);
    long againGc = gcMillis() - gcBefore;
    check(cluster.directory(names.get(0), ScaleSource.VERSION, "").size() == size, "second resync size");
    cluster.close();
    return new long[] {firstMillis, againMillis, firstCpu, againCpu, firstGc, againGc};
  }

  private static void check(boolean condition, String what) {
    if (!condition) {
      throw new IllegalStateException("Directory state is wrong: " + what);
    }
  }

  /** The collectors' accumulated collection time. */
  private static long gcMillis() {
    long total = 0;
    for (java.lang.management.GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      total += Math.max(0, gc.getCollectionTime());
    }
    return total;
  }

  private static long usedHeapAfterGc() {
    for (int i = 0; i < 4; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
