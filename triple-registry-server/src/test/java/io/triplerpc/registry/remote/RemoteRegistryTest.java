package io.triplerpc.registry.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.CallOptions;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.registry.InstanceChange;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.Subscription;
import io.triplerpc.registry.internal.proto.RegisterRequest;
import io.triplerpc.registry.internal.wire.RegistryService;
import io.triplerpc.registry.internal.wire.WireFormat;
import io.triplerpc.registry.server.RegistryServer;
import io.triplerpc.spi.ServerInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A real registry server on a loopback port, with RemoteRegistry providers and consumers. */
class RemoteRegistryTest {

  private static final String APP = "greeter-app";
  private static final MetadataInfo METADATA = MetadataInfo.of(APP, List.of(
      new ServerInfo.Service("helloworld.Greeter", List.of("SayHello", "LotsOfReplies"), "proto", "", ""),
      new ServerInfo.Service("shop.Orders", List.of("place"), "hessian2", "1.0", "eu")));

  private final List<RegistryServer> servers = new ArrayList<>();
  private final List<AutoCloseable> closeables = new ArrayList<>();

  @AfterEach
  void tearDown() throws Exception {
    for (AutoCloseable closeable : closeables) {
      closeable.close();
    }
    for (RegistryServer server : servers) {
      server.shutdownNow();
      assertTrue(server.awaitTermination(Duration.ofSeconds(10)), "registry server did not terminate");
    }
  }

  private RegistryServer startServer(int port, Duration leaseTtl, Duration startupGrace) {
    RegistryServer server = RegistryServer.builder().host("127.0.0.1").port(port)
        .leaseTtl(leaseTtl).startupGrace(startupGrace).build().start();
    servers.add(server);
    return server;
  }

  private RemoteRegistry connect(RegistryServer server, Duration leaseTtl) {
    RemoteRegistry registry = RemoteRegistry.builder("127.0.0.1", server.port())
        .leaseTtl(leaseTtl)
        .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(400))
        .build();
    closeables.add(registry);
    return registry;
  }

  private static ServiceInstance instance(int port) {
    return ServiceInstance.of(APP, "127.0.0.1", port, METADATA.revision());
  }

  private static <T> T await(CompletableFuture<T> future) throws Exception {
    return future.get(10, TimeUnit.SECONDS);
  }

  @Test
  void consumerGetsTheWholeListThenAddedUpdatedAndRemovedAsTheProviderChanges() throws Exception {
    RegistryServer server = startServer(0, Duration.ofSeconds(10), Duration.ZERO);
    RemoteRegistry provider = connect(server, Duration.ofSeconds(10));
    RemoteRegistry consumer = connect(server, Duration.ofSeconds(10));

    await(provider.publishMetadata(METADATA));
    await(provider.map("helloworld.Greeter", APP));
    await(provider.register(instance(20001)));

    assertEquals(Set.of(APP), await(consumer.applications("helloworld.Greeter")));
    assertEquals(Set.of(), await(consumer.applications("nobody.Serves")));
    assertEquals(METADATA, await(consumer.metadata(APP, METADATA.revision())));
    ExecutionException unknown = assertThrows(ExecutionException.class, () -> await(consumer.metadata(APP, "0123")));
    assertEquals(Status.Code.NOT_FOUND, assertInstanceOf(StatusException.class, unknown.getCause()).status().code());

    RecordingInstanceListener listener = new RecordingInstanceListener();
    Subscription subscription = consumer.subscribe(APP, listener);
    closeables.add(subscription);
    assertEquals(new RecordingInstanceListener.Event("RESYNC", List.of(instance(20001)), null, null),
        listener.awaitEvent(0));

    await(provider.register(instance(20002)));
    assertEquals(List.of(InstanceChange.added(instance(20002))), listener.awaitEvent(1).changes());
    await(provider.register(instance(20001).withWeight(7)));
    assertEquals(List.of(InstanceChange.updated(instance(20001).withWeight(7))), listener.awaitEvent(2).changes());
    await(provider.unregister(instance(20002)));
    assertEquals(List.of(InstanceChange.removed(instance(20002))), listener.awaitEvent(3).changes());

    subscription.close();
    await(provider.register(instance(20003)));
    // Another consumer's subscription sees the newest instance; the closed one heard nothing more.
    RecordingInstanceListener other = new RecordingInstanceListener();
    closeables.add(consumer.subscribe(APP, other));
    assertEquals(Set.of(instance(20001).withWeight(7), instance(20003)), Set.copyOf(other.awaitEvent(0).instances()));
    assertEquals(4, listener.events().size(), listener.events().toString());
    assertNull(listener.violation());
  }

  @Test
  void closingAProviderRemovesItsInstancesAtOnceNotAfterItsLease() throws Exception {
    RegistryServer server = startServer(0, Duration.ofMinutes(1), Duration.ZERO);
    RemoteRegistry provider = connect(server, Duration.ofMinutes(1));
    RemoteRegistry consumer = connect(server, Duration.ofMinutes(1));
    await(provider.register(instance(20001)));
    RecordingInstanceListener listener = new RecordingInstanceListener();
    closeables.add(consumer.subscribe(APP, listener));
    assertEquals(List.of(instance(20001)), listener.awaitEvent(0).instances());

    provider.close();
    // The lease has a minute to live: only the provider's revoke explains a REMOVED within 10 s.
    assertEquals(List.of(InstanceChange.removed(instance(20001))), listener.awaitEvent(1).changes());
    assertThrows(IllegalStateException.class, () -> provider.register(instance(20002)));
  }

  @Test
  void aProviderThatStopsHeartbeatingDisappearsAfterItsTtlWhileOneThatHeartbeatsStays() throws Exception {
    RegistryServer server = startServer(0, Duration.ofSeconds(10), Duration.ZERO);
    RemoteRegistry alive = connect(server, Duration.ofMillis(600));
    await(alive.register(instance(20001)));
    long aliveSince = System.nanoTime();
    RemoteRegistry consumer = connect(server, Duration.ofSeconds(10));
    RecordingInstanceListener listener = new RecordingInstanceListener();
    closeables.add(consumer.subscribe(APP, listener));
    listener.awaitView(view -> view.size() == 1, "the heart-beating provider");

    // A raw client registers under a 300 ms lease and never heartbeats: a provider that hung.
    try (TripleClient raw = TripleClient.builder().address("127.0.0.1", server.port()).build()) {
      RegistryService service = raw.proxy(RegistryService.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(5)));
      await(service.register(RegisterRequest.newBuilder().setLeaseId("hung").setTtlMillis(300)
          .setInstance(WireFormat.toProto(instance(20002))).build()));
      listener.awaitView(view -> view.containsKey("127.0.0.1:20002"), "the hung provider's instance");
      listener.awaitView(view -> !view.containsKey("127.0.0.1:20002"), "the hung provider's instance to expire");
    }
    // Let three of its TTLs pass: the provider that heartbeats (every 200 ms) stays all along.
    long left = aliveSince + TimeUnit.MILLISECONDS.toNanos(1800) - System.nanoTime();
    if (left > 0) {
      CompletableFuture<Void> later = new CompletableFuture<>();
      CompletableFuture.delayedExecutor(left, TimeUnit.NANOSECONDS).execute(() -> later.complete(null));
      await(later);
    }
    assertEquals(Set.of("127.0.0.1:20001"), listener.view().keySet());
    assertEquals(1, server.leaseCount());
    assertTrue(listener.events().stream().noneMatch(e -> e.changes() != null
        && e.changes().contains(InstanceChange.removed(instance(20001)))), listener.events().toString());
  }

  @Test
  void aProviderStartedWhileTheRegistryIsDownRegistersOnceItIsUp() throws Exception {
    RegistryServer first = startServer(0, Duration.ofSeconds(10), Duration.ZERO);
    int port = first.port();
    first.shutdownNow();
    assertTrue(first.awaitTermination(Duration.ofSeconds(10)));
    RemoteRegistry provider = RemoteRegistry.builder("127.0.0.1", port).leaseTtl(Duration.ofMillis(600))
        .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(400)).build();
    closeables.add(provider);
    ExecutionException down = assertThrows(ExecutionException.class, () -> await(provider.register(instance(20001))));
    assertEquals(Status.Code.UNAVAILABLE, Status.fromThrowable(down.getCause()).code());

    RegistryServer second = startServer(port, Duration.ofSeconds(10), Duration.ZERO);
    RemoteRegistry consumer = connect(second, Duration.ofSeconds(10));
    RecordingInstanceListener listener = new RecordingInstanceListener();
    closeables.add(consumer.subscribe(APP, listener));
    listener.awaitView(view -> view.containsKey("127.0.0.1:20001"), "the provider's retried registration");
  }

  @Test
  void whenTheRegistryRestartsTheProviderRegistersAgainAndTheConsumerResyncs() throws Exception {
    RegistryServer first = startServer(0, Duration.ofSeconds(10), Duration.ZERO);
    int port = first.port();
    RemoteRegistry provider = connect(first, Duration.ofMillis(600));
    RemoteRegistry consumer = connect(first, Duration.ofSeconds(10));
    await(provider.publishMetadata(METADATA));
    await(provider.map("helloworld.Greeter", APP));
    await(provider.register(instance(20001)));
    RecordingInstanceListener listener = new RecordingInstanceListener();
    closeables.add(consumer.subscribe(APP, listener));
    assertEquals(List.of(instance(20001)), listener.awaitEvent(0).instances());

    first.shutdownNow();
    assertTrue(first.awaitTermination(Duration.ofSeconds(10)));
    RecordingInstanceListener.Event down = listener.awaitEvent(1);
    assertEquals("DISCONNECTED", down.type(), listener.events().toString());
    // The consumer keeps its instance: no empty list was made up.
    assertEquals(Set.of("127.0.0.1:20001"), listener.view().keySet());
    // A subscription made while the registry is down hears that, and nothing else until it is back.
    RecordingInstanceListener late = new RecordingInstanceListener();
    closeables.add(consumer.subscribe(APP, late));
    assertEquals("DISCONNECTED", late.awaitEvent(0).type());

    // Same port, nothing remembered; subscriptions wait 2 s for providers to come back.
    RegistryServer second = startServer(port, Duration.ofSeconds(10), Duration.ofSeconds(2));
    int resync = listener.awaitEvent(2, e -> e.type().equals("RESYNC"), "a resync after the restart");
    assertEquals(List.of(instance(20001)), listener.events().get(resync).instances(), listener.events().toString());
    for (RecordingInstanceListener.Event event : listener.events().subList(1, resync)) {
      assertEquals("DISCONNECTED", event.type(), listener.events().toString());
    }
    assertEquals(List.of(instance(20001)), late.awaitEvent(1).instances(), late.events().toString());
    assertEquals(1, second.leaseCount());
    // The provider's metadata and mapping came back with it.
    assertEquals(METADATA, await(consumer.metadata(APP, METADATA.revision())));
    assertEquals(Set.of(APP), await(consumer.applications("helloworld.Greeter")));
    assertNull(listener.violation());
  }
}
