package io.triplerpc.registry.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.CallOptions;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.StreamObserver;
import io.triplerpc.TripleClient;
import io.triplerpc.registry.internal.proto.HeartbeatRequest;
import io.triplerpc.registry.internal.proto.Instance;
import io.triplerpc.registry.internal.proto.InstanceBatch;
import io.triplerpc.registry.internal.proto.InstanceChange;
import io.triplerpc.registry.internal.proto.Lease;
import io.triplerpc.registry.internal.proto.Metadata;
import io.triplerpc.registry.internal.proto.RegisterRequest;
import io.triplerpc.registry.internal.proto.RevokeRequest;
import io.triplerpc.registry.internal.proto.Service;
import io.triplerpc.registry.internal.proto.SubscribeRequest;
import io.triplerpc.registry.internal.wire.RegistryService;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The registry server's wire API, driven by a raw Triple client as grpcurl or another language would. */
class RegistryServerTest {

  private RegistryServer server;
  private TripleClient client;
  private RegistryService registry;

  @BeforeEach
  void start() {
    server = RegistryServer.builder().host("127.0.0.1").port(0).leaseTtl(Duration.ofMillis(300)).build().start();
    client = TripleClient.builder().address("127.0.0.1", server.port()).build();
    registry = client.proxy(RegistryService.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(5)));
  }

  @AfterEach
  void stop() throws InterruptedException {
    client.close();
    server.shutdownNow();
    assertTrue(server.awaitTermination(Duration.ofSeconds(10)), "registry server did not terminate");
  }

  private static Instance instance(String host, int port) {
    return Instance.newBuilder().setApplication("app").setHost(host).setPort(port).setRevision("r1").build();
  }

  private static RegisterRequest register(String lease, long ttlMillis, Instance instance) {
    return RegisterRequest.newBuilder().setLeaseId(lease).setTtlMillis(ttlMillis).setInstance(instance).build();
  }

  private static <T> T await(CompletableFuture<T> future) throws Exception {
    return future.get(10, TimeUnit.SECONDS);
  }

  private static Status.Code failureCode(CompletableFuture<?> future) {
    ExecutionException e = assertThrows(ExecutionException.class, () -> future.get(10, TimeUnit.SECONDS));
    return assertInstanceOf(StatusException.class, e.getCause()).status().code();
  }

  @Test
  void malformedInstancesAreRejectedAndTheOthersAndTheStreamStayIntact() throws Exception {
    await(registry.register(register("a", 60_000, instance("10.0.0.1", 1000))));
    BatchRecorder batches = new BatchRecorder();
    registry.subscribe(SubscribeRequest.newBuilder().setApplication("app").build(), batches);
    assertEquals(List.of(instance("10.0.0.1", 1000).toBuilder().setWeight(100).build()),
        batches.await(0).getInstancesList());

    assertEquals(Status.Code.INVALID_ARGUMENT, failureCode(registry.register(register("b", 60_000, instance("10.0.0.2", 0)))));
    assertEquals(Status.Code.INVALID_ARGUMENT, failureCode(registry.register(register("b", 60_000, instance("", 1000)))));
    assertEquals(Status.Code.INVALID_ARGUMENT,
        failureCode(registry.register(register("b", 60_000, instance("10.0.0.2", 70_000)))));
    assertEquals(Status.Code.INVALID_ARGUMENT, failureCode(registry.register(register("b", 60_000,
        instance("10.0.0.2", 1000).toBuilder().setWeight(-1).build()))));

    await(registry.register(register("a", 60_000, instance("10.0.0.3", 1000))));
    InstanceBatch next = batches.await(1);
    assertEquals(InstanceBatch.Type.CHANGES, next.getType());
    assertEquals(InstanceChange.Kind.ADDED, next.getChanges(0).getKind());
    assertEquals("10.0.0.3", next.getChanges(0).getInstance().getHost());
    assertEquals(2, batches.count(), "nothing about the malformed instances was pushed");
  }

  @Test
  void anInstanceWithoutHeartbeatsExpiresAndSubscribersAreToldRemoved() throws Exception {
    BatchRecorder batches = new BatchRecorder();
    registry.subscribe(SubscribeRequest.newBuilder().setApplication("app").build(), batches);
    assertEquals(0, batches.await(0).getInstancesCount());
    Lease lease = await(registry.register(register("", 0, instance("10.0.0.1", 1000))));
    assertTrue(!lease.getLeaseId().isEmpty(), "the server chose a lease id");
    assertEquals(300, lease.getTtlMillis(), "the server's default TTL");

    assertEquals(InstanceChange.Kind.ADDED, batches.await(1).getChanges(0).getKind());
    InstanceBatch removed = batches.await(2);
    assertEquals(InstanceChange.Kind.REMOVED, removed.getChanges(0).getKind());
    assertEquals("10.0.0.1", removed.getChanges(0).getInstance().getHost());
    assertEquals(Status.Code.NOT_FOUND,
        failureCode(registry.heartbeat(HeartbeatRequest.newBuilder().setLeaseId(lease.getLeaseId()).build())));
  }

  @Test
  void heartbeatsKeepALeaseAndRevokeEndsIt() throws Exception {
    await(registry.register(register("kept", 1000, instance("10.0.0.1", 1000))));
    BatchRecorder batches = new BatchRecorder();
    registry.subscribe(SubscribeRequest.newBuilder().setApplication("app").build(), batches);
    batches.await(0);
    // Fifteen heartbeats 100 ms apart: more than a TTL passes and the instance stays.
    for (int i = 0; i < 15; i++) {
      CompletableFuture<Void> tick = new CompletableFuture<>();
      CompletableFuture.delayedExecutor(100, TimeUnit.MILLISECONDS).execute(() -> tick.complete(null));
      await(tick);
      assertEquals(1000, await(registry.heartbeat(HeartbeatRequest.newBuilder().setLeaseId("kept").build())).getTtlMillis());
    }
    assertEquals(1, batches.count(), "no change while heart-beating");
    await(registry.revoke(RevokeRequest.newBuilder().setLeaseId("kept").build()));
    assertEquals(InstanceChange.Kind.REMOVED, batches.await(1).getChanges(0).getKind());
    assertEquals(0, server.leaseCount());
  }

  @Test
  void metadataWhoseRevisionDoesNotMatchItsServicesIsRejected() throws Exception {
    Metadata forged = Metadata.newBuilder().setApplication("app").setRevision("000000000000000000000000")
        .addServices(Service.newBuilder().setName("a.B").addMethods("m").setSerialization("proto")).build();
    assertEquals(Status.Code.INVALID_ARGUMENT, failureCode(registry.publishMetadata(forged)));
  }

  @Test
  void subscribersGetUnavailableWhenTheServerShutsDown() throws Exception {
    BatchRecorder batches = new BatchRecorder();
    registry.subscribe(SubscribeRequest.newBuilder().setApplication("app").build(), batches);
    assertEquals(0, batches.await(0).getInstancesCount());
    server.shutdown();
    assertEquals(Status.Code.UNAVAILABLE, Status.fromThrowable(batches.awaitError()).code());
  }

  @Test
  void durationsOnTheCommandLine() {
    assertEquals(Duration.ofMillis(300), RegistryServerMain.duration("300ms"));
    assertEquals(Duration.ofSeconds(10), RegistryServerMain.duration("10s"));
    assertEquals(Duration.ofMillis(1500), RegistryServerMain.duration("1.5s"));
    assertEquals(Duration.ofMinutes(5), RegistryServerMain.duration("5m"));
    assertEquals(Duration.ofSeconds(10), RegistryServerMain.duration("PT10S"));
    assertThrows(IllegalArgumentException.class, () -> RegistryServerMain.duration("soon"));
  }

  /** Records a Subscribe stream's batches; waits on its monitor. */
  static final class BatchRecorder implements StreamObserver<InstanceBatch> {
    private final List<InstanceBatch> batches = new ArrayList<>();
    private Throwable error;
    private boolean completed;

    @Override
    public synchronized void onNext(InstanceBatch value) {
      batches.add(value);
      notifyAll();
    }

    @Override
    public synchronized void onError(Throwable t) {
      error = t;
      notifyAll();
    }

    @Override
    public synchronized void onCompleted() {
      completed = true;
      notifyAll();
    }

    synchronized int count() {
      return batches.size();
    }

    synchronized InstanceBatch await(int index) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (batches.size() <= index) {
        long left = deadline - System.nanoTime();
        if (left <= 0 || error != null || completed) {
          throw new AssertionError("no batch #" + index + "; got " + batches + ", error " + error);
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
      return batches.get(index);
    }

    synchronized Throwable awaitError() throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (error == null) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("the stream did not fail; completed " + completed);
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
      return error;
    }
  }

  @Test
  void aLateUnregisterFromAnOldOwnerLeavesTheNewOwnersInstance() throws Exception {
    await(registry.register(register("old", 60_000, instance("10.0.0.1", 1000))));
    // The process restarted on the same address under a new lease.
    await(registry.register(register("new", 60_000, instance("10.0.0.1", 1000))));
    await(registry.unregister(io.triplerpc.registry.internal.proto.UnregisterRequest.newBuilder()
        .setLeaseId("old").setInstance(instance("10.0.0.1", 1000)).build()));
    BatchRecorder batches = new BatchRecorder();
    registry.subscribe(SubscribeRequest.newBuilder().setApplication("app").build(), batches);
    assertEquals(1, batches.await(0).getInstancesCount(), "the new owner's instance stays");

    await(registry.unregister(io.triplerpc.registry.internal.proto.UnregisterRequest.newBuilder()
        .setLeaseId("new").setInstance(instance("10.0.0.1", 1000)).build()));
    assertEquals(InstanceChange.Kind.REMOVED, batches.await(1).getChanges(0).getKind());
  }
}
