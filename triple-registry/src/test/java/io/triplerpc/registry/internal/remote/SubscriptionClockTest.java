package io.triplerpc.registry.internal.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.StreamObserver;
import io.triplerpc.registry.InstanceChange;
import io.triplerpc.registry.InstanceListener;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.internal.proto.InstanceBatch;
import io.triplerpc.registry.internal.proto.SubscribeRequest;
import io.triplerpc.registry.internal.wire.RegistryService;
import io.triplerpc.testing.ManualClock;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A registry subscription's stall watch and reconnection on a {@link ManualClock}, against a scripted
 * registry: a stream that brings nothing for three keepalive intervals is given up, its connection
 * reported, and a new stream opened after a jittered backoff that doubles while attempts fail.
 */
class SubscriptionClockTest {

  private static final Duration KEEPALIVE = Duration.ofSeconds(1);
  private static final Duration INITIAL_BACKOFF = Duration.ofSeconds(1);
  /** Short enough that a stream opened early in a backoff's jitter is not yet stalled at its end. */
  private static final Duration MAX_BACKOFF = Duration.ofSeconds(4);

  private final ManualClock clock = new ManualClock();
  /** Each Subscribe stream the subscription opened, in order. */
  private final List<StreamObserver<InstanceBatch>> streams = new ArrayList<>();
  private final List<String> events = new ArrayList<>();
  private final RegistryService registry = scriptedRegistry();
  private final RemoteSubscription subscription = new RemoteSubscription("shop", new InstanceListener() {
    @Override
    public void onResync(Collection<ServiceInstance> instances) {
      events.add("resync " + instances.size());
    }

    @Override
    public void onChanges(List<InstanceChange> changes) {
      events.add("changes " + changes.size());
    }

    @Override
    public void onDisconnected(Throwable cause) {
      events.add("disconnected " + cause.getMessage());
    }
  }, () -> registry, stalledOn -> events.add("stalled connection reported"), clock.scheduler(), clock::nanoTime,
      KEEPALIVE.toNanos(), INITIAL_BACKOFF.toNanos(), MAX_BACKOFF.toNanos(), () -> events.add("closed"));

  @AfterEach
  void close() {
    subscription.close();
    clock.close();
  }

  /** A registry whose Subscribe streams the test holds and drives; nothing else is called. */
  @SuppressWarnings("unchecked")
  private RegistryService scriptedRegistry() {
    return (RegistryService) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] {RegistryService.class},
        (proxy, method, args) -> {
          if (method.getName().equals("subscribe")) {
            assertEquals("shop", ((SubscribeRequest) args[0]).getApplication());
            assertEquals(KEEPALIVE.toMillis(), ((SubscribeRequest) args[0]).getKeepaliveMillis());
            streams.add((StreamObserver<InstanceBatch>) args[1]);
            return null;
          }
          if (method.getDeclaringClass() == Object.class) {
            return method.getName().equals("toString") ? "scripted registry" : method.invoke(this, args);
          }
          throw new AssertionError("unexpected call " + method.getName());
        });
  }

  private static InstanceBatch resync() {
    return InstanceBatch.newBuilder().setType(InstanceBatch.Type.RESYNC).build();
  }

  private static InstanceBatch keepalive() {
    return InstanceBatch.newBuilder().setType(InstanceBatch.Type.CHANGES).build();
  }

  @Test
  void batchesKeepTheStreamAndThreeQuietIntervalsEndIt() {
    subscription.start();
    streams.get(0).onNext(resync());
    for (int i = 0; i < 10; i++) {
      clock.advance(Duration.ofMillis(2_500));
      streams.get(0).onNext(keepalive());
    }
    assertEquals(List.of("resync 0"), events, "a keepalive every 2.5 s keeps the stream");

    clock.advance(Duration.ofMillis(2_999));
    assertEquals(1, streams.size());
    clock.advance(Duration.ofMillis(1_001));
    assertEquals(3, events.size(), events.toString());
    assertEquals("stalled connection reported", events.get(1));
    assertTrue(events.get(2).startsWith("disconnected") && events.get(2).endsWith("No batch from the registry for 3000 ms"),
        events.get(2));
    clock.advance(INITIAL_BACKOFF.multipliedBy(12).dividedBy(10));
    assertEquals(2, streams.size(), "a new stream after the backoff");
  }

  @Test
  void aLostStreamReopensAfterABackoffThatDoublesWhileAttemptsFail() {
    subscription.start();
    streams.get(0).onNext(resync());
    streams.get(0).onError(new IllegalStateException("connection reset"));
    assertTrue(events.contains("disconnected connection reset"), events.toString());

    long backoffMillis = INITIAL_BACKOFF.toMillis();
    for (int attempt = 1; attempt <= 4; attempt++) {
      clock.advance(Duration.ofMillis(backoffMillis * 8 / 10 - 1));
      assertEquals(attempt, streams.size(), "not before 80% of the backoff");
      clock.advance(Duration.ofMillis(backoffMillis * 4 / 10 + 1));
      assertEquals(attempt + 1, streams.size(), "by 120% of it");
      streams.get(attempt).onError(new IllegalStateException("refused"));
      backoffMillis = Math.min(MAX_BACKOFF.toMillis(), backoffMillis * 2);
    }
    assertEquals(1, events.stream().filter(e -> e.startsWith("disconnected")).count(), "one report per outage");

    clock.advance(Duration.ofMillis(backoffMillis * 12 / 10));
    streams.get(5).onNext(resync());
    streams.get(5).onError(new IllegalStateException("lost again"));
    clock.advance(Duration.ofMillis(INITIAL_BACKOFF.toMillis() * 12 / 10));
    assertEquals(7, streams.size(), "a batch started the backoff over");
  }
}
