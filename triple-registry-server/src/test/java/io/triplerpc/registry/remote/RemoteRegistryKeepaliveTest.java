package io.triplerpc.registry.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.TripleServer;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.internal.proto.Instance;
import io.triplerpc.registry.internal.proto.InstanceBatch;
import io.triplerpc.registry.internal.wire.RegistryService;
import io.triplerpc.registry.server.RegistryServer;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Subscription keepalives: a quiet stream stays, a stalled one is replaced. */
class RemoteRegistryKeepaliveTest {

  private static Instance instance(int port) {
    return Instance.newBuilder().setApplication("app").setHost("10.0.0.1").setPort(port).setRevision("r1").build();
  }

  @Test
  void aStreamThatGoesSilentIsReopenedOnANewConnection() throws Exception {
    RemoteRegistryMalformedRecordsTest.ScriptedRegistry script = new RemoteRegistryMalformedRecordsTest.ScriptedRegistry();
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(RegistryService.class, script).build().start();
    RemoteRegistry consumer = RemoteRegistry.builder("127.0.0.1", server.port())
        .subscriptionKeepalive(Duration.ofMillis(100))
        .reconnectBackoff(Duration.ofMillis(50), Duration.ofMillis(400))
        .build();
    try {
      RecordingInstanceListener listener = new RecordingInstanceListener();
      consumer.subscribe("app", listener);
      RemoteRegistryMalformedRecordsTest.ScriptedRegistry.Call first = script.nextCall();
      assertEquals(100, first.request().getKeepaliveMillis());
      // One RESYNC, then silence: no keepalive, as from a server whose host vanished.
      first.stream().onNext(InstanceBatch.newBuilder().setType(InstanceBatch.Type.RESYNC)
          .addInstances(instance(1000)).build());
      assertEquals(1, listener.awaitEvent(0).instances().size());

      RemoteRegistryMalformedRecordsTest.ScriptedRegistry.Call second = script.nextCall();
      assertEquals("DISCONNECTED", listener.awaitEvent(1).type());
      second.stream().onNext(InstanceBatch.newBuilder().setType(InstanceBatch.Type.RESYNC)
          .addInstances(instance(1000)).addInstances(instance(1001)).build());
      assertEquals(List.of(ServiceInstance.of("app", "10.0.0.1", 1000, "r1"), ServiceInstance.of("app", "10.0.0.1", 1001, "r1")),
          listener.awaitEvent(2).instances());
    } finally {
      consumer.close();
      server.shutdownNow();
      assertTrue(server.awaitTermination(Duration.ofSeconds(10)));
    }
  }

  @Test
  void theRegistryServerKeepsAQuietStreamAlive() throws Exception {
    RegistryServer server = RegistryServer.builder().host("127.0.0.1").port(0).build().start();
    // 500 ms: a stream is dead after three intervals of silence, and a loaded machine (CI beside other
    // builds) has been seen to hold the first answer of a fresh connection past 300 ms.
    RemoteRegistry consumer = RemoteRegistry.builder("127.0.0.1", server.port())
        .subscriptionKeepalive(Duration.ofMillis(500)).build();
    try {
      RecordingInstanceListener listener = new RecordingInstanceListener();
      consumer.subscribe("app", listener);
      assertEquals("RESYNC", listener.awaitEvent(0).type());
      // Six keepalive intervals without a change: the keepalives keep the stream.
      CompletableFuture<Void> later = new CompletableFuture<>();
      CompletableFuture.delayedExecutor(3, TimeUnit.SECONDS).execute(() -> later.complete(null));
      later.get(10, TimeUnit.SECONDS);
      assertEquals(1, listener.events().size(), listener.events().toString());
      try (RemoteRegistry provider = RemoteRegistry.connect("127.0.0.1", server.port())) {
        provider.register(ServiceInstance.of("app", "10.0.0.1", 1000, "r1")).get(10, TimeUnit.SECONDS);
        listener.awaitView(view -> view.keySet().equals(Set.of("10.0.0.1:1000")), "the provider on the same stream");
      }
      assertEquals("CHANGES", listener.events().get(1).type());
    } finally {
      consumer.close();
      server.shutdownNow();
      assertTrue(server.awaitTermination(Duration.ofSeconds(10)));
    }
  }
}
