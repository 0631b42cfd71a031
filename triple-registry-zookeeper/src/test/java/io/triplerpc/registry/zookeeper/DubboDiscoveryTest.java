package io.triplerpc.registry.zookeeper;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.CallOptions;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.registry.Discovery;
import io.triplerpc.registry.LoadBalancing;
import io.triplerpc.registry.Registration;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.KillSession;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Triple providers and consumers through Dubbo's layout on real ZooKeeper ({@code zookeeper://.../dubbo}):
 * discovery, balancing, versions and groups, leaving instances, and one application whose instances
 * are a Triple server and a stand-in for a Dubbo provider with local metadata.
 */
class DubboDiscoveryTest {

  private TestingServer zooKeeper;
  private final List<ZooKeeperRegistry> registries = new ArrayList<>();
  private final List<TripleServer> servers = new ArrayList<>();
  private final List<AutoCloseable> closeables = new ArrayList<>();
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
    for (AutoCloseable closeable : closeables) {
      closeable.close();
    }
    registries.forEach(ZooKeeperRegistry::close);
    zooKeeper.close();
  }

  private ZooKeeperRegistry registry() {
    ZooKeeperRegistry registry = ZooKeeperRegistry.builder(zooKeeper.getConnectString()).rootPath("/dubbo")
        .sessionTimeout(Duration.ofSeconds(3)).build();
    registries.add(registry);
    return registry;
  }

  private TripleServer provider(String name, ZooKeeperRegistry registry, String application, String version,
      String group) {
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Hello.class, caller -> name, version, group)
        .registration(Registration.to(registry).application(application).build())
        .build().start();
    servers.add(server);
    return server;
  }

  private TripleServer provider(String name, ZooKeeperRegistry registry) {
    return provider(name, registry, "hello-app", "", "");
  }

  private Hello consumer(CallOptions options) {
    if (client == null) {
      // What zookeeper://host:port/dubbo builds, told to pushes, and round robin so that a few calls
      // reach every instance.
      client = TripleClient.builder().cluster(Discovery.connecting(
          () -> ZooKeeperRegistry.builder(zooKeeper.getConnectString()).rootPath("/dubbo").build())
          .observer(pushes).loadBalancing(LoadBalancing.ROUND_ROBIN).build()).build();
    }
    return client.proxy(Hello.class, options.withTimeout(Duration.ofSeconds(5)));
  }

  private static Set<String> servedBy(Hello hello, int calls) {
    Set<String> names = new TreeSet<>();
    for (int i = 0; i < calls; i++) {
      names.add(hello.hello("test"));
    }
    return names;
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

  @Test
  void aConsumerFindsProvidersThroughDubbosLayoutAndSeesThemLeave() throws Exception {
    ZooKeeperRegistry first = registry();
    provider("first", first);
    Hello hello = consumer(CallOptions.DEFAULT);
    assertEquals(Set.of("first"), servedBy(hello, 5));

    TripleServer second = provider("second", registry());
    pushes.await(() -> servedBy(hello, 20).size() == 2, "calls reach both providers");

    KillSession.kill(first.client().getZookeeperClient().getZooKeeper());
    for (int i = 0; i < 20; i++) {
      hello.hello("during expiry");
    }
    pushes.await(() -> servedBy(hello, 20).contains("first"), "the first provider is called again");

    second.shutdown();
    second.awaitTermination(Duration.ofSeconds(5));
    pushes.await(() -> servedByOrUnavailable(hello, 20).equals(Set.of("first")), "only the first is called");
  }

  @Test
  void aTargetNamesTheLayoutOfAnotherRoot() throws Exception {
    ZooKeeperRegistry registry = ZooKeeperRegistry.builder(zooKeeper.getConnectString()).rootPath("/estate")
        .dubboLayout().build();
    registries.add(registry);
    provider("estate", registry);
    client = TripleClient.builder().address("zookeeper://" + zooKeeper.getConnectString() + "/estate?layout=dubbo")
        .build();
    assertEquals(Set.of("estate"), servedBy(client.proxy(Hello.class), 3));

    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> TripleClient.builder().address("zookeeper://127.0.0.1:2181/dubbo?layout=zk"));
    assertTrue(e.getMessage().startsWith("layout is dubbo or triple, not 'zk'"), e.getMessage());
  }

  @Test
  void versionsAndGroupsSelectTheirInstances() throws Exception {
    provider("v1-g1", registry(), "hello-a", "1.0.0", "g1");
    provider("v2-g1", registry(), "hello-b", "2.0.0", "g1");
    provider("plain", registry(), "hello-c", "", "");

    Hello v1 = consumer(CallOptions.DEFAULT.withServiceVersion("1.0.0").withServiceGroup("g1"));
    Hello v2 = consumer(CallOptions.DEFAULT.withServiceVersion("2.0.0").withServiceGroup("g1"));
    Hello plain = consumer(CallOptions.DEFAULT);
    Hello anyInG1 = consumer(CallOptions.DEFAULT.withServiceVersion("*").withServiceGroup("g1"));

    // Each provider's application reaches the consumer on its own push: a loaded machine has made a call
    // before the last one came (UNAVAILABLE, nothing registered yet), so each is awaited, then held to.
    pushes.await(() -> servedByOrUnavailable(v1, 10).equals(Set.of("v1-g1")), "1.0.0 of g1 is found");
    pushes.await(() -> servedByOrUnavailable(v2, 10).equals(Set.of("v2-g1")), "2.0.0 of g1 is found");
    pushes.await(() -> servedByOrUnavailable(plain, 10).equals(Set.of("plain")), "the plain export is found");
    assertEquals(Set.of("v1-g1"), servedBy(v1, 10));
    assertEquals(Set.of("v2-g1"), servedBy(v2, 10));
    assertEquals(Set.of("plain"), servedBy(plain, 10));
    pushes.await(() -> servedBy(anyInG1, 20).size() == 2, "'*' reaches both versions of g1");
    assertEquals(Set.of("v1-g1", "v2-g1"), servedBy(anyInG1, 20));
  }

  @Test
  void oneApplicationOfATripleAndADubboInstanceIsBalancedOverBoth() throws Exception {
    // The Dubbo instance: Hello and MetadataServiceV2 on one port, metadata local, as Dubbo 3.3 registers.
    FakeDubboProvider dubboInstance = new FakeDubboProvider("mixed-app",
        FakeDubboProvider.helloAnswer("mixed-app", "d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1d1", 0), caller -> "dubbo");
    closeables.add(dubboInstance);
    CuratorFramework dubbo = CuratorFrameworkFactory.newClient(zooKeeper.getConnectString(), new RetryOneTime(100));
    closeables.add(dubbo);
    dubbo.start();
    dubbo.blockUntilConnected(30, TimeUnit.SECONDS);
    dubboInstance.register(dubbo);
    DubboCapture.write(dubbo, "/dubbo/mapping/triple.test.zk.Hello", false,
        "mixed-app".getBytes(StandardCharsets.UTF_8));
    provider("triple", registry(), "mixed-app", "", "");

    Hello hello = consumer(CallOptions.DEFAULT);
    pushes.await(() -> servedBy(hello, 20).size() == 2, "calls reach the Dubbo and the Triple instance");
    assertEquals(1, dubboInstance.metadataCalls.get(), "the Dubbo revision's metadata is fetched once");
    assertEquals("mixed-app", new String(dubbo.getData().forPath("/dubbo/mapping/triple.test.zk.Hello"),
        StandardCharsets.UTF_8), "already mapped: left as it was");

    // The Dubbo process dies: its session ends and consumers drop it.
    dubbo.close();
    pushes.await(() -> servedByOrUnavailable(hello, 20).equals(Set.of("triple")), "only the Triple instance");
  }
}
