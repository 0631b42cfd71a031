package io.triplerpc.registry.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.ServerCallStreamObserver;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.registry.internal.proto.HeartbeatRequest;
import io.triplerpc.registry.internal.proto.Instance;
import io.triplerpc.registry.internal.proto.InstanceBatch;
import io.triplerpc.registry.internal.proto.Lease;
import io.triplerpc.registry.internal.proto.RegisterRequest;
import io.triplerpc.registry.internal.proto.SubscribeRequest;
import io.triplerpc.testing.ManualClock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The registry server's leases and subscription keepalives on a {@link ManualClock}: a lease lives
 * exactly its TTL after its last renewal, and a quiet subscription gets its keepalive exactly on time,
 * without the test waiting for either.
 */
class LeaseClockTest {

  private final ManualClock clock = new ManualClock();
  private final RegistryServiceImpl registry = new RegistryServiceImpl(Duration.ofSeconds(30), Duration.ofMinutes(5),
      Duration.ZERO, RegistryAccess.open(), clock.scheduler(), clock::nanoTime);

  @AfterEach
  void close() {
    registry.close();
    clock.close();
  }

  private Lease register(String leaseId, long ttlMillis) throws Exception {
    return registry.register(RegisterRequest.newBuilder().setLeaseId(leaseId).setTtlMillis(ttlMillis)
            .setInstance(Instance.newBuilder().setApplication("shop").setHost("10.0.0.1").setPort(50051).setRevision("r1"))
            .build())
        .get(10, TimeUnit.SECONDS);
  }

  private Lease heartbeat(String leaseId) throws Exception {
    return registry.heartbeat(HeartbeatRequest.newBuilder().setLeaseId(leaseId).build()).get(10, TimeUnit.SECONDS);
  }

  @Test
  void aLeaseLivesItsTtlAfterItsLastRenewalAndNotASecondMore() throws Exception {
    assertEquals(10_000, register("a", 10_000).getTtlMillis());
    clock.advance(Duration.ofSeconds(9));
    assertEquals(1, registry.leaseCount());
    heartbeat("a");
    clock.advance(Duration.ofSeconds(9));
    assertEquals(1, registry.leaseCount(), "renewed at 9 s, so alive at 18 s");
    clock.advance(Duration.ofSeconds(2));
    assertEquals(0, registry.leaseCount(), "expired at 19 s, swept by 20 s");
    ExecutionException gone = assertThrows(ExecutionException.class, () -> heartbeat("a"));
    assertEquals(Status.Code.NOT_FOUND, ((StatusException) gone.getCause()).status().code());
  }

  @Test
  void aLeaseAsksForNoMoreThanTheMaximumTtl() throws Exception {
    assertEquals(Duration.ofMinutes(5).toMillis(), register("long", Duration.ofHours(1).toMillis()).getTtlMillis());
    clock.advance(Duration.ofMinutes(5).minusSeconds(1));
    assertEquals(1, registry.leaseCount());
    clock.advance(Duration.ofSeconds(2));
    assertEquals(0, registry.leaseCount());
  }

  @Test
  void aQuietSubscriptionGetsItsKeepaliveOnTime() throws Exception {
    RecordingStream stream = new RecordingStream();
    registry.subscribe(SubscribeRequest.newBuilder().setApplication("shop").setKeepaliveMillis(2_000).build(), stream);
    assertEquals(InstanceBatch.Type.RESYNC, stream.firstBatch.get(10, TimeUnit.SECONDS).getType());
    int afterResync = stream.batches.size();
    clock.advance(Duration.ofMillis(1_999));
    assertEquals(afterResync, stream.batches.size(), "nothing before the keepalive interval");
    clock.advance(Duration.ofMillis(1));
    assertEquals(afterResync + 1, stream.batches.size());
    InstanceBatch keepalive = stream.batches.get(afterResync);
    assertEquals(InstanceBatch.Type.CHANGES, keepalive.getType());
    assertTrue(keepalive.getChangesList().isEmpty(), "an empty CHANGES batch is a keepalive");
  }

  /** A subscription stream that records its batches; always ready. */
  private static final class RecordingStream implements ServerCallStreamObserver<InstanceBatch> {

    final List<InstanceBatch> batches = new CopyOnWriteArrayList<>();
    final CompletableFuture<InstanceBatch> firstBatch = new CompletableFuture<>();

    @Override
    public void onNext(InstanceBatch value) {
      batches.add(value);
      firstBatch.complete(value);
    }

    @Override
    public void onError(Throwable t) {
      firstBatch.completeExceptionally(t);
    }

    @Override
    public void onCompleted() {}

    @Override
    public boolean isReady() {
      return true;
    }

    @Override
    public void setOnReadyHandler(Runnable onReadyHandler) {}

    @Override
    public void setMessageCompression(boolean enabled) {}

    @Override
    public boolean isCancelled() {
      return false;
    }

    @Override
    public void setOnCancelHandler(Runnable onCancelHandler) {}

    @Override
    public void setCompression(String encoding) {}
  }
}
