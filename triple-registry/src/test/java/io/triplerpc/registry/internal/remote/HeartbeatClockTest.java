package io.triplerpc.registry.internal.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.MethodDescriptor;
import io.triplerpc.Status;
import io.triplerpc.TripleClient;
import io.triplerpc.WriteStats;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.internal.proto.Lease;
import io.triplerpc.registry.internal.wire.RegistryService;
import io.triplerpc.testing.ManualClock;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A provider's heartbeats on a {@link ManualClock}, against a scripted registry reached through a
 * scripted {@link TripleClient}: the lease is renewed every third of the TTL the server granted, a
 * lease the server lost is registered again, a heartbeat without an answer replaces the connection,
 * and a write that failed is sent again with the next heartbeat.
 */
class HeartbeatClockTest {

  private static final Duration TTL = Duration.ofSeconds(3);

  private final ManualClock clock = new ManualClock();
  /** The calls the registry received, by method name, in order. */
  private final List<String> calls = new ArrayList<>();
  /** Failures to answer the next heartbeats with, in order; success once empty. */
  private final Deque<Status> heartbeatFailures = new ArrayDeque<>();
  /** The clients the connection made, each a connection to the registry. */
  private final List<ScriptedClient> clients = new ArrayList<>();
  private final RegistryConnection connection =
      new RegistryConnection("registry://test", this::newClient, Duration.ofSeconds(5), () -> false);
  private final ProviderSide provider =
      new ProviderSide("registry://test", connection, clock.scheduler(), () -> false, TTL, null, false);

  @AfterEach
  void close() {
    clock.close();
  }

  private TripleClient newClient() {
    ScriptedClient client = new ScriptedClient();
    clients.add(client);
    return client;
  }

  private long count(String call) {
    return calls.stream().filter(call::equals).count();
  }

  private static ServiceInstance instance() {
    return ServiceInstance.of("shop", "10.0.0.1", 50051, "r1");
  }

  private Object answer(String method) {
    calls.add(method);
    Lease lease = Lease.newBuilder().setLeaseId(provider.leaseId()).setTtlMillis(TTL.toMillis()).build();
    switch (method) {
      case "register":
        return CompletableFuture.completedFuture(lease);
      case "heartbeat":
        Status failure = heartbeatFailures.poll();
        return failure == null ? CompletableFuture.completedFuture(lease) : CompletableFuture.failedFuture(failure.asException());
      default:
        throw new AssertionError("unexpected call " + method);
    }
  }

  @Test
  void theLeaseIsRenewedEveryThirdOfItsTtl() {
    provider.register(instance()).join();
    clock.advance(Duration.ofMillis(999));
    assertEquals(0, count("heartbeat"));
    clock.advance(Duration.ofMillis(1));
    assertEquals(1, count("heartbeat"));
    clock.advance(Duration.ofSeconds(2));
    assertEquals(3, count("heartbeat"));
  }

  @Test
  void aLeaseTheServerLostIsRegisteredAgain() {
    provider.register(instance()).join();
    heartbeatFailures.add(Status.NOT_FOUND.withDescription("Unknown lease"));
    clock.advance(Duration.ofSeconds(1));
    assertEquals(List.of("register", "heartbeat", "register"), calls);
  }

  @Test
  void aHeartbeatWithoutAnAnswerReplacesTheConnection() {
    provider.register(instance()).join();
    heartbeatFailures.add(Status.DEADLINE_EXCEEDED);
    clock.advance(Duration.ofSeconds(1));
    assertEquals(2, clients.size(), "a new connection");
    assertEquals(1, clients.get(0).closes, "the silent one closed");
    clock.advance(Duration.ofSeconds(1));
    assertEquals(List.of("register", "heartbeat", "register"), calls, "the unanswered write is sent again");
    assertEquals(1, clients.get(1).callsReceived, "on the new connection");
  }

  @Test
  void aWriteThatFailedIsSentAgainWithTheNextHeartbeat() {
    provider.register(instance()).join();
    heartbeatFailures.add(Status.UNAVAILABLE.withDescription("connection reset"));
    clock.advance(Duration.ofSeconds(1));
    clock.advance(Duration.ofSeconds(1));
    assertEquals(List.of("register", "heartbeat", "register"), calls, "everything sent again instead of a heartbeat");
    clock.advance(Duration.ofSeconds(1));
    assertEquals(List.of("register", "heartbeat", "register", "heartbeat"), calls);
  }

  /** A client whose proxies are the scripted registry; it counts its closes. */
  private final class ScriptedClient extends TripleClient {

    int closes;
    int callsReceived;

    @Override
    public <T> T proxy(Class<T> serviceInterface) {
      return proxy(serviceInterface, CallOptions.DEFAULT);
    }

    @Override
    public <T> T proxy(Class<T> serviceInterface, CallOptions options) {
      return serviceInterface.cast(Proxy.newProxyInstance(getClass().getClassLoader(),
          new Class<?>[] {RegistryService.class}, (proxy, method, args) -> {
            if (method.getDeclaringClass() == Object.class) {
              return method.getName().equals("equals") ? proxy == args[0]
                  : method.getName().equals("hashCode") ? System.identityHashCode(proxy) : "scripted registry";
            }
            callsReceived++;
            return answer(method.getName());
          }));
    }

    @Override
    public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
      throw new UnsupportedOperationException();
    }

    @Override
    public io.triplerpc.GenericService generic(String serviceName, CallOptions options) {
      throw new UnsupportedOperationException();
    }

    @Override
    public boolean isConnectionActive() {
      return true;
    }

    @Override
    public WriteStats writeStats() {
      return new WriteStats(0, 0);
    }

    @Override
    public void close() {
      closes++;
    }
  }
}
