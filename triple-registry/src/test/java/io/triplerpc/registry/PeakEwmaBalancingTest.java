package io.triplerpc.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link LoadBalancing#PEAK_EWMA} through {@link Discovery}, with two real servers on loopback
 * registered in an {@link InProcessRegistry}: "fast" answers at once, "slow" 50 ms later (its answer
 * completed from a scheduler, so no thread sleeps). The counts asserted leave room for a loaded
 * machine; nothing is timed.
 */
class PeakEwmaBalancingTest {

  private static final long SLOW_MILLIS = 50;

  private final InProcessRegistry registry = new InProcessRegistry();
  private final ScheduledExecutorService answers = Executors.newSingleThreadScheduledExecutor();
  private final List<TripleServer> servers = new ArrayList<>();
  private final List<TripleClient> clients = new ArrayList<>();

  @AfterEach
  void stop() throws InterruptedException {
    clients.forEach(TripleClient::close);
    for (TripleServer server : servers) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(5));
    }
    registry.close();
    answers.shutdownNow();
  }

  private <T> void provider(Class<T> service, T implementation) {
    servers.add(TripleServer.builder().host("127.0.0.1").port(0)
        .addService(service, implementation)
        .registration(Registration.to(registry).application("peak-app").build())
        .build().start());
  }

  private void fastAndSlowProviders() {
    provider(Whoami.class, Whoami.named("fast"));
    WhoamiAsync slow = caller -> {
      CompletableFuture<String> answer = new CompletableFuture<>();
      answers.schedule(() -> answer.complete("slow"), SLOW_MILLIS, TimeUnit.MILLISECONDS);
      return answer;
    };
    provider(WhoamiAsync.class, slow);
  }

  /** A consumer through {@code discovery}, once both instances are in use and called. */
  private Whoami consumer(Discovery.Builder discovery) throws InterruptedException {
    RecordingDiscoveryObserver seen = new RecordingDiscoveryObserver();
    TripleClient client = TripleClient.builder().cluster(discovery.observer(seen).build()).build();
    clients.add(client);
    Whoami whoami = client.proxy(Whoami.class);
    Set<String> called = new HashSet<>();
    called.add(whoami.who("test"));
    seen.awaitInstances("triple.test.Whoami", 2);
    // Both in use; the balancer decides when each is called first (peak EWMA by latency: a few calls).
    for (int i = 0; i < 100 && called.size() < 2; i++) {
      called.add(whoami.who("test"));
    }
    assertEquals(Set.of("fast", "slow"), called, "both instances are called");
    return whoami;
  }

  private static Map<String, Integer> tally(Whoami whoami, int calls) {
    Map<String, Integer> counts = new TreeMap<>();
    for (int i = 0; i < calls; i++) {
      counts.merge(whoami.who("test"), 1, Integer::sum);
    }
    return counts;
  }

  @Test
  void peakEwmaSendsMostCallsToTheFastInstanceWhereRoundRobinSplitsThem() throws Exception {
    fastAndSlowProviders();

    Whoami roundRobin = consumer(Discovery.using(registry).loadBalancing(LoadBalancing.ROUND_ROBIN));
    assertEquals(Map.of("fast", 20, "slow", 20), tally(roundRobin, 40));

    // A decay of 1 s rather than 10: a hiccup of the machine during a call to the fast instance (a
    // peak above 50 ms) sends calls to the slow one for a fraction of a second, not for several.
    Whoami peakEwma = consumer(Discovery.using(registry).loadBalancing(LoadBalancing.PEAK_EWMA)
        .peakEwmaDecay(Duration.ofSeconds(1)));
    Map<String, Integer> counts = tally(peakEwma, 200);
    assertTrue(counts.getOrDefault("fast", 0) >= 160, "at least 80 % to the fast instance: " + counts);
  }

  @Test
  void peakEwmaDecayIsChecked() {
    Discovery.Builder builder = Discovery.using(registry);
    assertEquals("peakEwmaDecay must be positive: PT0S",
        assertThrows(IllegalArgumentException.class, () -> builder.peakEwmaDecay(Duration.ZERO)).getMessage());
    assertThrows(IllegalArgumentException.class, () -> builder.peakEwmaDecay(Duration.ofMillis(-1)));
    assertThrows(NullPointerException.class, () -> builder.peakEwmaDecay(null));
  }
}
