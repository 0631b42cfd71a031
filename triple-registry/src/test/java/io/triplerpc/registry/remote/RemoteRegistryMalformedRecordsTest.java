package io.triplerpc.registry.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.Status;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleServer;
import io.triplerpc.registry.InstanceChange;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.internal.proto.ApplicationsRequest;
import io.triplerpc.registry.internal.proto.ApplicationsResponse;
import io.triplerpc.registry.internal.proto.Empty;
import io.triplerpc.registry.internal.proto.HeartbeatRequest;
import io.triplerpc.registry.internal.proto.Instance;
import io.triplerpc.registry.internal.proto.InstanceBatch;
import io.triplerpc.registry.internal.proto.Lease;
import io.triplerpc.registry.internal.proto.MapRequest;
import io.triplerpc.registry.internal.proto.Metadata;
import io.triplerpc.registry.internal.proto.MetadataRequest;
import io.triplerpc.registry.internal.proto.RegisterRequest;
import io.triplerpc.registry.internal.proto.RevokeRequest;
import io.triplerpc.registry.internal.proto.SubscribeRequest;
import io.triplerpc.registry.internal.proto.UnregisterRequest;
import io.triplerpc.registry.internal.wire.RegistryService;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A scripted registry server pushes malformed records (what a buggy or foreign registry might send):
 * the consumer skips each with a warning and keeps the rest, and the subscription goes on.
 */
class RemoteRegistryMalformedRecordsTest {

  private static Instance good(int port) {
    return Instance.newBuilder().setApplication("app").setHost("10.0.0.1").setPort(port).setRevision("r1").build();
  }

  private static io.triplerpc.registry.internal.proto.InstanceChange change(
      io.triplerpc.registry.internal.proto.InstanceChange.Kind kind, Instance instance) {
    return io.triplerpc.registry.internal.proto.InstanceChange.newBuilder().setKind(kind).setInstance(instance).build();
  }

  @Test
  void malformedRecordsAreSkippedAndTheSubscriptionGoesOn() throws Exception {
    ScriptedRegistry script = new ScriptedRegistry();
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(RegistryService.class, script).build().start();
    RemoteRegistry consumer = RemoteRegistry.connect("127.0.0.1", server.port());
    try {
      RecordingInstanceListener listener = new RecordingInstanceListener();
      consumer.subscribe("app", listener);
      StreamObserver<InstanceBatch> stream = script.nextCall().stream();
      stream.onNext(InstanceBatch.newBuilder().setType(InstanceBatch.Type.RESYNC)
          .addInstances(good(1000))
          .addInstances(good(0))                                           // port 0
          .addInstances(good(1001).toBuilder().setHost(""))                 // no host
          .addInstances(good(1002).toBuilder().setWeight(-5))               // negative weight
          .addInstances(good(1003).toBuilder().setApplication("other-app")) // another application
          .addInstances(good(1004).toBuilder().putExtraPorts("dubbo", 0))   // bad extra port
          .build());
      assertEquals(List.of(ServiceInstance.of("app", "10.0.0.1", 1000, "r1")), listener.awaitEvent(0).instances());

      stream.onNext(InstanceBatch.newBuilder().setType(InstanceBatch.Type.CHANGES)
          .addChanges(change(io.triplerpc.registry.internal.proto.InstanceChange.Kind.ADDED, good(70_000)))
          .addChanges(change(io.triplerpc.registry.internal.proto.InstanceChange.Kind.KIND_UNSPECIFIED, good(1005)))
          .addChanges(change(io.triplerpc.registry.internal.proto.InstanceChange.Kind.ADDED, good(1006)))
          .build());
      assertEquals(List.of(InstanceChange.added(ServiceInstance.of("app", "10.0.0.1", 1006, "r1"))),
          listener.awaitEvent(1).changes());
      // A batch with nothing valid delivers nothing, and a batch of unknown type is skipped; the stream goes on.
      stream.onNext(InstanceBatch.newBuilder().setType(InstanceBatch.Type.CHANGES)
          .addChanges(change(io.triplerpc.registry.internal.proto.InstanceChange.Kind.REMOVED, good(-1))).build());
      stream.onNext(InstanceBatch.newBuilder().addInstances(good(1007)).build());
      stream.onNext(InstanceBatch.newBuilder().setType(InstanceBatch.Type.CHANGES)
          .addChanges(change(io.triplerpc.registry.internal.proto.InstanceChange.Kind.REMOVED, good(1000))).build());
      assertEquals(List.of(InstanceChange.removed(ServiceInstance.of("app", "10.0.0.1", 1000, "r1"))),
          listener.awaitEvent(2).changes());
      assertEquals(3, listener.events().size(), listener.events().toString());
      assertEquals(List.of("10.0.0.1:1006"), List.copyOf(listener.view().keySet()));
    } finally {
      consumer.close();
      server.shutdownNow();
      assertTrue(server.awaitTermination(Duration.ofSeconds(10)));
    }
  }

  /** Answers each Subscribe with a stream the test writes to; every other method is unimplemented. */
  static final class ScriptedRegistry implements RegistryService {

    /** One Subscribe call. */
    record Call(SubscribeRequest request, StreamObserver<InstanceBatch> stream) {}

    private final BlockingQueue<Call> calls = new LinkedBlockingQueue<>();

    /** Waits for the next Subscribe call. */
    Call nextCall() throws InterruptedException {
      Call call = calls.poll(10, TimeUnit.SECONDS);
      if (call == null) {
        throw new AssertionError("no Subscribe call within 10 s");
      }
      return call;
    }

    @Override
    public void subscribe(SubscribeRequest request, StreamObserver<InstanceBatch> batches) {
      calls.add(new Call(request, batches));
    }

    private static <T> CompletableFuture<T> unimplemented() {
      return CompletableFuture.failedFuture(Status.UNIMPLEMENTED.asException());
    }

    @Override
    public CompletableFuture<Lease> register(RegisterRequest request) {
      return unimplemented();
    }

    @Override
    public CompletableFuture<Lease> heartbeat(HeartbeatRequest request) {
      return unimplemented();
    }

    @Override
    public CompletableFuture<Empty> unregister(UnregisterRequest request) {
      return unimplemented();
    }

    @Override
    public CompletableFuture<Empty> revoke(RevokeRequest request) {
      return unimplemented();
    }

    @Override
    public CompletableFuture<Empty> publishMetadata(Metadata request) {
      return unimplemented();
    }

    @Override
    public CompletableFuture<Metadata> getMetadata(MetadataRequest request) {
      return unimplemented();
    }

    @Override
    public CompletableFuture<Empty> map(MapRequest request) {
      return unimplemented();
    }

    @Override
    public CompletableFuture<ApplicationsResponse> applications(ApplicationsRequest request) {
      return unimplemented();
    }
  }
}
