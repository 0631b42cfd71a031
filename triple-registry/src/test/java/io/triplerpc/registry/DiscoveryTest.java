package io.triplerpc.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.StatusException;
import io.triplerpc.Status;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Providers register in a registry, consumers find them, over real loopback connections. */
class DiscoveryTest {

  private static final String WHOAMI = "triple.test.Whoami";

  private final InProcessRegistry registry = new InProcessRegistry();
  private final List<TripleServer> servers = new ArrayList<>();
  private final List<TripleClient> clients = new ArrayList<>();
  /** Told the instances calls are spread over, each time they change: what the tests await. */
  private final RecordingDiscoveryObserver seen = new RecordingDiscoveryObserver();

  @AfterEach
  void stop() throws InterruptedException {
    clients.forEach(TripleClient::close);
    for (TripleServer server : servers) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(5));
    }
    registry.close();
  }

  private TripleServer provider(String name, Registry into) {
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Whoami.class, Whoami.named(name))
        .registration(Registration.to(into).application("whoami-app").build())
        .build().start();
    servers.add(server);
    return server;
  }

  private Whoami consumer(Discovery discovery) {
    TripleClient client = TripleClient.builder().cluster(discovery).build();
    clients.add(client);
    return client.proxy(Whoami.class);
  }

  private static Map<String, Integer> tally(Whoami whoami, int calls) {
    Map<String, Integer> counts = new TreeMap<>();
    for (int i = 0; i < calls; i++) {
      counts.merge(whoami.who("test"), 1, Integer::sum);
    }
    return counts;
  }

  @Test
  void consumerFindsProviderThenSpreadsCallsWhenASecondJoins() throws Exception {
    provider("first", registry);
    Whoami whoami = consumer(Discovery.using(registry).observer(seen).loadBalancing(LoadBalancing.ROUND_ROBIN).build());
    assertEquals(Map.of("first", 10), tally(whoami, 10));

    provider("second", registry);
    seen.awaitInstances(WHOAMI, 2);
    Map<String, Integer> spread = tally(whoami, 100);
    assertEquals(Set.of("first", "second"), spread.keySet());
    assertEquals(50, spread.get("first"), "round robin alternates: " + spread);
  }

  @Test
  void providerShutdownUnregistersBeforeDraining() throws Exception {
    TripleServer first = provider("first", registry);
    provider("second", registry);
    Whoami whoami = consumer(Discovery.using(registry).observer(seen).build());
    seen.awaitInstances(WHOAMI, 2);

    first.shutdown();
    first.awaitTermination(Duration.ofSeconds(5));
    seen.awaitInstances(WHOAMI, 1);
    assertEquals(Map.of("second", 50), tally(whoami, 50));
  }

  @Test
  void anOfflineProviderLeavesRotationKeepsServingAndComesBackWithItsStartTime() throws Exception {
    TripleServer first = provider("first", registry);
    provider("second", registry);
    Whoami whoami = consumer(Discovery.using(registry).observer(seen).loadBalancing(LoadBalancing.ROUND_ROBIN).build());
    seen.awaitInstances(WHOAMI, 2);
    TripleClient direct = TripleClient.builder().address("127.0.0.1", first.port()).build();
    clients.add(direct);
    io.triplerpc.internal.health.HealthService health = direct.proxy(io.triplerpc.internal.health.HealthService.class);
    long startTime = instanceOf(first).startTimeMillis();

    first.offline();
    assertTrue(first.isOffline());
    seen.awaitInstances(WHOAMI, 1);
    assertEquals(Map.of("second", 20), tally(whoami, 20));
    assertEquals(io.triplerpc.internal.health.proto.HealthCheckResponse.ServingStatus.NOT_SERVING,
        health.check(healthOf("")).getStatus());
    assertEquals(io.triplerpc.internal.health.proto.HealthCheckResponse.ServingStatus.NOT_SERVING,
        health.check(healthOf(WHOAMI)).getStatus());
    assertEquals("first", direct.proxy(Whoami.class).who("direct"), "an offline server still serves who calls it");

    first.online();
    assertFalse(first.isOffline());
    seen.awaitInstances(WHOAMI, 2);
    assertEquals(Set.of("first", "second"), tally(whoami, 20).keySet());
    assertEquals(io.triplerpc.internal.health.proto.HealthCheckResponse.ServingStatus.SERVING,
        health.check(healthOf("")).getStatus());
    assertEquals(startTime, instanceOf(first).startTimeMillis(), "the same instance, its warm-up not begun again");

    first.offline();
    first.shutdown();
    assertTrue(first.awaitTermination(Duration.ofSeconds(5)));
    assertEquals(Map.of("second", 10), tally(whoami, 10));
  }

  private static io.triplerpc.internal.health.proto.HealthCheckRequest healthOf(String service) {
    return io.triplerpc.internal.health.proto.HealthCheckRequest.newBuilder().setService(service).build();
  }

  /** The instance of {@code server} in the registry, as the application's subscribers see it now. */
  private ServiceInstance instanceOf(TripleServer server) throws Exception {
    java.util.concurrent.CompletableFuture<java.util.Collection<ServiceInstance>> listed =
        new java.util.concurrent.CompletableFuture<>();
    Subscription subscription = registry.subscribe("whoami-app", new InstanceListener() {
      @Override
      public void onResync(java.util.Collection<ServiceInstance> instances) {
        listed.complete(instances);
      }

      @Override
      public void onChanges(List<InstanceChange> changes) {}
    });
    try {
      return listed.get(10, java.util.concurrent.TimeUnit.SECONDS).stream()
          .filter(instance -> instance.port() == server.port()).findFirst().orElseThrow();
    } finally {
      subscription.close();
    }
  }

  @Test
  void idempotentCallsFailOverAndOthersFailFast() throws Exception {
    AtomicInteger refusals = new AtomicInteger();
    Whoami refusing = new Whoami() {
      @Override
      public String who(String caller) {
        refusals.incrementAndGet();
        throw Status.UNAVAILABLE.withDescription("refusing").asException();
      }

      @Override
      public String whoIdempotent(String caller) {
        return who(caller);
      }
    };
    servers.add(TripleServer.builder().host("127.0.0.1").port(0).addService(Whoami.class, refusing)
        .registration(Registration.to(registry).application("whoami-app").build()).build().start());
    provider("alive", registry);

    Whoami idempotent = consumer(Discovery.using(registry).loadBalancing(LoadBalancing.ROUND_ROBIN).build());
    for (int i = 0; i < 20; i++) {
      assertEquals("alive", idempotent.whoIdempotent("test"), "idempotent call " + i + " fails over");
    }
    assertTrue(refusals.get() >= 1, "round robin tried the refusing instance at least once");

    refusals.set(0);
    Whoami other = consumer(Discovery.using(registry).loadBalancing(LoadBalancing.ROUND_ROBIN).build());
    int failed = 0;
    for (int i = 0; i < 20; i++) {
      try {
        assertEquals("alive", other.who("test"));
      } catch (StatusException e) {
        assertEquals(Status.Code.UNAVAILABLE, e.status().code());
        assertEquals("refusing", e.status().description());
        failed++;
      }
    }
    assertTrue(failed >= 1, "round robin sent a non-idempotent call to the refusing instance");
    assertEquals(refusals.get(), failed, "each refusal reached the caller: no retry of a non-idempotent call");
  }

  @Test
  void providerThatDiedWithoutUnregisteringIsPassedOver() throws Exception {
    provider("alive", registry);
    // Registered at a port nobody listens on: a provider that died without unregistering.
    int deadPort;
    try (ServerSocket socket = new ServerSocket(0)) {
      deadPort = socket.getLocalPort();
    }
    registry.register(ServiceInstance.of("whoami-app", "127.0.0.1", deadPort, revisionOfTheLiveOne())).join();

    Whoami whoami = consumer(Discovery.using(registry).loadBalancing(LoadBalancing.ROUND_ROBIN).build());
    for (int i = 0; i < 20; i++) {
      assertEquals("alive", whoami.whoIdempotent("test"), "idempotent call " + i + " fails over");
    }
    // The dead instance failed lately, so balancers pass it over while the live one answers.
    assertEquals(Map.of("alive", 20), tally(whoami, 20));
  }

  private String revisionOfTheLiveOne() throws Exception {
    CompletableFuture<String> revision = new CompletableFuture<>();
    Subscription subscription = registry.subscribe("whoami-app", new InstanceListener() {
      @Override
      public void onResync(Collection<ServiceInstance> instances) {
        revision.complete(instances.iterator().next().revision());
      }

      @Override
      public void onChanges(List<InstanceChange> changes) {}
    });
    try {
      return revision.get(10, java.util.concurrent.TimeUnit.SECONDS);
    } finally {
      subscription.close();
    }
  }

  @Test
  void noProviderFailsWithAClearStatus() {
    Whoami whoami = consumer(Discovery.using(registry).initialWait(Duration.ofSeconds(1)).build());
    StatusException e = assertThrows(StatusException.class, () -> whoami.who("test"));
    assertEquals(Status.Code.UNAVAILABLE, e.status().code());
    assertTrue(e.status().description().contains("No application serves triple.test.Whoami"),
        e.status().description());
  }

  @Test
  void consumerStartedBeforeItsProviderFindsItOnceItRegisters() throws Exception {
    Whoami whoami = consumer(Discovery.using(registry).observer(seen).build());
    StatusException early = assertThrows(StatusException.class, () -> whoami.who("test"));
    assertEquals(Status.Code.UNAVAILABLE, early.status().code());

    provider("late", registry);
    seen.awaitInstances(WHOAMI, 1);
    assertEquals("late", whoami.who("test"), "the consumer finds the provider that registered after it started");
  }

  @Test
  void aRequiredRegistrationThatFailsStopsTheServerAndReleasesItsPort() throws Exception {
    int port;
    try (ServerSocket probe = new ServerSocket(0)) {
      port = probe.getLocalPort();
    }
    TripleServer.Builder builder = TripleServer.builder().host("127.0.0.1").port(port)
        .addService(Whoami.class, Whoami.named("unregistered"))
        .registration(Registration.to(new UnreachableRegistry()).application("whoami-app")
            .timeout(Duration.ofSeconds(2)).required(true).build());
    TripleServer server = builder.build();
    IllegalStateException e = assertThrows(IllegalStateException.class, server::start);
    assertTrue(e.getMessage().contains("Could not publish the metadata of whoami-app"), e.getMessage());
    assertTrue(server.awaitTermination(Duration.ofSeconds(10)), "the half-started server stops");
    try (ServerSocket again = new ServerSocket(port, 50, java.net.InetAddress.getLoopbackAddress())) {
      assertEquals(port, again.getLocalPort(), "the port is released");
    }
  }

  @Test
  void anOptionalRegistrationThatFailsLetsTheServerStart() {
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Whoami.class, Whoami.named("unregistered"))
        .registration(Registration.to(new UnreachableRegistry()).application("whoami-app").build())
        .build().start();
    servers.add(server);
    TripleClient direct = TripleClient.builder().address("127.0.0.1", server.port()).build();
    clients.add(direct);
    assertEquals("unregistered", direct.proxy(Whoami.class).who("test"));
  }

  @Test
  void aCallInFlightSurvivesItsProvidersWithdrawal() throws Exception {
    CountDownLatch entered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Whoami slow = new Whoami() {
      @Override
      public String who(String caller) {
        entered.countDown();
        try {
          release.await(10, java.util.concurrent.TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return "slow";
      }

      @Override
      public String whoIdempotent(String caller) {
        return who(caller);
      }
    };
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0).addService(Whoami.class, slow)
        .drainGrace(Duration.ofMillis(100))
        .registration(Registration.to(registry).application("whoami-app").build()).build().start();
    servers.add(server);
    Whoami whoami = consumer(Discovery.using(registry).build());
    CompletableFuture<String> inFlight = CompletableFuture.supplyAsync(() -> whoami.who("test"));
    assertTrue(entered.await(10, java.util.concurrent.TimeUnit.SECONDS));

    // The consumer subscribed first, so once this later subscriber hears the removal, so has it.
    CountDownLatch removed = new CountDownLatch(1);
    Subscription watcher = registry.subscribe("whoami-app", new InstanceListener() {
      @Override
      public void onResync(Collection<ServiceInstance> instances) {}

      @Override
      public void onChanges(List<InstanceChange> changes) {
        if (changes.stream().anyMatch(c -> c.kind() == InstanceChange.Kind.REMOVED)) {
          removed.countDown();
        }
      }
    });
    server.shutdown();
    assertTrue(removed.await(10, java.util.concurrent.TimeUnit.SECONDS), "the instance was withdrawn");
    release.countDown();
    assertEquals("slow", inFlight.get(10, java.util.concurrent.TimeUnit.SECONDS),
        "a withdrawn provider's call in flight finishes: its connection closes after it");
    watcher.close();
  }

  @Test
  void aFirstCallWaitingForTheRegistryEndsAtItsDeadline() {
    Registry silent = new UnreachableRegistry() {
      @Override
      public CompletableFuture<Set<String>> applications(String serviceName) {
        return new CompletableFuture<>(); // never answers
      }
    };
    TripleClient client = TripleClient.builder().cluster(Discovery.using(silent).initialWait(Duration.ofSeconds(30)).build()).build();
    clients.add(client);
    Whoami whoami = client.proxy(Whoami.class, io.triplerpc.CallOptions.DEFAULT.withTimeout(Duration.ofMillis(300)));
    StatusException e = assertThrows(StatusException.class, () -> whoami.who("test"));
    assertEquals(Status.Code.DEADLINE_EXCEEDED, e.status().code(), e.status().toString());
  }

  @Test
  void discoveredProvidersAreCalledOverTls() throws Exception {
    io.triplerpc.TlsConfig serverTls = io.triplerpc.TlsConfig.builder()
        .keyCertChain(io.triplerpc.testing.TestCertificates.serverCertificate(),
            io.triplerpc.testing.TestCertificates.serverKey())
        .build();
    for (String name : new String[] {"tls-a", "tls-b"}) {
      servers.add(TripleServer.builder().host("127.0.0.1").port(0).tls(serverTls)
          .addService(Whoami.class, Whoami.named(name))
          .registration(Registration.to(registry).application("whoami-app").build()).build().start());
    }
    TripleClient client = TripleClient.builder()
        .cluster(Discovery.using(registry).observer(seen).loadBalancing(LoadBalancing.ROUND_ROBIN).build())
        .tls(io.triplerpc.TlsConfig.builder().trustCertificates(io.triplerpc.testing.TestCertificates.caCertificate()).build())
        .build();
    clients.add(client);
    Whoami whoami = client.proxy(Whoami.class);
    seen.awaitInstances(WHOAMI, 2);
    assertEquals(Map.of("tls-a", 5, "tls-b", 5), tally(whoami, 10), "both TLS providers answer");
  }

  @Test
  void anAsyncCallMadeBeforeTheRegistryAnswersDoesNotHoldTheCaller() throws Exception {
    CompletableFuture<Set<String>> answer = new CompletableFuture<>();
    Registry slow = new UnreachableRegistry() {
      @Override
      public CompletableFuture<Set<String>> applications(String serviceName) {
        return answer;
      }

      @Override
      public CompletableFuture<MetadataInfo> metadata(String application, String revision) {
        return registry.metadata(application, revision);
      }

      @Override
      public Subscription subscribe(String application, InstanceListener listener) {
        return registry.subscribe(application, listener);
      }
    };
    provider("found-later", registry);
    TripleClient client = TripleClient.builder()
        .cluster(Discovery.using(slow).initialWait(Duration.ofSeconds(30)).build()).build();
    clients.add(client);
    CompletableFuture<String> reply = client.proxy(WhoamiAsync.class).who("test");
    assertTrue(!reply.isDone(), "the call waits for the registry without holding the caller's thread");

    answer.complete(Set.of("whoami-app"));
    assertEquals("found-later", reply.get(10, java.util.concurrent.TimeUnit.SECONDS));
  }

  @Test
  void staticTargetBalancesOverFixedAddresses() throws Exception {
    TripleServer a = provider("a", registry);
    TripleServer b = provider("b", registry);
    TripleClient client = TripleClient.builder()
        .address("static://127.0.0.1:" + a.port() + ",127.0.0.1:" + b.port()).build();
    clients.add(client);
    Whoami whoami = client.proxy(Whoami.class);
    // Random balancing over addresses known from the start: nothing to wait for, only calls to make.
    Set<String> answered = new java.util.HashSet<>();
    for (int i = 0; i < 200 && answered.size() < 2; i++) {
      answered.add(whoami.who("test"));
    }
    assertEquals(Set.of("a", "b"), answered, "both addresses are called");
  }

  @Test
  void staticTargetNamesItsBalancingInTheQuery() throws Exception {
    TripleServer a = provider("a", registry);
    TripleServer b = provider("b", registry);
    String addresses = "static://127.0.0.1:" + a.port() + ",127.0.0.1:" + b.port();
    TripleClient roundRobin = TripleClient.builder().address(addresses + "?lb=round_robin").build();
    clients.add(roundRobin);
    Map<String, Integer> answered = new TreeMap<>();
    for (int i = 0; i < 10; i++) {
      answered.merge(roundRobin.proxy(Whoami.class).who("test"), 1, Integer::sum);
    }
    assertEquals(Map.of("a", 5, "b", 5), answered, "round_robin: each in turn");

    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> TripleClient.builder().address(addresses + "?lb=fastest"));
    assertTrue(unknown.getMessage().startsWith("lb=fastest is no balancing (known: round_robin, pick_first,"),
        unknown.getMessage());
    assertThrows(IllegalArgumentException.class, () -> TripleClient.builder().address(addresses + "?tls=true"));
  }

  @Test
  void restartedConsumerUsesItsSnapshotWhileTheRegistryIsDown(@TempDir Path snapshots) throws Exception {
    provider("snapshotted", registry);
    try (WatchService written = snapshots.getFileSystem().newWatchService()) {
      snapshots.register(written, StandardWatchEventKinds.ENTRY_CREATE, StandardWatchEventKinds.ENTRY_MODIFY);
      Whoami first = consumer(Discovery.using(registry).snapshotDirectory(snapshots, Duration.ofMillis(10)).build());
      assertEquals("snapshotted", first.who("test"));
      // Each file the snapshot writer creates or moves into place is an event of the directory's watch.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!completeSnapshot(snapshots)) {
        WatchKey changed = written.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
        assertTrue(changed != null, "the snapshot files are written, with the revision's metadata");
        changed.pollEvents();
        changed.reset();
      }
    }

    Registry down = new UnreachableRegistry();
    Whoami restarted = consumer(Discovery.using(down).snapshotDirectory(snapshots).build());
    assertEquals("snapshotted", restarted.who("test"));
  }

  /**
   * Whether {@code directory} holds the service's mapping and an application snapshot with its
   * revisions: a temporary file being written, or the first snapshot taken before the metadata
   * arrived, is not enough for a restarted consumer.
   */
  private static boolean completeSnapshot(Path directory) {
    boolean mapping = false;
    boolean application = false;
    try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(directory)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        String name = file.getFileName().toString();
        if (!name.endsWith(".json")) {
          continue;
        }
        String content = java.nio.file.Files.readString(file);
        mapping |= content.contains("\"applications\"");
        application |= content.contains("\"revisions\":[{");
      }
    } catch (java.io.IOException e) {
      // A file replaced between the listing and the read: look again.
      return false;
    }
    return mapping && application;
  }

  /** A registry that never answers: every future fails, subscriptions deliver nothing. */
  static class UnreachableRegistry implements Registry {
    private static <T> CompletableFuture<T> down() {
      return CompletableFuture.failedFuture(new java.net.ConnectException("registry unreachable"));
    }

    @Override
    public CompletableFuture<Void> register(ServiceInstance instance) {
      return down();
    }

    @Override
    public CompletableFuture<Void> unregister(ServiceInstance instance) {
      return down();
    }

    @Override
    public CompletableFuture<Void> publishMetadata(MetadataInfo metadata) {
      return down();
    }

    @Override
    public CompletableFuture<MetadataInfo> metadata(String application, String revision) {
      return down();
    }

    @Override
    public CompletableFuture<Void> map(String serviceName, String application) {
      return down();
    }

    @Override
    public CompletableFuture<Set<String>> applications(String serviceName) {
      return down();
    }

    @Override
    public Subscription subscribe(String application, InstanceListener listener) {
      listener.onDisconnected(new java.net.ConnectException("registry unreachable"));
      return () -> {};
    }

    @Override
    public void close() {}
  }
}
