package io.triplerpc.registry.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.registry.InProcessRegistry;
import io.triplerpc.registry.InstanceChange;
import io.triplerpc.registry.LoadBalancing;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.spi.ServerInfo;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * One writer applies random changes (adds, removes, reweighs, revision moves that create and drop
 * groups, and whole resyncs) while two readers pick with every balancer, lock-free. Readers must
 * never throw and never see an endpoint the directory never held. Bounded by operation counts.
 */
class DirectoryConcurrencyTest {

  private static final String APP = "shop";
  private static final String CART = "demo.Cart";
  private static final int WRITES = 40_000;
  private static final int MIN_PICKS_PER_READER = 100_000;
  /** Hosts with one String hash code: at one port they share a home slot in the endpoint index. */
  private static final List<String> HOSTS =
      List.of("AaAaAa", "AaAaBB", "AaBBAa", "AaBBBB", "BBAaAa", "BBAaBB", "BBBBAa", "BBBBBB");
  /** Addresses are numbered: address k is {@code HOSTS[k % 8]} at port {@code 7000 + k / 8}. */
  private static final int ADDRESSES = 48;

  /** Set by the writer when it is done; the readers keep picking until then. */
  private volatile boolean writerDone;

  @Test
  void readersPickSafelyWhileAWriterChangesTheDirectory() throws Exception {
    // Every revision serves the cart, so the cart's view spans all groups as they come and go.
    List<MetadataInfo> revisions = List.of(metadata(CART), metadata(CART, "demo.Orders"), metadata(CART, "demo.Pay"));
    InProcessRegistry registry = new InProcessRegistry();
    revisions.forEach(registry::publishMetadata);
    ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
    try {
      DirectorySettings settings = new DirectorySettings(LoadBalancing.WEIGHTED_RANDOM, 0, 0, 0, false,
          TimeUnit.SECONDS.toNanos(1), (directory, changes) -> {});
      ApplicationDirectory directory = new ApplicationDirectory(APP, registry, scheduler, settings, null);
      List<ServiceDirectory> views = new ArrayList<>();
      for (LoadBalancing balancing : LoadBalancing.values()) {
        ServiceDirectory view = new ServiceDirectory(CART, balancing);
        directory.addService(view);
        views.add(view);
      }
      directory.onResync(List.of());

      Set<Endpoint> held = ConcurrentHashMap.newKeySet();
      Set<Endpoint> picked = ConcurrentHashMap.newKeySet();
      AtomicReference<Throwable> failure = new AtomicReference<>();
      AtomicLong nonNullPicks = new AtomicLong();
      CyclicBarrier start = new CyclicBarrier(3);
      // By address number.
      Map<Integer, ServiceInstance> model = new HashMap<>();

      Thread writer = new Thread(() -> {
        try {
          start.await();
          write(directory, revisions, model, held);
        } catch (Throwable t) {
          failure.compareAndSet(null, t);
        } finally {
          writerDone = true;
        }
      }, "directory-writer");
      List<Thread> readers = new ArrayList<>();
      for (int r = 0; r < 2; r++) {
        readers.add(new Thread(() -> {
          try {
            start.await();
            read(views, picked, nonNullPicks);
          } catch (Throwable t) {
            failure.compareAndSet(null, t);
          }
        }, "directory-reader-" + r));
      }
      writer.start();
      readers.forEach(Thread::start);
      writer.join(TimeUnit.SECONDS.toMillis(60));
      for (Thread reader : readers) {
        reader.join(TimeUnit.SECONDS.toMillis(60));
      }
      assertFalse(writer.isAlive() || readers.stream().anyMatch(Thread::isAlive), "threads finished");
      assertNull(failure.get(), () -> "a thread failed: " + failure.get());

      assertTrue(nonNullPicks.get() > 0, "readers found instances");
      for (Endpoint e : picked) {
        assertTrue(held.contains(e), "picked an endpoint the directory never held: " + e);
      }

      // Quiet now: the directory, its groups and every view agree with the model.
      assertEquals(model.size(), directory.size());
      Map<String, Endpoint> byAddress = new HashMap<>();
      directory.forEachEndpoint(e -> assertNull(byAddress.put(e.address(), e), "twice: " + e));
      assertEquals(model.size(), byAddress.size());
      for (ServiceInstance instance : model.values()) {
        Endpoint e = byAddress.get(instance.address());
        assertNotNull(e, instance.toString());
        assertEquals(instance.weight(), e.weight(), e.toString());
        assertEquals(instance.revision(), e.group.revision, e.toString());
        assertSame(e, e.group.at(e.slot()), e.toString());
        assertFalse(e.isRemoved(), e.toString());
      }
      for (ServiceDirectory view : views) {
        assertEquals(model.size(), view.size(), view.toString());
        for (Endpoint e : byAddress.values()) {
          assertTrue(view.contains(e), view + " lacks " + e);
        }
        for (int i = 0; i < 100; i++) {
          Endpoint e = view.pick(new Endpoint[0], 0);
          if (model.isEmpty()) {
            assertNull(e);
          } else {
            assertNotNull(e);
            assertSame(byAddress.get(e.address()), e, "a current endpoint");
          }
        }
      }
    } finally {
      scheduler.shutdownNow();
      registry.close();
    }
  }

  private static void write(ApplicationDirectory directory, List<MetadataInfo> revisions,
      Map<Integer, ServiceInstance> model, Set<Endpoint> held) {
    Random random = new Random(42);
    for (int step = 0; step < WRITES; step++) {
      if (step % 2_000 == 1_999) {
        // A resync with about half the instances changed or gone, some new.
        Map<Integer, ServiceInstance> next = new HashMap<>();
        for (int k = 0; k < ADDRESSES; k++) {
          ServiceInstance current = model.get(k);
          if (random.nextBoolean()) {
            if (current != null) {
              next.put(k, current);
            }
          } else if (random.nextBoolean()) {
            next.put(k, randomInstance(random, k, revisions));
          }
        }
        model.clear();
        model.putAll(next);
        directory.onResync(List.copyOf(next.values()));
      } else {
        int k = random.nextInt(ADDRESSES);
        ServiceInstance current = model.get(k);
        InstanceChange change;
        if (current == null) {
          change = InstanceChange.added(randomInstance(random, k, revisions));
        } else if (random.nextInt(5) < 2) {
          change = InstanceChange.removed(current);
        } else if (random.nextBoolean()) {
          change = InstanceChange.updated(current.withWeight(randomWeight(random)));
        } else {
          change = InstanceChange.updated(
              current.withRevision(revisions.get(random.nextInt(revisions.size())).revision()));
        }
        if (change.kind() == InstanceChange.Kind.REMOVED) {
          model.remove(k);
        } else {
          model.put(k, change.instance());
        }
        directory.onChanges(List.of(change));
      }
      directory.forEachEndpoint(held::add);
    }
  }

  private static ServiceInstance randomInstance(Random random, int address, List<MetadataInfo> revisions) {
    String host = HOSTS.get(address % HOSTS.size());
    int port = 7000 + address / HOSTS.size();
    return ServiceInstance.of(APP, host, port, revisions.get(random.nextInt(revisions.size())).revision())
        .withWeight(randomWeight(random));
  }

  private static int randomWeight(Random random) {
    int kind = random.nextInt(4);
    return kind == 0 ? 0 : kind == 1 ? 1 + random.nextInt(500) : ServiceInstance.DEFAULT_WEIGHT;
  }

  private void read(List<ServiceDirectory> views, Set<Endpoint> picked, AtomicLong nonNullPicks) {
    Endpoint[] tried = new Endpoint[2];
    long found = 0;
    for (int i = 0; i < MIN_PICKS_PER_READER || !writerDone; i++) {
      ServiceDirectory view = views.get(i % views.size());
      int triedCount = i % 3 == 0 ? 0 : Math.min(2, (int) (found % 3));
      Endpoint e = view.pick(tried, triedCount);
      view.size();
      if (e == null) {
        continue;
      }
      found++;
      e.callStarted();
      if (!picked.contains(e)) {
        picked.add(e);
      }
      view.contains(e);
      e.callEnded();
      tried[(int) (found & 1)] = e;
    }
    nonNullPicks.addAndGet(found);
  }

  private static MetadataInfo metadata(String... services) {
    return MetadataInfo.of(APP, Stream.of(services)
        .map(name -> new ServerInfo.Service(name, List.of("call"), "proto", "", ""))
        .toList());
  }
}
