package io.triplerpc.registry;

import static io.triplerpc.registry.RecordingDiscoveryObserver.export;
import static io.triplerpc.registry.RecordingDiscoveryObserver.lag;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.CallOptions;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.spi.ServerInfo;
import io.triplerpc.testing.ManualClock;
import io.triplerpc.testing.Signal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a {@link DiscoveryObserver} hears from a consumer of an {@link InProcessRegistry}: each export's
 * instances as they come and go, each push's lag (on a {@link ManualClock}, with a revision's metadata
 * answered when the test says), and discovery going on when the observer throws.
 */
class DiscoveryObserverTest {

  private static final String APP = "whoami-app";
  private static final String WHOAMI = "triple.test.Whoami";
  private static final String PLAIN = export(WHOAMI, "", "");

  private final InProcessRegistry registry = new InProcessRegistry();
  private final RecordingDiscoveryObserver observer = new RecordingDiscoveryObserver();
  private final ManualClock clock = new ManualClock();
  private final List<TripleServer> servers = new ArrayList<>();
  private final List<TripleClient> clients = new ArrayList<>();

  @AfterEach
  void stop() throws InterruptedException {
    clients.forEach(TripleClient::close);
    for (TripleServer server : servers) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(5));
    }
    registry.close();
    clock.close();
  }

  /** The metadata of an instance serving Whoami in each {version, group} given. */
  private static MetadataInfo serving(String[]... exports) {
    List<ServerInfo.Service> services = new ArrayList<>();
    for (String[] export : exports) {
      services.add(new ServerInfo.Service(WHOAMI, List.of("who", "whoIdempotent"), "hessian2", export[0], export[1]));
    }
    return MetadataInfo.of(APP, services);
  }

  /** Publishes {@code metadata} and maps Whoami to the application, as a provider's registration would. */
  private void publish(MetadataInfo metadata) {
    registry.publishMetadata(metadata).join();
    registry.map(WHOAMI, APP).join();
  }

  /** An instance at a port no one listens on: the directory counts it, and no call is made. */
  private static ServiceInstance instance(int port, MetadataInfo metadata) {
    return ServiceInstance.of(APP, "127.0.0.1", port, metadata.revision());
  }

  /** A client through {@code discovery}, naming Whoami's export {@code version}/{@code group} at once. */
  private Whoami consumer(Discovery discovery, String version, String group) {
    TripleClient client = TripleClient.builder().cluster(discovery).build();
    clients.add(client);
    return client.proxy(Whoami.class, CallOptions.DEFAULT.withServiceVersion(version).withServiceGroup(group));
  }

  @Test
  void instancesComingAndGoingChangeTheReportedCount() throws Exception {
    MetadataInfo metadata = serving(new String[] {"", ""});
    publish(metadata);
    consumer(Discovery.using(registry).observer(observer).build(), "", "");
    assertEquals(List.of(0), observer.sizes(PLAIN, 1), "the export is reported as soon as it is named");

    registry.register(instance(1, metadata)).join();
    assertEquals(List.of(0, 1), observer.sizes(PLAIN, 2));
    registry.register(instance(2, metadata)).join();
    assertEquals(List.of(0, 1, 2), observer.sizes(PLAIN, 3));
    // A new weight changes no count: the next report is the removal's.
    registry.update(instance(2, metadata).withWeight(50)).join();
    registry.unregister(instance(1, metadata)).join();
    assertEquals(List.of(0, 1, 2, 1), observer.sizes(PLAIN, 4));
    registry.unregister(instance(2, metadata)).join();
    assertEquals(List.of(0, 1, 2, 1, 0), observer.sizes(PLAIN, 5), "removals one by one empty the directory");

    List<String> lags = observer.lags(6);
    assertEquals(6, lags.size(), "the first list and five changes: " + lags);
    for (String lag : lags) {
      assertTrue(lag.startsWith(APP + "="), lag);
      assertTrue(Long.parseLong(lag.substring(APP.length() + 1)) >= 0, lag);
    }
    assertFalse(observer.threads().contains(Thread.currentThread()),
        "never reported on the caller's thread, though it named the service and the registry answered at once");
  }

  @Test
  void eachExportCalledIsCountedOnItsOwn() throws Exception {
    MetadataInfo v1 = serving(new String[] {"1.0.0", "g1"});
    MetadataInfo v2 = serving(new String[] {"2.0.0", ""});
    MetadataInfo both = serving(new String[] {"1.0.0", "g1"}, new String[] {"2.0.0", ""});
    publish(v1);
    publish(v2);
    publish(both);
    // No window: each registration is applied, and counted, on its own.
    Discovery discovery = Discovery.using(registry).observer(observer).coalesceWindow(Duration.ZERO).build();
    consumer(discovery, "1.0.0", "g1");
    consumer(discovery, "2.0.0", "");
    consumer(discovery, "*", "*");
    String v1Export = export(WHOAMI, "1.0.0", "g1");
    String v2Export = export(WHOAMI, "2.0.0", "");
    String anyExport = export(WHOAMI, "*", "*");
    for (String export : List.of(v1Export, v2Export, anyExport)) {
      assertEquals(List.of(0), observer.sizes(export, 1), export);
    }

    registry.register(instance(1, v1)).join();
    registry.register(instance(2, v2)).join();
    registry.register(instance(3, both)).join();
    assertEquals(List.of(0, 1, 2), observer.sizes(v1Export, 3), "instances 1 and 3");
    assertEquals(List.of(0, 1, 2), observer.sizes(v2Export, 3), "instances 2 and 3");
    assertEquals(List.of(0, 1, 2, 3), observer.sizes(anyExport, 4));

    registry.unregister(instance(3, both)).join();
    assertEquals(List.of(0, 1, 2, 1), observer.sizes(v1Export, 4));
    assertEquals(List.of(0, 1, 2, 1), observer.sizes(v2Export, 4));
    assertEquals(List.of(0, 1, 2, 3, 2), observer.sizes(anyExport, 5));
  }

  /**
   * A rolling upgrade's first instance brings a revision the consumer has no metadata for: its push is
   * in use, and timed, only once that metadata is in. The clock moves only when the test says, so the
   * lag is exactly the time the metadata took.
   */
  @Test
  void aNewRevisionsPushIsTimedUntilItsMetadataArrives() throws Exception {
    MetadataInfo old = serving(new String[] {"", ""});
    MetadataInfo upgraded = serving(new String[] {"", ""}, new String[] {"2.0.0", ""});
    publish(old);
    publish(upgraded);
    HeldMetadataRegistry held = new HeldMetadataRegistry(upgraded.revision());
    consumer(Discovery.using(held).observer(observer).observerClock(clock::nanoTime).build(), "", "");
    assertEquals(List.of(0), observer.sizes(PLAIN, 1));
    registry.register(instance(1, old)).join();
    assertEquals(List.of(0, 1), observer.sizes(PLAIN, 2));
    assertEquals(List.of(lag(APP, 0), lag(APP, 0)), observer.lags(2),
        "the first list and the first instance, in use as they came: the clock did not move");

    registry.register(instance(2, upgraded)).join();
    held.asked.get(10, TimeUnit.SECONDS);
    clock.advance(Duration.ofMillis(250));
    assertEquals(List.of(lag(APP, 0), lag(APP, 0)), observer.lagsNow(), "not in use while its metadata is awaited");
    assertEquals(List.of(0, 1), observer.sizesNow(PLAIN));

    held.answer.complete(upgraded);
    assertEquals(List.of(0, 1, 2), observer.sizes(PLAIN, 3));
    assertEquals(List.of(lag(APP, 0), lag(APP, 0), lag(APP, TimeUnit.MILLISECONDS.toNanos(250))), observer.lags(3),
        "from the push's arrival to its instance in use, the metadata fetch included");
  }

  @Test
  void anObserverThatThrowsDoesNotBreakDiscovery() throws Exception {
    AtomicInteger sizes = new AtomicInteger();
    AtomicInteger pushes = new AtomicInteger();
    AtomicInteger lastSize = new AtomicInteger();
    Signal reported = new Signal();
    DiscoveryObserver failing = new DiscoveryObserver() {
      @Override
      public void instancesChanged(String service, String version, String group, int instances) {
        sizes.incrementAndGet();
        lastSize.set(instances);
        reported.fire();
        throw new IllegalStateException("observer broken on purpose");
      }

      @Override
      public void pushApplied(String application, long lagNanos) {
        pushes.incrementAndGet();
        throw new IllegalStateException("observer broken on purpose");
      }
    };
    provider("first");
    Whoami whoami = consumer(Discovery.using(registry).observer(failing)
        .loadBalancing(LoadBalancing.ROUND_ROBIN).build(), "", "");
    assertEquals("first", whoami.who("test"));

    provider("second");
    reported.await(() -> lastSize.get() == 2, "the second provider is found, though the observer threw");
    assertEquals(Map.of("first", 5, "second", 5), tally(whoami, 10));
    assertTrue(sizes.get() >= 2, "each count was reported, and threw: " + sizes);
    assertTrue(pushes.get() >= 2, "each push was reported, and threw: " + pushes);
  }

  private void provider(String name) {
    servers.add(TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Whoami.class, Whoami.named(name))
        .registration(Registration.to(registry).application(APP).build())
        .build().start());
  }

  private static Map<String, Integer> tally(Whoami whoami, int calls) {
    Map<String, Integer> counts = new TreeMap<>();
    for (int i = 0; i < calls; i++) {
      counts.merge(whoami.who("test"), 1, Integer::sum);
    }
    return counts;
  }

  /** The in-process registry, but the metadata of one revision is answered when the test completes {@link #answer}. */
  private final class HeldMetadataRegistry implements Registry {

    final String heldRevision;
    /** Completed when the held revision's metadata is first asked for. */
    final CompletableFuture<Void> asked = new CompletableFuture<>();
    final CompletableFuture<MetadataInfo> answer = new CompletableFuture<>();

    HeldMetadataRegistry(String heldRevision) {
      this.heldRevision = heldRevision;
    }

    @Override
    public CompletableFuture<MetadataInfo> metadata(String application, String revision) {
      if (!revision.equals(heldRevision)) {
        return registry.metadata(application, revision);
      }
      asked.complete(null);
      return answer;
    }

    @Override
    public CompletableFuture<Void> register(ServiceInstance instance) {
      return registry.register(instance);
    }

    @Override
    public CompletableFuture<Void> unregister(ServiceInstance instance) {
      return registry.unregister(instance);
    }

    @Override
    public CompletableFuture<Void> publishMetadata(MetadataInfo metadata) {
      return registry.publishMetadata(metadata);
    }

    @Override
    public CompletableFuture<Void> map(String serviceName, String application) {
      return registry.map(serviceName, application);
    }

    @Override
    public CompletableFuture<Set<String>> applications(String serviceName) {
      return registry.applications(serviceName);
    }

    @Override
    public Subscription subscribe(String application, InstanceListener listener) {
      return registry.subscribe(application, listener);
    }

    @Override
    public void close() {
      // The in-process registry is the test's to close.
    }
  }
}
