package io.triplerpc.registry.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.triplerpc.registry.InstanceChange;
import io.triplerpc.registry.ServiceInstance;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.KillSession;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Sessions that end: expired ones (curator-test's {@link KillSession}, which expires the session in
 * the client while the server keeps it until its timeout) and closed ones. The server ticks every
 * 100 ms so a session can time out in a second.
 */
class ZooKeeperSessionTest {

  private static final Duration SHORT_SESSION = Duration.ofMillis(1_500);

  private TestingServer server;
  private final List<ZooKeeperRegistry> registries = new ArrayList<>();

  @BeforeEach
  void startServer() throws Exception {
    @SuppressWarnings("deprecation") // The builder that replaces it is newer than curator-test 5.9.0.
    InstanceSpec spec = new InstanceSpec(null, -1, -1, -1, true, -1, 100, -1);
    server = new TestingServer(spec, true);
  }

  @AfterEach
  void stop() throws Exception {
    registries.forEach(ZooKeeperRegistry::close);
    server.close();
  }

  private ZooKeeperRegistry newRegistry() {
    ZooKeeperRegistry registry =
        ZooKeeperRegistry.builder(server.getConnectString()).sessionTimeout(SHORT_SESSION).build();
    registries.add(registry);
    return registry;
  }

  private static ZooKeeper zooKeeper(ZooKeeperRegistry registry) throws Exception {
    return registry.client().getZookeeperClient().getZooKeeper();
  }

  @Test
  void anExpiredProviderRegistersItsInstanceAgainInItsNewSession() throws Exception {
    ZooKeeperRegistry provider = newRegistry();
    ZooKeeperRegistry consumer = newRegistry();
    ServiceInstance instance = ServiceInstance.of("greeter", "10.0.0.1", 50051, "rev1");
    ServiceInstance bystander = ServiceInstance.of("greeter", "10.0.0.2", 50051, "rev1");
    provider.register(instance).get(30, TimeUnit.SECONDS);
    consumer.register(bystander).get(30, TimeUnit.SECONDS);
    RecordingListener listener = new RecordingListener();
    consumer.subscribe("greeter", listener);
    listener.await("both instances", instances -> instances.size() == 2);
    long oldSession = zooKeeper(provider).getSessionId();

    KillSession.kill(zooKeeper(provider));

    // The server drops the old session's znode when that session times out; the provider, in its
    // new session, writes it again.
    listener.await("the instance removed with the old session, then back",
        instances -> instances.containsKey(instance.address())
            && listener.changes().contains(InstanceChange.removed(instance)));
    Stat stat = provider.client().checkExists().forPath("/triple/instances/greeter/" + instance.address());
    long newSession = zooKeeper(provider).getSessionId();
    assertNotEquals(oldSession, newSession);
    assertEquals(newSession, stat.getEphemeralOwner(), "the instance znode belongs to the new session");
    assertEquals(Set.of(instance.address(), bystander.address()), listener.instances().keySet());
    assertEquals(List.of(), listener.violations());
  }

  @Test
  void aProviderWhoseSessionEndsWithoutUnregisteringDisappears() throws Exception {
    ZooKeeperRegistry provider = newRegistry();
    ZooKeeperRegistry consumer = newRegistry();
    ServiceInstance instance = ServiceInstance.of("greeter", "10.0.0.1", 50051, "rev1");
    provider.register(instance).get(30, TimeUnit.SECONDS);
    RecordingListener listener = new RecordingListener();
    consumer.subscribe("greeter", listener);
    listener.await("the instance", instances -> instances.containsKey(instance.address()));

    provider.client().close(); // The process "dies": its session ends, nobody unregisters.

    listener.await("the instance gone", instances -> instances.isEmpty());
    assertEquals(InstanceChange.removed(instance), listener.changes().get(listener.changes().size() - 1));
  }

  @Test
  void aRestartedServerIsReportedAndResyncedWithTheInstancesKept() throws Exception {
    ZooKeeperRegistry provider = newRegistry();
    ZooKeeperRegistry consumer = newRegistry();
    ServiceInstance instance = ServiceInstance.of("greeter", "10.0.0.1", 50051, "rev1");
    provider.register(instance).get(30, TimeUnit.SECONDS);
    RecordingListener listener = new RecordingListener();
    consumer.subscribe("greeter", listener);
    listener.await("the instance", instances -> instances.containsKey(instance.address()));

    server.restart();

    listener.awaitDisconnects(1);
    listener.awaitResyncs(2);
    listener.await("the instance after the resync", instances -> instances.containsKey(instance.address()));
    assertEquals(List.of(), listener.violations());
  }

  @Test
  void anExpiredConsumerIsToldAndResyncsWhatChangedMeanwhile() throws Exception {
    ZooKeeperRegistry provider = newRegistry();
    ZooKeeperRegistry consumer = newRegistry();
    ServiceInstance first = ServiceInstance.of("greeter", "10.0.0.1", 50051, "rev1");
    provider.register(first).get(30, TimeUnit.SECONDS);
    RecordingListener listener = new RecordingListener();
    consumer.subscribe("greeter", listener);
    listener.await("the first instance", instances -> instances.containsKey(first.address()));

    KillSession.kill(zooKeeper(consumer));
    listener.awaitDisconnects(1);
    ServiceInstance second = ServiceInstance.of("greeter", "10.0.0.2", 50051, "rev1");
    provider.register(second).get(30, TimeUnit.SECONDS);

    listener.awaitResyncs(2);
    listener.await("both instances after the resync", instances -> instances.size() == 2);
    assertEquals(List.of(), listener.violations());
  }
}
