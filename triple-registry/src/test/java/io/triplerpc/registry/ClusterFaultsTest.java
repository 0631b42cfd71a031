package io.triplerpc.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.CallOptions;
import io.triplerpc.HedgingPolicy;
import io.triplerpc.RetryPolicy;
import io.triplerpc.ServerContext;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import io.triplerpc.spi.ServerInfo;
import io.triplerpc.testing.FaultProxy;
import io.triplerpc.testing.ManualClock;
import io.triplerpc.testing.Signal;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The client's resilience policies on a cluster found in a registry, each instance a real server behind a
 * {@link FaultProxy} (the registry holds the proxies' addresses): a retry policy moves a call cut by a
 * connection reset, or by its server stopping, to another instance; hedging answers from the fast
 * instance and cancels the attempt left on the slow one, also when the slow one is blackholed; outlier
 * ejection takes out an instance whose answers come too late and brings it back once it is healthy again.
 */
class ClusterFaultsTest {

  private static final String APP = "faults-app";
  private static final Duration INTERVAL = Duration.ofSeconds(1);
  private static final Duration BASE = Duration.ofSeconds(3);

  @TripleService(name = "triple.test.Faulty")
  public interface Faulty {
    /** The serving instance's name, or never if it holds its calls. */
    CompletableFuture<String> name(String caller);
  }

  private final InProcessRegistry registry = new InProcessRegistry();
  private final ManualClock clock = new ManualClock();
  private final List<Instance> instances = new ArrayList<>();
  private final List<TripleClient> clients = new ArrayList<>();
  /** Fired when an instance holds a call, when a held call ends, and when a call {@link #heldBy} sent completes. */
  private final Signal progress = new Signal();
  private final MetadataInfo metadata = MetadataInfo.of(APP,
      List.of(new ServerInfo.Service("triple.test.Faulty", List.of("name"), "hessian2", "", "")));

  @AfterEach
  void stop() throws InterruptedException {
    clients.forEach(TripleClient::close);
    for (Instance instance : instances) {
      instance.proxy.close();
      instance.server.shutdownNow();
      instance.server.awaitTermination(Duration.ofSeconds(5));
    }
    registry.close();
    clock.close();
  }

  /** A server behind a proxy, registered under the proxy's address; it answers or holds its calls. */
  private final class Instance implements Faulty {

    final String name;
    final TripleServer server;
    final FaultProxy proxy;
    final AtomicInteger calls = new AtomicInteger();
    final List<String> previousAttempts = Collections.synchronizedList(new ArrayList<>());
    final List<ServerContext> held = new CopyOnWriteArrayList<>();
    volatile boolean holding;

    Instance(String name) {
      this.name = name;
      server = TripleServer.builder().host("127.0.0.1").port(0).addService(Faulty.class, this).build().start();
      proxy = FaultProxy.start(new InetSocketAddress("127.0.0.1", server.port()));
      instances.add(this);
      registry.publishMetadata(metadata).join();
      registry.map("triple.test.Faulty", APP).join();
      registry.register(ServiceInstance.of(APP, "127.0.0.1", proxy.port(), metadata.revision())).join();
    }

    @Override
    public CompletableFuture<String> name(String caller) {
      calls.incrementAndGet();
      ServerContext context = ServerContext.current();
      previousAttempts.add(String.valueOf(context.requestHeaders().get("grpc-previous-rpc-attempts")));
      if (holding) {
        context.addEndListener(status -> progress.fire());
        held.add(context);
        progress.fire();
        return new CompletableFuture<>();
      }
      return CompletableFuture.completedFuture(name);
    }
  }

  private Faulty consumer(TripleClient.Builder builder, Discovery.Builder discovery) throws Exception {
    RecordingDiscoveryObserver seen = new RecordingDiscoveryObserver();
    TripleClient client = builder.cluster(discovery.observer(seen).loadBalancing(LoadBalancing.ROUND_ROBIN).retries(0).build())
        .build();
    clients.add(client);
    Faulty faulty = client.proxy(Faulty.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10)));
    // The first call waits for the instances (it may find only some of them in use); once all are, round
    // robin gives each one of the next calls, as many as there are instances. Under a hedging policy on a slow
    // machine a round can skip one: a call's hedge takes the next instance's turn and is cancelled before it is
    // sent when the first attempt answers. So calls go on until each instance has taken one (a bounded number).
    List<Integer> before = instances.stream().map(instance -> instance.calls.get()).toList();
    faulty.name("warm-up").join();
    seen.awaitInstances("triple.test.Faulty", instances.size());
    for (int call = 0; call < 20 * instances.size() && !eachCalledSince(before); call++) {
      faulty.name("warm-up").join();
    }
    for (int i = 0; i < instances.size(); i++) {
      assertTrue(instances.get(i).calls.get() > before.get(i), instances.get(i).name + " is called");
    }
    return faulty;
  }

  private boolean eachCalledSince(List<Integer> before) {
    for (int i = 0; i < instances.size(); i++) {
      if (instances.get(i).calls.get() <= before.get(i)) {
        return false;
      }
    }
    return true;
  }

  /** Calls, one after another, until one call reaches {@code instance} (which holds it) and returns that call. */
  private CompletableFuture<String> heldBy(Faulty faulty, Instance instance) {
    int before = instance.held.size();
    List<CompletableFuture<String>> sent = new ArrayList<>();
    progress.await(() -> {
      if (sent.isEmpty() || sent.get(sent.size() - 1).isDone()) {
        CompletableFuture<String> call = faulty.name("test");
        sent.add(call);
        call.whenComplete((name, failure) -> progress.fire());
      }
      return instance.held.size() > before;
    }, instance.name + " holds a call");
    return sent.get(sent.size() - 1);
  }

  @Test
  void aRetryPolicyMovesACallCutByAResetToAnotherInstance() throws Exception {
    Instance a = new Instance("a");
    Instance b = new Instance("b");
    RetryPolicy policy = RetryPolicy.builder().maxAttempts(3).initialBackoff(Duration.ofMillis(5)).build();
    Faulty retrying = consumer(TripleClient.builder().retryPolicy(policy, "triple.test.Faulty"), Discovery.using(registry));
    Faulty plain = consumer(TripleClient.builder(), Discovery.using(registry));
    a.holding = true;

    CompletableFuture<String> cut = heldBy(plain, a);
    a.proxy.reset();
    CompletionException failed = assertThrows(CompletionException.class, cut::join);
    assertEquals(Status.Code.UNAVAILABLE, ((StatusException) failed.getCause()).status().code(),
        "without a policy (and the cluster's own retries off) the reset fails the call");

    CompletableFuture<String> retried = heldBy(retrying, a);
    // Calls before it may have gone to b (a sits out a second after the first reset); none is in flight.
    b.previousAttempts.clear();
    a.proxy.reset();
    assertEquals("b", retried.get(10, TimeUnit.SECONDS), "the policy's second attempt goes to b");
    assertEquals(List.of("1"), b.previousAttempts, "b was told of the attempt before");
  }

  @Test
  void aRetryPolicyMovesACallWhoseServerStopsMidCallToAnotherInstance() throws Exception {
    Instance a = new Instance("a");
    Instance b = new Instance("b");
    RetryPolicy policy = RetryPolicy.builder().maxAttempts(3).initialBackoff(Duration.ofMillis(5)).build();
    Faulty retrying = consumer(TripleClient.builder().retryPolicy(policy, "triple.test.Faulty"), Discovery.using(registry));
    a.holding = true;

    CompletableFuture<String> call = heldBy(retrying, a);
    b.previousAttempts.clear();
    a.server.shutdownNow();
    assertEquals("b", call.get(10, TimeUnit.SECONDS), "the call a was serving when it stopped answers from b");
    assertEquals(List.of("1"), b.previousAttempts);
  }

  @Test
  void hedgingAnswersFromTheFastInstanceAndCancelsTheAttemptOnTheSlowOne() throws Exception {
    Instance slow = new Instance("slow");
    Instance fast = new Instance("fast");
    HedgingPolicy policy = HedgingPolicy.builder().maxAttempts(2).hedgingDelay(Duration.ofMillis(20)).build();
    Faulty hedged = consumer(TripleClient.builder().hedgingPolicy(policy, "triple.test.Faulty"), Discovery.using(registry));
    slow.holding = true;

    for (int i = 0; i < 6; i++) {
      assertEquals("fast", hedged.name("test").get(10, TimeUnit.SECONDS));
    }
    assertTrue(slow.held.size() >= 2, "round robin sent calls to the slow instance first: " + slow.held.size());
    progress.await(() -> slow.held.stream().allMatch(ServerContext::isCancelled),
        "every attempt the slow instance holds is cancelled once the hedge won");

    // Blackholed: the slow instance's attempts vanish in the proxy, and the hedges still answer.
    slow.proxy.pause();
    long before = slow.proxy.bytesForwarded(FaultProxy.Direction.UPSTREAM);
    for (int i = 0; i < 4; i++) {
      assertEquals("fast", hedged.name("test").get(10, TimeUnit.SECONDS));
    }
    assertEquals(before, slow.proxy.bytesForwarded(FaultProxy.Direction.UPSTREAM), "nothing reached the slow instance");
    slow.proxy.pass();
    progress.await(() -> slow.held.stream().allMatch(ServerContext::isCancelled),
        "once the link heals, the attempts that were held arrive cancelled");
  }

  @Test
  void anInstanceWhoseAnswersComeTooLateIsEjectedAndComesBackOnceHealed() throws Exception {
    Instance late = new Instance("late");
    Instance ok = new Instance("ok");
    Faulty faulty = consumer(TripleClient.builder(), Discovery.using(registry)
        .outlierDetection(OutlierDetection.builder().interval(INTERVAL).baseEjectionTime(BASE).consecutiveFailures(3).build())
        .outlierClock(clock.scheduler(), clock::nanoTime));
    Faulty hurried = clients.get(0).proxy(Faulty.class,
        CallOptions.DEFAULT.withTimeout(Duration.ofMillis(200)));
    late.proxy.delay(FaultProxy.Direction.DOWNSTREAM, Duration.ofSeconds(1));

    int failures = 0;
    for (int i = 0; i < 8; i++) {
      try {
        hurried.name("test").join();
      } catch (CompletionException e) {
        assertEquals(Status.Code.DEADLINE_EXCEEDED, ((StatusException) e.getCause()).status().code());
        failures++;
      }
    }
    assertEquals(4, failures, "round robin: every other call waits on the late instance past its deadline");
    clock.advance(INTERVAL);
    int lateBefore = late.calls.get();
    for (int i = 0; i < 8; i++) {
      assertEquals("ok", hurried.name("test").join(), "the late instance is ejected");
    }
    assertEquals(lateBefore, late.calls.get());

    // Healed; the answers already delayed still arrive first (a link keeps its order), then the new ones.
    late.proxy.delay(FaultProxy.Direction.DOWNSTREAM, Duration.ZERO);
    clock.advance(BASE);
    List<String> names = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      names.add(faulty.name("test").get(10, TimeUnit.SECONDS));
    }
    assertEquals(4, Collections.frequency(names, "late"), "back in rotation after its ejection time: " + names);
  }
}
