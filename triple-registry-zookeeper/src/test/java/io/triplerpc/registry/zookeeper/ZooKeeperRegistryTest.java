package io.triplerpc.registry.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.registry.InstanceChange;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.Subscription;
import io.triplerpc.spi.ServerInfo;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The registry against one real in-process ZooKeeper server; each test under its own root. */
class ZooKeeperRegistryTest {

  private static final AtomicInteger roots = new AtomicInteger();
  private static TestingServer server;

  private final String root = "/triple-test-" + roots.incrementAndGet();
  private final List<ZooKeeperRegistry> registries = new ArrayList<>();

  @BeforeAll
  static void startServer() throws Exception {
    server = new TestingServer(true);
  }

  @AfterAll
  static void stopServer() throws Exception {
    server.close();
  }

  @AfterEach
  void closeRegistries() {
    registries.forEach(ZooKeeperRegistry::close);
  }

  private ZooKeeperRegistry newRegistry() {
    ZooKeeperRegistry registry = ZooKeeperRegistry.builder(server.getConnectString()).rootPath(root).build();
    registries.add(registry);
    return registry;
  }

  private static <T> T get(CompletableFuture<T> future) throws Exception {
    return future.get(30, TimeUnit.SECONDS);
  }

  @Test
  void registrationsReachASubscriberAsResyncThenChanges() throws Exception {
    ZooKeeperRegistry registry = newRegistry();
    RecordingListener listener = new RecordingListener();
    registry.subscribe("greeter", listener);
    listener.awaitResyncs(1);
    assertEquals(Map.of(), listener.instances());

    ServiceInstance instance = ServiceInstance.of("greeter", "10.0.0.1", 50051, "rev1");
    get(registry.register(instance));
    listener.await("ADDED", instances -> instance.equals(instances.get("10.0.0.1:50051")));

    ServiceInstance heavier = instance.withWeight(7).withExtraPorts(Map.of("dubbo", 20880));
    get(registry.register(heavier));
    listener.await("UPDATED", instances -> heavier.equals(instances.get("10.0.0.1:50051")));

    get(registry.unregister(heavier));
    listener.await("REMOVED", Map::isEmpty);

    List<InstanceChange.Kind> kinds = listener.changes().stream().map(InstanceChange::kind).toList();
    assertEquals(List.of(InstanceChange.Kind.ADDED, InstanceChange.Kind.UPDATED, InstanceChange.Kind.REMOVED), kinds);
    assertEquals(heavier, listener.changes().get(2).instance(), "REMOVED carries the instance as it was");
    assertEquals(1, listener.resyncs());
    assertEquals(List.of(), listener.violations());
  }

  @Test
  void aResyncReadsInstancesInBatchesAndTheyShareTheirRevision() throws Exception {
    ZooKeeperRegistry registry = newRegistry();
    List<CompletableFuture<Void>> writes = new ArrayList<>();
    for (int i = 0; i < 250; i++) { // Three read batches: 100, 100 and 50.
      writes.add(registry.register(ServiceInstance.of("many", "10.0.1." + i, 50051, "rev" + i % 2)));
    }
    get(CompletableFuture.allOf(writes.toArray(new CompletableFuture<?>[0])));

    RecordingListener listener = new RecordingListener();
    registry.subscribe("many", listener);
    listener.awaitResyncs(1);
    Map<String, ServiceInstance> instances = listener.instances();
    assertEquals(250, instances.size());
    assertEquals(ServiceInstance.of("many", "10.0.1.249", 50051, "rev1"), instances.get("10.0.1.249:50051"));
    // One revision string per revision, not one per instance.
    assertEquals(2, instances.values().stream().map(ServiceInstance::revision)
        .map(System::identityHashCode).distinct().count());
    assertEquals(List.of(), listener.violations());
  }

  @Test
  void aLateSubscriberGetsTheRegisteredInstancesInItsResync() throws Exception {
    ZooKeeperRegistry registry = newRegistry();
    ServiceInstance one = ServiceInstance.of("greeter", "10.0.0.1", 50051, "rev1");
    ServiceInstance two = ServiceInstance.of("greeter", "::1", 50052, "rev1").withWeight(3);
    get(registry.register(one));
    get(registry.register(two));

    RecordingListener listener = new RecordingListener();
    registry.subscribe("greeter", listener);
    listener.awaitResyncs(1);
    assertEquals(Map.of(one.address(), one, two.address(), two), listener.instances());
    assertEquals(List.of(), listener.changes());
  }

  @Test
  void aClosedSubscriptionHearsNoMore() throws Exception {
    ZooKeeperRegistry registry = newRegistry();
    RecordingListener closedListener = new RecordingListener();
    Subscription subscription = registry.subscribe("greeter", closedListener);
    closedListener.awaitResyncs(1);
    subscription.close();
    subscription.close();

    RecordingListener openListener = new RecordingListener();
    registry.subscribe("greeter", openListener);
    get(registry.register(ServiceInstance.of("greeter", "10.0.0.1", 50051, "rev1")));
    openListener.await("ADDED", instances -> instances.size() == 1);
    assertEquals(List.of(), closedListener.changes());
  }

  @Test
  void metadataRoundTripsAndIsWrittenOnce() throws Exception {
    ZooKeeperRegistry registry = newRegistry();
    MetadataInfo metadata = MetadataInfo.of("greeter", List.of(
        new ServerInfo.Service("helloworld.Greeter", List.of("SayHello", "SayHelloStream"), "proto", "", ""),
        new ServerInfo.Service("demo.Echo", List.of("echo"), "hessian2", "1.0.0", "blue")));
    get(registry.publishMetadata(metadata));
    get(registry.publishMetadata(metadata));

    ZooKeeperRegistry reader = newRegistry();
    assertEquals(metadata, get(reader.metadata("greeter", metadata.revision())));
    assertTrue(get(reader.metadata("greeter", metadata.revision())).serves("demo.Echo"));

    ExecutionException unknown =
        assertThrows(ExecutionException.class, () -> get(reader.metadata("greeter", "000000000000000000000000")));
    assertInstanceOf(IllegalStateException.class, unknown.getCause());
  }

  @Test
  void metadataNotMatchingItsRevisionFails() throws Exception {
    ZooKeeperRegistry registry = newRegistry();
    MetadataInfo metadata = MetadataInfo.of("greeter",
        List.of(new ServerInfo.Service("helloworld.Greeter", List.of("SayHello"), "proto", "", "")));
    CuratorFramework raw = registry.client();
    raw.create().creatingParentsIfNeeded()
        .forPath(root + "/metadata/greeter/" + metadata.revision(),
            "{\"services\":[]}".getBytes(StandardCharsets.UTF_8));

    ExecutionException e =
        assertThrows(ExecutionException.class, () -> get(registry.metadata("greeter", metadata.revision())));
    assertInstanceOf(IllegalStateException.class, e.getCause());
  }

  @Test
  void mappingListsEveryApplicationServingAService() throws Exception {
    ZooKeeperRegistry one = newRegistry();
    ZooKeeperRegistry two = newRegistry();
    CompletableFuture.allOf(
        one.map("helloworld.Greeter", "greeter-a"),
        two.map("helloworld.Greeter", "greeter-b"),
        one.map("helloworld.Greeter", "greeter-a"),
        two.map("demo.Echo", "greeter-b")).get(30, TimeUnit.SECONDS);

    assertEquals(Set.of("greeter-a", "greeter-b"), get(one.applications("helloworld.Greeter")));
    assertEquals(Set.of("greeter-b"), get(one.applications("demo.Echo")));
    assertEquals(Set.of(), get(one.applications("unknown.Service")));
  }

  @Test
  void aProviderThatClosesDisappearsFromAnotherSessionsView() throws Exception {
    ZooKeeperRegistry provider = newRegistry();
    ZooKeeperRegistry otherProvider = newRegistry();
    ZooKeeperRegistry consumer = newRegistry();
    ServiceInstance instance = ServiceInstance.of("greeter", "10.0.0.1", 50051, "rev1");
    ServiceInstance other = ServiceInstance.of("greeter", "10.0.0.2", 50051, "rev1");
    get(provider.register(instance));
    get(otherProvider.register(other));

    RecordingListener listener = new RecordingListener();
    consumer.subscribe("greeter", listener);
    listener.await("both instances", instances -> instances.size() == 2);

    provider.close();
    listener.await("the closed provider's instance removed",
        instances -> instances.keySet().equals(Set.of(other.address())));
    assertEquals(InstanceChange.removed(instance), listener.changes().get(listener.changes().size() - 1));
    assertEquals(List.of(), listener.violations());
  }

  @Test
  void malformedInstanceZnodesAreSkippedAndTheRestStillArrives() throws Exception {
    ZooKeeperRegistry provider = newRegistry();
    ServiceInstance good = ServiceInstance.of("greeter", "10.0.0.1", 50051, "rev1");
    get(provider.register(good));
    CuratorFramework raw = provider.client();
    String parent = root + "/instances/greeter/";
    byte[] valid = "{\"weight\":5,\"revision\":\"rev1\"}".getBytes(StandardCharsets.UTF_8);
    raw.create().withMode(CreateMode.EPHEMERAL).forPath(parent + "10.0.0.2:50051", bytes("not json"));
    raw.create().withMode(CreateMode.EPHEMERAL).forPath(parent + "not-an-address", valid);
    raw.create().withMode(CreateMode.EPHEMERAL).forPath(parent + "10.0.0.3:99999", valid);

    ZooKeeperRegistry consumer = newRegistry();
    RecordingListener listener = new RecordingListener();
    consumer.subscribe("greeter", listener);
    listener.awaitResyncs(1);
    assertEquals(Set.of(good.address()), listener.instances().keySet());

    // After the resync: more garbage, then valid changes, which still arrive.
    raw.create().withMode(CreateMode.EPHEMERAL).forPath(parent + "10.0.0.4:50051", bytes("{\"weight\":-1}"));
    raw.create().creatingParentsIfNeeded().forPath(parent + "10.0.0.5:50051/child", valid);
    raw.setData().forPath(parent + "10.0.0.2:50051", bytes("{\"revision\":\"rev1\",\"weight\":\"heavy\"}"));
    ServiceInstance later = ServiceInstance.of("greeter", "10.0.0.6", 50051, "rev1");
    get(provider.register(later));
    listener.await("the later instance", instances -> instances.containsKey(later.address()));

    // A malformed znode that becomes valid is an instance from then on.
    raw.setData().forPath(parent + "10.0.0.2:50051", valid);
    listener.await("the repaired instance", instances -> instances.containsKey("10.0.0.2:50051"));
    assertEquals(5, listener.instances().get("10.0.0.2:50051").weight());
    assertEquals(Set.of(good.address(), later.address(), "10.0.0.2:50051"), listener.instances().keySet());
    assertEquals(1, listener.resyncs());
    assertEquals(List.of(), listener.violations());
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  @Test
  void aThousandInstancesArriveAsChangesWithoutRereading() throws Exception {
    ZooKeeperRegistry provider = newRegistry();
    ZooKeeperRegistry consumer = newRegistry();
    RecordingListener listener = new RecordingListener();
    consumer.subscribe("crowd", listener);
    listener.awaitResyncs(1);

    Map<String, ServiceInstance> registered = new HashMap<>();
    List<CompletableFuture<Void>> writes = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      ServiceInstance instance =
          ServiceInstance.of("crowd", "10.1." + (i / 250) + '.' + (i % 250), 50051, "rev1").withWeight(i % 7);
      registered.put(instance.address(), instance);
      writes.add(provider.register(instance));
    }
    CompletableFuture.allOf(writes.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);
    listener.await("all 1000 instances", registered::equals);

    // Half of them change weight, a quarter go away.
    writes.clear();
    int i = 0;
    for (ServiceInstance instance : List.copyOf(registered.values())) {
      if (i % 4 == 0) {
        writes.add(provider.unregister(instance));
        registered.remove(instance.address());
      } else if (i % 2 == 1) {
        ServiceInstance changed = instance.withWeight(instance.weight() + 100);
        writes.add(provider.register(changed));
        registered.put(changed.address(), changed);
      }
      i++;
    }
    CompletableFuture.allOf(writes.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);
    listener.await("the changed set", registered::equals);

    assertEquals(1, listener.resyncs(), "changes arrive as deltas, never as a re-read of the whole list");
    assertEquals(1_000 + 250 + 500, listener.changes().size());
    assertEquals(List.of(), listener.violations());
  }

  @Test
  void backToBackWritesToOneInstanceEndInTheLastOne() throws Exception {
    ZooKeeperRegistry registry = newRegistry();
    RecordingListener listener = new RecordingListener();
    registry.subscribe("greeter", listener);
    ServiceInstance instance = ServiceInstance.of("greeter", "10.0.0.1", 50051, "rev1");
    String path = root + "/instances/greeter/" + instance.address();

    // Nothing waits between writes: each must still land in the order it was made.
    List<CompletableFuture<Void>> writes = new ArrayList<>();
    for (int weight = 0; weight < 50; weight++) {
      writes.add(registry.register(instance.withWeight(weight)));
      if (weight % 10 == 5) {
        writes.add(registry.unregister(instance));
      }
    }
    CompletableFuture.allOf(writes.toArray(new CompletableFuture<?>[0])).get(30, TimeUnit.SECONDS);
    assertEquals(49, ZnodeFormat.decodeInstance("greeter", instance.address(),
        registry.client().getData().forPath(path)).weight());
    listener.await("the last weight", instances -> instance.withWeight(49).equals(instances.get(instance.address())));

    CompletableFuture.allOf(registry.register(instance), registry.unregister(instance), registry.register(instance),
        registry.unregister(instance)).get(30, TimeUnit.SECONDS);
    assertEquals(null, registry.client().checkExists().forPath(path));
    listener.await("the instance gone", Map::isEmpty);
    assertEquals(List.of(), listener.violations());
  }

  @Test
  void namesThatCannotBeZnodesAreRejected() {
    ZooKeeperRegistry registry = newRegistry();
    assertThrows(IllegalArgumentException.class, () -> registry.subscribe("a/b", new RecordingListener()));
    assertThrows(IllegalArgumentException.class, () -> registry.map("a/b", "app"));
    assertThrows(IllegalArgumentException.class,
        () -> ZooKeeperRegistry.builder(server.getConnectString()).rootPath("triple/"));
  }
}
