package io.triplerpc.registry.zookeeper;

import io.triplerpc.registry.InstanceChange;
import io.triplerpc.registry.InstanceListener;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.Subscription;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.TestingServer;

/**
 * Measures how fast the ZooKeeper registry pushes one instance change to a subscriber while the
 * application has 10,000 instances. Not a test: a main, run by hand from the repository root:
 *
 * <pre>
 * mvn -B -q test-compile dependency:build-classpath -pl triple-registry-zookeeper -am \
 *     -Dmdep.includeScope=test -Dmdep.outputFile=target/zk.classpath
 * java -cp triple-registry-zookeeper/target/test-classes:triple-registry-zookeeper/target/classes:$(cat \
 *     triple-registry-zookeeper/target/zk.classpath) io.triplerpc.registry.zookeeper.ZooKeeperPushLatency
 * </pre>
 *
 * <p>One in-process ZooKeeper server; a provider session registers 10,000 instances (pipelined),
 * a consumer session subscribes and waits for the full resync (timed), then 500 changes are made
 * one at a time, cycling through a new instance, a weight change and a removal, each timed from the
 * write call to the listener seeing that address change. 50 changes before them warm up and are not
 * counted. Prints one line.
 */
public final class ZooKeeperPushLatency {

  private static final int INSTANCES = 10_000;
  private static final int WARMUP_CHANGES = 50;
  private static final int CHANGES = 500;
  private static final String APPLICATION = "bench";

  /** Changes written and not yet seen by the listener, by address: when the write was called. */
  private final Map<String, Pending> pending = new ConcurrentHashMap<>();
  private final CompletableFuture<Long> resynced = new CompletableFuture<>();

  private record Pending(long startNanos, CompletableFuture<Long> seen) {}

  private final InstanceListener listener = new InstanceListener() {
    @Override
    public void onResync(Collection<ServiceInstance> instances) {
      long now = System.nanoTime();
      if (instances.size() == INSTANCES) {
        resynced.complete(now);
      } else {
        resynced.completeExceptionally(new IllegalStateException("resync of " + instances.size()));
      }
    }

    @Override
    public void onChanges(List<InstanceChange> changes) {
      long now = System.nanoTime();
      for (InstanceChange change : changes) {
        Pending waiting = pending.remove(change.instance().address());
        if (waiting != null) {
          waiting.seen.complete(now - waiting.startNanos);
        }
      }
    }
  };

  public static void main(String[] args) throws Exception {
    new ZooKeeperPushLatency().run();
  }

  private void run() throws Exception {
    try (TestingServer server = new TestingServer(true);
        ZooKeeperRegistry provider = ZooKeeperRegistry.connect(server.getConnectString());
        ZooKeeperRegistry consumer = ZooKeeperRegistry.connect(server.getConnectString())) {
      List<ServiceInstance> live = new ArrayList<>(INSTANCES);
      provider.register(instance(0)).get(60, TimeUnit.SECONDS); // creates the parents once
      live.add(instance(0));
      List<CompletableFuture<Void>> writes = new ArrayList<>(INSTANCES);
      for (int i = 1; i < INSTANCES; i++) {
        live.add(instance(i));
        writes.add(provider.register(instance(i)));
      }
      CompletableFuture.allOf(writes.toArray(new CompletableFuture<?>[0])).get(120, TimeUnit.SECONDS);

      long subscribed = System.nanoTime();
      Subscription subscription = consumer.subscribe(APPLICATION, listener);
      long initialSyncNanos = resynced.get(120, TimeUnit.SECONDS) - subscribed;

      int next = INSTANCES;
      long[] latencies = new long[CHANGES];
      for (int i = 0; i < WARMUP_CHANGES + CHANGES; i++) {
        ServiceInstance target;
        CompletableFuture<Void> write;
        Pending change;
        switch (i % 3) {
          case 0 -> {
            target = instance(next++);
            change = expect(target);
            write = provider.register(target);
            live.add(target);
          }
          case 1 -> {
            ServiceInstance old = live.get(i % live.size());
            target = old.withWeight(old.weight() == 100 ? 50 : 100);
            change = expect(target);
            write = provider.register(target);
            live.set(i % live.size(), target);
          }
          default -> {
            target = live.remove(live.size() / 2);
            change = expect(target);
            write = provider.unregister(target);
          }
        }
        long latency = change.seen.get(30, TimeUnit.SECONDS);
        write.get(30, TimeUnit.SECONDS);
        if (i >= WARMUP_CHANGES) {
          latencies[i - WARMUP_CHANGES] = latency;
        }
      }
      subscription.close();

      Arrays.sort(latencies);
      System.out.println(String.format(Locale.ROOT,
          "zk_app_instances=%d zk_change_p50_ms=%.2f zk_change_p99_ms=%.2f zk_initial_sync_ms=%.0f",
          INSTANCES, millis(percentile(latencies, 50)), millis(percentile(latencies, 99)),
          millis(initialSyncNanos)));
    }
  }

  /** Starts the clock on {@code target}'s next change, just before its write is called. */
  private Pending expect(ServiceInstance target) {
    Pending change = new Pending(System.nanoTime(), new CompletableFuture<>());
    pending.put(target.address(), change);
    return change;
  }

  private static ServiceInstance instance(int i) {
    return ServiceInstance.of(APPLICATION, "10." + (i >> 16) + '.' + ((i >> 8) & 0xff) + '.' + (i & 0xff), 50051,
        "0123456789abcdef01234567");
  }

  /** The nearest-rank percentile of sorted {@code values}. */
  private static long percentile(long[] sorted, int percent) {
    return sorted[(sorted.length * percent + 99) / 100 - 1];
  }

  private static double millis(long nanos) {
    return nanos / 1e6;
  }
}
