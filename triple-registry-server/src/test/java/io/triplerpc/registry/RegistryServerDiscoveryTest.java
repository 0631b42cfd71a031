package io.triplerpc.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.registry.remote.RemoteRegistry;
import io.triplerpc.registry.server.RegistryServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The whole path over real sockets: providers register with the standalone registry server, a
 * consumer built as a {@code registry://} target builds it (a discovery connecting a
 * {@link RemoteRegistry} of each client's own) finds them, keeps calling while the registry is down,
 * and resyncs when it comes back. The consumer's discovery observer says when its instances change.
 */
class RegistryServerDiscoveryTest {

  private static final String WHOAMI = "triple.test.Whoami";

  private final List<RegistryServer> registries = new ArrayList<>();
  private final List<RemoteRegistry> connections = new ArrayList<>();
  private final List<TripleServer> providers = new ArrayList<>();
  private final RecordingDiscoveryObserver seen = new RecordingDiscoveryObserver();
  private TripleClient client;

  @AfterEach
  void stop() throws InterruptedException {
    if (client != null) {
      client.close();
    }
    for (TripleServer provider : providers) {
      provider.shutdownNow();
      provider.awaitTermination(Duration.ofSeconds(5));
    }
    connections.forEach(RemoteRegistry::close);
    for (RegistryServer registry : registries) {
      registry.shutdownNow();
      registry.awaitTermination(Duration.ofSeconds(5));
    }
  }

  private RegistryServer registryServer(int port, Duration startupGrace) {
    RegistryServer server = RegistryServer.builder().host("127.0.0.1").port(port)
        .leaseTtl(Duration.ofSeconds(2)).startupGrace(startupGrace).build().start();
    registries.add(server);
    return server;
  }

  private TripleServer provider(String name, int registryPort) {
    RemoteRegistry registry = RemoteRegistry.builder("127.0.0.1", registryPort).leaseTtl(Duration.ofSeconds(2)).build();
    connections.add(registry);
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Whoami.class, Whoami.named(name))
        .registration(Registration.to(registry).application("whoami-app").build())
        .build().start();
    providers.add(server);
    return server;
  }

  /**
   * What {@code registry://127.0.0.1:port} builds, with {@link #seen} told each consumer's instances, and
   * round robin so that a few calls reach every instance.
   */
  private TripleClient.Builder consumer(int registryPort) {
    return TripleClient.builder().cluster(Discovery.connecting(() -> RemoteRegistry.builder("127.0.0.1", registryPort).build())
        .observer(seen).loadBalancing(LoadBalancing.ROUND_ROBIN).build());
  }

  /** As {@link #servedBy}, with "UNAVAILABLE" among the names when a call could not reach its server. */
  private static Set<String> servedByOrUnavailable(Whoami whoami, int calls) {
    try {
      return servedBy(whoami, calls);
    } catch (StatusException e) {
      if (e.status().code() != Status.Code.UNAVAILABLE) {
        throw e;
      }
      return Set.of("UNAVAILABLE");
    }
  }

  private static Set<String> servedBy(Whoami whoami, int calls) {
    Set<String> names = new TreeSet<>();
    for (int i = 0; i < calls; i++) {
      names.add(whoami.who("test"));
    }
    return names;
  }

  @Test
  void consumerKeepsCallingWhileTheRegistryIsDownAndResyncsWhenItIsBack() throws Exception {
    RegistryServer registry = registryServer(0, Duration.ZERO);
    int port = registry.port();
    provider("first", port);
    client = consumer(port).build();
    Whoami whoami = client.proxy(Whoami.class);
    assertEquals(Set.of("first"), servedBy(whoami, 5));

    TripleServer second = provider("second", port);
    seen.awaitInstances(WHOAMI, 2);

    registry.shutdownNow();
    registry.awaitTermination(Duration.ofSeconds(5));
    // The registry is gone: the consumer keeps its instances and calls them.
    assertEquals(Set.of("first", "second"), servedBy(whoami, 40));

    // Back, holding subscriptions for a while so that providers re-register (at their next
    // heartbeat) before consumers resync.
    registryServer(port, Duration.ofMillis(1500));
    provider("third", port);
    seen.awaitInstances(WHOAMI, 3);
    assertTrue(servedBy(whoami, 30).contains("third"), "the consumer resyncs and calls the newcomer");

    second.shutdown();
    second.awaitTermination(Duration.ofSeconds(5));
    // The registry pushes the withdrawal after the provider's port may have closed: until it arrives, a
    // call can still pick the second and fail to connect (who is not idempotent, so it is not retried).
    seen.awaitInstances(WHOAMI, 2);
    assertEquals(Set.of("first", "third"), servedByOrUnavailable(whoami, 30),
        "the consumer drops the provider that left and calls the other two");
  }

  @Test
  void providerStartedWhileTheRegistryIsDownIsFoundOnceItIsUp() throws Exception {
    int port;
    try (java.net.ServerSocket probe = new java.net.ServerSocket(0)) {
      port = probe.getLocalPort();
    }
    RemoteRegistry registry = RemoteRegistry.builder("127.0.0.1", port).leaseTtl(Duration.ofSeconds(2))
        .callTimeout(Duration.ofMillis(500)).build();
    connections.add(registry);
    TripleServer early = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Whoami.class, Whoami.named("early"))
        .registration(Registration.to(registry).application("whoami-app").timeout(Duration.ofSeconds(1)).build())
        .build().start();
    providers.add(early);

    registryServer(port, Duration.ZERO);
    client = consumer(port).build();
    Whoami whoami = client.proxy(Whoami.class);
    seen.awaitInstances(WHOAMI, 1);
    assertEquals("early", whoami.who("test"),
        "the provider registers by itself once the registry is up, and the consumer finds it");
  }

  @Test
  void clientsBuiltFromOneTargetEachHaveTheirOwnRegistryConnection() throws Exception {
    int port = registryServer(0, Duration.ZERO).port();
    provider("first", port);
    TripleClient.Builder builder = consumer(port);
    TripleClient one = builder.build();
    client = builder.build();
    Whoami first = one.proxy(Whoami.class);
    Whoami second = client.proxy(Whoami.class);
    assertEquals(Set.of("first"), servedBy(first, 3));
    assertEquals(Set.of("first"), servedBy(second, 3));

    one.close();
    provider("later", port);
    // Both clients told the observer of one instance; only the one left open can tell it of two.
    seen.awaitInstances(WHOAMI, 2);
    assertTrue(servedBy(second, 20).contains("later"),
        "the client left open still hears the registry after the other one closed");
  }
}
