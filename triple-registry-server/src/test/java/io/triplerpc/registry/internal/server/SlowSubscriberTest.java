package io.triplerpc.registry.internal.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.ServerCallStreamObserver;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.registry.internal.proto.Instance;
import io.triplerpc.registry.internal.proto.InstanceBatch;
import io.triplerpc.registry.internal.proto.RegisterRequest;
import io.triplerpc.registry.internal.proto.SubscribeRequest;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A subscriber that stops reading is cut off after a bounded backlog, not buffered for without end. */
class SlowSubscriberTest {

  /** A stream whose peer never reads: not ready, ever. */
  private static final class StalledStream implements ServerCallStreamObserver<InstanceBatch> {
    final AtomicInteger batches = new AtomicInteger();
    final CompletableFuture<Throwable> error = new CompletableFuture<>();

    @Override
    public void onNext(InstanceBatch value) {
      batches.incrementAndGet();
    }

    @Override
    public void onError(Throwable t) {
      error.complete(t);
    }

    @Override
    public void onCompleted() {}

    @Override
    public boolean isReady() {
      return false;
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

  @Test
  void aStalledSubscriberIsEndedWithResourceExhausted() throws Exception {
    RegistryServiceImpl registry = new RegistryServiceImpl(Duration.ofMinutes(1), Duration.ofMinutes(5), Duration.ZERO);
    try {
      StalledStream stream = new StalledStream();
      registry.subscribe(SubscribeRequest.newBuilder().setApplication("app").build(), stream);
      for (int i = 0; i <= RegistryServiceImpl.MAX_UNREADY_BATCHES + 1; i++) {
        registry.register(RegisterRequest.newBuilder().setLeaseId("lease").setTtlMillis(60_000)
            .setInstance(Instance.newBuilder().setApplication("app").setHost("10.0." + (i >> 8) + "." + (i & 255))
                .setPort(1000).setRevision("r1"))
            .build()).get(10, TimeUnit.SECONDS);
      }
      Throwable ended = stream.error.get(10, TimeUnit.SECONDS);
      assertEquals(Status.Code.RESOURCE_EXHAUSTED, ((StatusException) ended).status().code());
      assertTrue(stream.batches.get() <= RegistryServiceImpl.MAX_UNREADY_BATCHES, "batches: " + stream.batches.get());
    } finally {
      registry.close();
    }
  }
}
