package io.triplerpc.registry.zookeeper;

import io.triplerpc.CallOptions;
import io.triplerpc.registry.Discovery;
import io.triplerpc.registry.DiscoveryObserver;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.spi.Cluster;
import io.triplerpc.spi.ServerInfo;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import jdk.jfr.Configuration;
import jdk.jfr.Recording;
import javax.management.ObjectName;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.recipes.watch.PersistentWatcher;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * Measures how fast a change of an application's instance znodes reaches a consumer's directory
 * while the application has many instances (10,000 unless {@code --instances N}), and what the
 * consumer keeps per instance. Not a test: a main, run by {@code scripts/registry-scale.sh} (which
 * passes {@code --zk-instances N} on as {@code --instances N}), or by hand from the repository root:
 *
 * <pre>
 * mvn -B -q -o test-compile dependency:build-classpath -pl triple-registry-zookeeper -am \
 *     -Dmdep.includeScope=test -Dmdep.outputFile=target/zk.classpath
 * java -Xmx3g -Djute.maxbuffer=4194304 -cp triple-registry-zookeeper/target/test-classes:triple-registry-zookeeper/target/classes:$(cat \
 *     triple-registry-zookeeper/target/zk.classpath) io.triplerpc.registry.zookeeper.ZooKeeperPushLatency --instances 100000
 * </pre>
 *
 * <p>One in-process ZooKeeper server (curator-test). A provider session (a plain Curator client)
 * creates the instance znodes of one application, in Triple's layout, 1,000 to a {@code multi},
 * several multis in flight. A consumer (a {@link ZooKeeperRegistry} under {@link Discovery}, as a
 * {@code zookeeper://} client builds it) is asked for the application's service; the initial sync is
 * timed from that request to its directory counting every instance. The heap's live objects are
 * counted (a class histogram, which collects first) before the request and after the sync: their
 * difference is what the consumer keeps, whose largest classes are printed. Then the provider makes
 * 500 changes (unless {@code --changes N}) one at a time, cycling through a new instance, a weight
 * change and a removal, each timed from the write call to the directory using the new list (its
 * {@link DiscoveryObserver#pushApplied}); 50 changes before them warm up and are not counted. Each
 * change is written 25 ms after the one before was applied, past the directory's 20 ms coalescing
 * window, so each is applied as it arrives.
 *
 * <p>ZooKeeper refuses packets larger than {@code jute.maxbuffer} (1 MB by default, on the client
 * and the server): reading the children of one parent with about 45,000 instances named
 * {@code host:port} already exceeds it. This harness refuses to start when the children list would
 * not fit, and names the system property to set ({@code -Djute.maxbuffer=...}, read by both the
 * in-process server and the clients here; on a real deployment the consumers' clients need it, and
 * the servers too for their own reads).
 *
 * <p>{@code --jfr FILE} writes a flight recording of the initial sync (JFR's profile settings) to FILE.
 *
 * <p>Prints the figures, then one line: {@code zk_app_instances=N zk_change_p50_ms=N
 * zk_change_p99_ms=N zk_initial_sync_ms=N ...}.
 */
public final class ZooKeeperPushLatency {

  private static final int WARMUP_CHANGES = 50;
  private static final String APPLICATION = "bench";
  private static final String SERVICE = "bench.Echo";
  private static final String ROOT = ZooKeeperRegistry.Builder.DEFAULT_ROOT_PATH;
  /** Creates per multi request: about 100 KB of request each, well under the packet limit. */
  private static final int BATCH = 1_000;
  private static final int BATCHES_IN_FLIGHT = 8;
  /**
   * Isolated changes: each written this long after the directory applied the one before, past its
   * coalescing window (20 ms by default, opened by the change applied) and a margin for a late timer.
   */
  private static final long SPACING_NANOS = TimeUnit.MILLISECONDS.toNanos(25);
  /** ZooKeeper's default jute.maxbuffer: 0xfffff bytes. */
  private static final int DEFAULT_MAX_BUFFER = 0xfffff;
  private static final Pattern HISTOGRAM_LINE = Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)");

  private final int instances;
  private final int changes;
  /** Where to write a flight recording (JFR's profile settings) of the initial sync, or null. */
  private final Path jfr;
  private final ZnodeFormat format = new ZnodeFormat(ROOT);
  private final MetadataInfo metadata = MetadataInfo.of(APPLICATION,
      List.of(new ServerInfo.Service(SERVICE, List.of("echo"), "proto", "", "")));

  /** Completed when the directory first counts every instance: when, in System.nanoTime(). */
  private final CompletableFuture<Long> synced = new CompletableFuture<>();
  /** Completed by the next push the directory applies: when, and the consumer's own share of it. */
  private final AtomicReference<CompletableFuture<long[]>> nextPush = new AtomicReference<>();
  /** When the consumer's ZooKeeper client delivered the last watch event of each znode path. */
  private final Map<String, Long> heard = new ConcurrentHashMap<>();
  /** Pushes applied that were not the change awaited (none expected once the sync is over). */
  private final AtomicLong otherPushes = new AtomicLong();

  private final DiscoveryObserver observer = new DiscoveryObserver() {
    @Override
    public void instancesChanged(String service, String version, String group, int count) {
      if (count == instances) {
        synced.complete(System.nanoTime());
      }
    }

    @Override
    public void pushApplied(String application, long lagNanos) {
      long now = System.nanoTime();
      CompletableFuture<long[]> waiting = nextPush.getAndSet(null);
      if (waiting != null) {
        waiting.complete(new long[] {now, lagNanos});
      } else {
        otherPushes.incrementAndGet();
      }
    }
  };

  private ZooKeeperPushLatency(int instances, int changes, Path jfr) {
    this.instances = instances;
    this.changes = changes;
    this.jfr = jfr;
  }

  public static void main(String[] args) throws Exception {
    int instances = 10_000;
    int changes = 500;
    Path jfr = null;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--instances" -> instances = Integer.parseInt(args[++i]);
        case "--changes" -> changes = Integer.parseInt(args[++i]);
        case "--jfr" -> jfr = Path.of(args[++i]);
        default -> throw new IllegalArgumentException("Unknown argument " + args[i]
            + " (--instances N, --changes N, --jfr FILE)");
      }
    }
    new ZooKeeperPushLatency(instances, changes, jfr).run();
  }

  private void run() throws Exception {
    checkMaxBuffer();
    try (TestingServer server = new TestingServer(true);
        CuratorFramework provider = CuratorFrameworkFactory.newClient(server.getConnectString(),
            new ExponentialBackoffRetry(100, 3))) {
      provider.start();
      if (!provider.blockUntilConnected(30, TimeUnit.SECONDS)) {
        throw new IllegalStateException("The provider could not connect");
      }
      try (ZooKeeperRegistry publisher = ZooKeeperRegistry.connect(server.getConnectString())) {
        publisher.publishMetadata(metadata).get(30, TimeUnit.SECONDS);
        publisher.map(SERVICE, APPLICATION).get(30, TimeUnit.SECONDS);
      }
      provider.create().creatingParentsIfNeeded().forPath(format.instancesPath(APPLICATION));

      List<ServiceInstance> live = new ArrayList<>(instances + changes);
      long registerStart = System.nanoTime();
      for (int i = 0; i < instances; i++) {
        live.add(instance(i));
      }
      registerAll(provider, live);
      System.out.printf(Locale.ROOT, "registered %,d instances in %d ms (multi of %d creates, %d in flight)%n",
          instances, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - registerStart), BATCH, BATCHES_IN_FLIGHT);

      try (ZooKeeperRegistry consumer = ZooKeeperRegistry.connect(server.getConnectString());
          Cluster cluster = Discovery.using(consumer).observer(observer).build().newCluster(address -> {
            throw new UnsupportedOperationException("The harness makes no calls");
          })) {
        Map<String, long[]> before = histogram();
        Recording recording = null;
        if (jfr != null) {
          recording = new Recording(Configuration.getConfiguration("profile"));
          recording.start();
        }
        long subscribed = System.nanoTime();
        cluster.prepare(SERVICE, CallOptions.DEFAULT);
        long initialSyncNanos = synced.get(600, TimeUnit.SECONDS) - subscribed;
        if (recording != null) {
          recording.stop();
          recording.dump(jfr);
          recording.close();
        }
        Map<String, long[]> after = histogram();
        long retained = after.get("Total")[1] - before.get("Total")[1];
        System.out.printf(Locale.ROOT, "initial sync of %,d instances: %d ms%n", instances,
            TimeUnit.NANOSECONDS.toMillis(initialSyncNanos));
        System.out.printf(Locale.ROOT, "retained by the consumer after the sync: %.1f MB, %d bytes per instance%n",
            retained / 1048576.0, retained / instances);
        printLargest(before, after);

        // A second watch on the consumer's own client, which ZooKeeper's client calls with the same events
        // as the registry's: when the consumer heard of each change, to split its latency.
        CompletableFuture<Void> probing = new CompletableFuture<>();
        PersistentWatcher probe = new PersistentWatcher(consumer.client(), format.instancesPath(APPLICATION), true);
        probe.getListenable().addListener(event -> {
          if (event.getPath() != null) {
            heard.put(event.getPath(), System.nanoTime());
          }
        });
        probe.getResetListenable().addListener(() -> probing.complete(null));
        probe.start();
        probing.get(30, TimeUnit.SECONDS);
        otherPushes.set(0);
        long[][] latencies = changes(provider, live);
        probe.close();
        System.out.printf(Locale.ROOT, "changes: %d (after %d to warm up), each awaited; pushes applied while none was: %d%n",
            changes, WARMUP_CHANGES, otherPushes.get());
        String[] kinds = {"add", "weight", "remove"};
        long[] all = Arrays.stream(latencies[0]).sorted().toArray();
        long[] consumerShare = Arrays.stream(latencies[1]).sorted().toArray();
        long[] written = Arrays.stream(latencies[2]).sorted().toArray();
        long[] afterAck = Arrays.stream(latencies[3]).sorted().toArray();
        long[] toEvent = Arrays.stream(latencies[4]).sorted().toArray();
        long[] afterEvent = Arrays.stream(latencies[5]).sorted().toArray();
        StringBuilder perKind = new StringBuilder();
        for (int k = 0; k < 3; k++) {
          long[] kind = new long[(changes + 2 - k) / 3];
          for (int i = k, j = 0; i < changes; i += 3) {
            kind[j++] = latencies[0][i];
          }
          Arrays.sort(kind);
          System.out.printf(Locale.ROOT, "  %-6s (%d): p50 %.2f ms, p99 %.2f ms, max %.2f ms%n", kinds[k], kind.length,
              millis(percentile(kind, 50)), millis(percentile(kind, 99)), millis(kind[kind.length - 1]));
          perKind.append(String.format(Locale.ROOT, " zk_%s_p99_ms=%.2f", kinds[k], millis(percentile(kind, 99))));
        }
        System.out.printf(Locale.ROOT, "  of which in the consumer's directory (received to applied): p50 %.3f ms,"
            + " p99 %.3f ms%n", millis(percentile(consumerShare, 50)), millis(percentile(consumerShare, 99)));
        System.out.printf(Locale.ROOT, "  the write itself (call to the provider's acknowledgement: ZooKeeper's commit, its"
            + " log's fsync): p50 %.2f ms, p99 %.2f ms%n", millis(percentile(written, 50)), millis(percentile(written, 99)));
        System.out.printf(Locale.ROOT, "  acknowledgement to applied (negative: the consumer first): p50 %.2f ms, p99 %.2f ms,"
            + " max %.2f ms%n", millis(percentile(afterAck, 50)), millis(percentile(afterAck, 99)),
            millis(afterAck[afterAck.length - 1]));
        System.out.printf(Locale.ROOT, "  write call to the consumer's client hearing the watch event: p50 %.2f ms, p99 %.2f ms%n",
            millis(percentile(toEvent, 50)), millis(percentile(toEvent, 99)));
        System.out.printf(Locale.ROOT, "  watch event to applied in the directory (the consumer: its read of the znode, decoding,"
            + " the directory): p50 %.2f ms, p99 %.2f ms, max %.2f ms%n", millis(percentile(afterEvent, 50)),
            millis(percentile(afterEvent, 99)), millis(afterEvent[afterEvent.length - 1]));
        System.out.println(String.format(Locale.ROOT,
            "zk_app_instances=%d zk_change_p50_ms=%.2f zk_change_p99_ms=%.2f zk_initial_sync_ms=%.0f"
                + " zk_retained_bytes_per_instance=%d zk_write_p99_ms=%.2f zk_ack_to_applied_p99_ms=%.2f"
                + " zk_event_to_applied_p99_ms=%.2f%s",
            instances, millis(percentile(all, 50)), millis(percentile(all, 99)), millis(initialSyncNanos),
            retained / instances, millis(percentile(written, 99)), millis(percentile(afterAck, 99)),
            millis(percentile(afterEvent, 99)), perKind));
      }
    }
  }

  /** Refuses to start if the children list of the application will not fit in a packet. */
  private void checkMaxBuffer() {
    long children = 0;
    for (int i = 0; i < instances + changes; i++) {
      children += 4 + instance(i).address().length(); // Jute: a length, then the UTF-8 bytes.
    }
    int limit = Integer.getInteger("jute.maxbuffer", DEFAULT_MAX_BUFFER);
    System.out.printf(Locale.ROOT, "jute.maxbuffer=%d%s; the children list of %,d instances takes %,d bytes%n", limit,
        System.getProperty("jute.maxbuffer") == null ? " (ZooKeeper's default)" : "", instances, children);
    if (children + 1024 > limit) {
      throw new IllegalStateException("ZooKeeper would refuse the list of " + instances + " children ("
          + children + " bytes > jute.maxbuffer " + limit + "): run with -Djute.maxbuffer=" + 2 * (children + 1024));
    }
  }

  /** Creates the instance znodes, {@link #BATCH} to a multi, {@link #BATCHES_IN_FLIGHT} multis at a time. */
  private void registerAll(CuratorFramework provider, List<ServiceInstance> all) throws Exception {
    Semaphore inFlight = new Semaphore(BATCHES_IN_FLIGHT);
    CompletableFuture<Void> failed = new CompletableFuture<>();
    for (int from = 0; from < all.size(); from += BATCH) {
      List<CuratorOp> ops = new ArrayList<>(BATCH);
      for (ServiceInstance instance : all.subList(from, Math.min(all.size(), from + BATCH))) {
        ops.add(provider.transactionOp().create().withMode(CreateMode.EPHEMERAL)
            .forPath(format.instancePath(instance), ZnodeFormat.encodeInstance(instance)));
      }
      inFlight.acquire();
      if (failed.isDone()) {
        failed.get();
      }
      provider.transaction().inBackground((client, event) -> {
        if (event.getResultCode() != KeeperException.Code.OK.intValue()) {
          failed.completeExceptionally(KeeperException.create(KeeperException.Code.get(event.getResultCode())));
        }
        inFlight.release();
      }).forOperations(ops);
    }
    inFlight.acquire(BATCHES_IN_FLIGHT);
    if (failed.isDone()) {
      failed.get();
    }
  }

  /**
   * Makes the warm-up and measured changes, each {@link #SPACING_NANOS} after the one before was applied: per
   * measured change, the time from its write call to the directory's new list, and the consumer's share.
   */
  private long[][] changes(CuratorFramework provider, List<ServiceInstance> live) throws Exception {
    long[][] latencies = new long[6][changes];
    int next = instances;
    long lastApplied = 0;
    for (int i = 0; i < WARMUP_CHANGES + changes; i++) {
      LockSupport.parkNanos(lastApplied + SPACING_NANOS - System.nanoTime());
      CompletableFuture<long[]> applied = new CompletableFuture<>();
      CompletableFuture<Long> acknowledged = new CompletableFuture<>();
      BackgroundCallback acknowledge = (client, event) -> {
        if (event.getResultCode() == KeeperException.Code.OK.intValue()) {
          acknowledged.complete(System.nanoTime());
        } else {
          acknowledged.completeExceptionally(KeeperException.create(KeeperException.Code.get(event.getResultCode())));
        }
      };
      ServiceInstance target = switch (i % 3) {
        case 0 -> instance(next);
        case 1 -> live.get(i % live.size());
        default -> live.get(live.size() / 2);
      };
      heard.clear();
      nextPush.set(applied);
      long lastWrite = System.nanoTime();
      switch (i % 3) {
        case 0 -> {
          next++;
          live.add(target);
          provider.create().withMode(CreateMode.EPHEMERAL).inBackground(acknowledge)
              .forPath(format.instancePath(target), ZnodeFormat.encodeInstance(target));
        }
        case 1 -> {
          target = target.withWeight(target.weight() == 100 ? 50 : 100);
          live.set(i % live.size(), target);
          provider.setData().inBackground(acknowledge).forPath(format.instancePath(target), ZnodeFormat.encodeInstance(target));
        }
        default -> {
          live.remove(live.size() / 2);
          provider.delete().inBackground(acknowledge).forPath(format.instancePath(target));
        }
      }
      long[] push = applied.get(30, TimeUnit.SECONDS);
      long ack = acknowledged.get(30, TimeUnit.SECONDS);
      lastApplied = push[0];
      if (i >= WARMUP_CHANGES) {
        latencies[0][i - WARMUP_CHANGES] = push[0] - lastWrite;
        latencies[1][i - WARMUP_CHANGES] = push[1];
        latencies[2][i - WARMUP_CHANGES] = ack - lastWrite;
        latencies[3][i - WARMUP_CHANGES] = push[0] - ack;
        long event = heard(format.instancePath(target));
        latencies[4][i - WARMUP_CHANGES] = event - lastWrite;
        latencies[5][i - WARMUP_CHANGES] = push[0] - event;
      }
    }
    return latencies;
  }

  /**
   * When the probe heard of the change to {@code path}. The registry's watch and the probe are called
   * one after the other for the same event: the registry's first, a deletion (which needs no read) can
   * be applied before the probe is called, and then this waits a little for it.
   */
  private long heard(String path) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    Long event;
    while ((event = heard.get(path)) == null) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("No watch event for " + path);
      }
      LockSupport.parkNanos(50_000);
    }
    return event;
  }

  /** The live objects by class: {instances, bytes}, and their sum under "Total". Collects first. */
  private static Map<String, long[]> histogram() throws Exception {
    String text = (String) ManagementFactory.getPlatformMBeanServer().invoke(
        new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
        new Object[] {new String[0]}, new String[] {String[].class.getName()});
    Map<String, long[]> classes = new HashMap<>();
    long total = 0;
    for (String line : text.split("\n")) {
      Matcher matcher = HISTOGRAM_LINE.matcher(line);
      if (matcher.find()) {
        long bytes = Long.parseLong(matcher.group(2));
        classes.merge(matcher.group(3), new long[] {Long.parseLong(matcher.group(1)), bytes},
            (a, b) -> new long[] {a[0] + b[0], a[1] + b[1]});
        total += bytes;
      }
    }
    classes.put("Total", new long[] {0, total});
    return classes;
  }

  /** The classes whose live bytes grew most between the two histograms. */
  private void printLargest(Map<String, long[]> before, Map<String, long[]> after) {
    System.out.println("  largest growth by class (instances, bytes, bytes per application instance):");
    after.entrySet().stream()
        .filter(e -> !e.getKey().equals("Total"))
        .map(e -> {
          long[] was = before.getOrDefault(e.getKey(), new long[2]);
          return Map.entry(e.getKey(), new long[] {e.getValue()[0] - was[0], e.getValue()[1] - was[1]});
        })
        .sorted(Comparator.comparingLong((Map.Entry<String, long[]> e) -> e.getValue()[1]).reversed())
        .limit(15)
        .forEach(e -> System.out.printf(Locale.ROOT, "    %,12d %,14d %7.1f  %s%n", e.getValue()[0], e.getValue()[1],
            (double) e.getValue()[1] / instances, e.getKey()));
  }

  private ServiceInstance instance(int i) {
    return ServiceInstance.of(APPLICATION, "10." + (i >> 16) + '.' + ((i >> 8) & 0xff) + '.' + (i & 0xff), 50051,
        metadata.revision());
  }

  /** The nearest-rank percentile of sorted {@code values}. */
  private static long percentile(long[] sorted, int percent) {
    return sorted[(sorted.length * percent + 99) / 100 - 1];
  }

  private static double millis(long nanos) {
    return nanos / 1e6;
  }
}
