package io.triplerpc.registry.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.registry.Discovery;
import io.triplerpc.registry.LoadBalancing;
import io.triplerpc.registry.Registration;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.KillSession;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Providers register through real ZooKeeper and a consumer built with a {@code zookeeper://} target
 * finds them, spreads calls over them, and keeps calling while a provider's session expires.
 */
class ZooKeeperDiscoveryTest {

  private TestingServer zooKeeper;
  private final List<ZooKeeperRegistry> registries = new ArrayList<>();
  private final List<TripleServer> servers = new ArrayList<>();
  private TripleClient client;
  /** Fired on each push the consumer applies: the tests check what calls see again after each. */
  private final DiscoveryPushes pushes = new DiscoveryPushes();

  @BeforeEach
  void start() throws Exception {
    zooKeeper = new TestingServer(true);
  }

  @AfterEach
  void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    for (TripleServer server : servers) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(5));
    }
    registries.forEach(ZooKeeperRegistry::close);
    zooKeeper.close();
  }

  private TripleServer provider(String name, ZooKeeperRegistry registry) {
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Hello.class, caller -> name)
        .registration(Registration.to(registry).application("hello-app").build())
        .build().start();
    servers.add(server);
    return server;
  }

  private ZooKeeperRegistry registry() {
    ZooKeeperRegistry registry =
        ZooKeeperRegistry.builder(zooKeeper.getConnectString()).sessionTimeout(Duration.ofSeconds(3)).build();
    registries.add(registry);
    return registry;
  }

  /** As {@link #servedBy}, with "UNAVAILABLE" among the names when a call could not reach its server. */
  private static Set<String> servedByOrUnavailable(Hello hello, int calls) {
    try {
      return servedBy(hello, calls);
    } catch (StatusException e) {
      if (e.status().code() != Status.Code.UNAVAILABLE) {
        throw e;
      }
      return Set.of("UNAVAILABLE");
    }
  }

  private static Set<String> servedBy(Hello hello, int calls) {
    Set<String> names = new TreeSet<>();
    for (int i = 0; i < calls; i++) {
      names.add(hello.hello("test"));
    }
    return names;
  }

  @Test
  void consumerFindsProvidersThroughZooKeeperAndSurvivesASessionExpiry() throws Exception {
    ZooKeeperRegistry first = registry();
    provider("first", first);
    // What zookeeper://host:port builds, told to pushes, and round robin so that a few calls reach every instance.
    client = TripleClient.builder().cluster(Discovery.connecting(() -> ZooKeeperRegistry.builder(zooKeeper.getConnectString()).build())
        .observer(pushes).loadBalancing(LoadBalancing.ROUND_ROBIN).build()).build();
    Hello hello = client.proxy(Hello.class);
    assertEquals(Set.of("first"), servedBy(hello, 5));

    TripleServer second = provider("second", registry());
    pushes.await(() -> servedBy(hello, 20).size() == 2, "calls reach both providers");

    // The first provider's session expires: its instance znode goes, then comes back in its new
    // session. Calls go on meanwhile (the second provider, and the first once it is back).
    KillSession.kill(first.client().getZookeeperClient().getZooKeeper());
    for (int i = 0; i < 50; i++) {
      hello.hello("during expiry");
    }
    pushes.await(() -> servedBy(hello, 20).contains("first"), "the first provider is called again");

    second.shutdown();
    second.awaitTermination(Duration.ofSeconds(5));
    // The withdrawal reaches the consumer through a ZooKeeper watch, after the port may have closed:
    // until then a call can still pick the second and fail to connect (Hello is not idempotent).
    pushes.await(() -> servedByOrUnavailable(hello, 20).equals(Set.of("first")), "only the first is called");
  }

  @Test
  void callsGoOnWhenTheConsumersEnsembleMemberIsLost() throws Exception {
    try (TestingCluster ensemble = new TestingCluster(3)) {
      ensemble.start();
      // A short session, so the clients notice a lost member in seconds (a third of it), not 20 s.
      Duration session = Duration.ofSeconds(4);
      ZooKeeperRegistry providerRegistry =
          ZooKeeperRegistry.builder(ensemble.getConnectString()).sessionTimeout(session).build();
      registries.add(providerRegistry);
      provider("first", providerRegistry);
      ZooKeeperRegistry consumerRegistry =
          ZooKeeperRegistry.builder(ensemble.getConnectString()).sessionTimeout(session).build();
      registries.add(consumerRegistry);
      client = TripleClient.builder().cluster(Discovery.using(consumerRegistry).observer(pushes)
          .loadBalancing(LoadBalancing.ROUND_ROBIN).build()).build();
      Hello hello = client.proxy(Hello.class);
      assertEquals(Set.of("first"), servedBy(hello, 5));

      InstanceSpec member =
          ensemble.findConnectionInstance(consumerRegistry.client().getZookeeperClient().getZooKeeper());
      assertTrue(ensemble.killServer(member), "killed " + member);
      // The consumer's member is gone: it keeps its instances and calls them while Curator moves on.
      assertEquals(Set.of("first"), servedBy(hello, 20));

      provider("second", providerRegistry);
      pushes.await(() -> servedBy(hello, 20).size() == 2, "the consumer sees a provider registered after the loss");
    }
  }
}
