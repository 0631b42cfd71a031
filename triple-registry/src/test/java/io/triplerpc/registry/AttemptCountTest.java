package io.triplerpc.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.triplerpc.CallOptions;
import io.triplerpc.HedgingPolicy;
import io.triplerpc.RetryPolicy;
import io.triplerpc.ServerContext;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleMethod;
import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import io.triplerpc.spi.ServerInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every kind of retry is one loop with one count: three real servers found through discovery, each
 * answering UNAVAILABLE, and the attempts they see counted exactly for each policy a call can have
 * (a retry policy, hedging, none with discovery's failover, none without). A retry policy's
 * {@code maxAttempts} is the number of attempts the servers see, however many instances there are.
 */
class AttemptCountTest {

  private static final String APP = "unavailable-app";

  @TripleService(name = "triple.test.Unavailable")
  public interface Unavailable {
    @TripleMethod(idempotent = true)
    String read(String key);

    String write(String key);
  }

  private final InProcessRegistry registry = new InProcessRegistry();
  private final List<TripleServer> servers = new ArrayList<>();
  private final List<TripleClient> clients = new ArrayList<>();
  /** Each attempt a server saw: its port and the attempts before it, as the client counted them. */
  private final List<String> seen = Collections.synchronizedList(new ArrayList<>());

  @AfterEach
  void stop() throws InterruptedException {
    clients.forEach(TripleClient::close);
    for (TripleServer server : servers) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(5));
    }
    registry.close();
  }

  /** Three registered servers, each failing every call with UNAVAILABLE. */
  private void threeFailingServers() {
    MetadataInfo metadata = MetadataInfo.of(APP,
        List.of(new ServerInfo.Service("triple.test.Unavailable", List.of("read", "write"), "hessian2", "", "")));
    registry.publishMetadata(metadata).join();
    registry.map("triple.test.Unavailable", APP).join();
    for (int i = 0; i < 3; i++) {
      TripleServer[] self = new TripleServer[1];
      Unavailable failing = new Unavailable() {
        @Override
        public String read(String key) {
          return fail();
        }

        @Override
        public String write(String key) {
          return fail();
        }

        private String fail() {
          String previous = ServerContext.current().requestHeaders().get("grpc-previous-rpc-attempts");
          seen.add(self[0].port() + "#" + (previous == null ? "0" : previous));
          throw Status.UNAVAILABLE.withDescription("down for the test").asException();
        }
      };
      self[0] = TripleServer.builder().host("127.0.0.1").port(0).addService(Unavailable.class, failing).build().start();
      servers.add(self[0]);
      registry.register(ServiceInstance.of(APP, "127.0.0.1", self[0].port(), metadata.revision())).join();
    }
  }

  private Unavailable consumer(TripleClient.Builder builder, Discovery.Builder discovery) {
    TripleClient client = builder.cluster(discovery.loadBalancing(LoadBalancing.ROUND_ROBIN).build()).build();
    clients.add(client);
    return client.proxy(Unavailable.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10)));
  }

  private static RetryPolicy retries(int maxAttempts) {
    return RetryPolicy.builder().maxAttempts(maxAttempts).initialBackoff(Duration.ofMillis(1))
        .maxBackoff(Duration.ofMillis(2)).backoffMultiplier(2).retryableStatusCodes(Status.Code.UNAVAILABLE).build();
  }

  private void failsWithUnavailable(Runnable call) {
    StatusException failure = assertThrows(StatusException.class, call::run);
    assertEquals(Status.Code.UNAVAILABLE, failure.status().code(), failure::toString);
  }

  /** The attempts-before counts the servers saw, in order. */
  private List<Integer> previousCounts() {
    return seen.stream().map(s -> Integer.parseInt(s.substring(s.indexOf('#') + 1))).sorted().toList();
  }

  private int serversReached() {
    return seen.stream().map(s -> s.substring(0, s.indexOf('#'))).collect(Collectors.toCollection(TreeSet::new)).size();
  }

  @Test
  void aFiveAttemptPolicyOverThreeFailingInstancesReachesThemFiveTimes() {
    threeFailingServers();
    // Discovery's failover keeps its default of two retries: it adds no attempt to a policy's.
    Unavailable unavailable = consumer(TripleClient.builder().retryPolicy(retries(5), "triple.test.Unavailable"),
        Discovery.using(registry));
    failsWithUnavailable(() -> unavailable.read("k"));
    assertEquals(5, seen.size(), seen::toString);
    assertEquals(List.of(0, 1, 2, 3, 4), previousCounts(), "every attempt counted, once");
    assertEquals(3, serversReached(), "retries go to instances not tried while one is left");
  }

  @Test
  void aPolicyCountsTheSameForACallThatIsNotIdempotent() {
    threeFailingServers();
    Unavailable unavailable = consumer(TripleClient.builder().retryPolicy(retries(4), "triple.test.Unavailable"),
        Discovery.using(registry).retries(2));
    failsWithUnavailable(() -> unavailable.write("k"));
    assertEquals(4, seen.size(), seen::toString);
    assertEquals(List.of(0, 1, 2, 3), previousCounts());
  }

  @Test
  void hedgingMakesItsAttemptsAndNoMore() {
    threeFailingServers();
    HedgingPolicy hedging = HedgingPolicy.builder().maxAttempts(3).hedgingDelay(Duration.ofMillis(1))
        .nonFatalStatusCodes(Status.Code.UNAVAILABLE).build();
    Unavailable unavailable = consumer(TripleClient.builder().hedgingPolicy(hedging, "triple.test.Unavailable"),
        Discovery.using(registry));
    failsWithUnavailable(() -> unavailable.read("k"));
    assertEquals(3, seen.size(), seen::toString);
    assertEquals(List.of(0, 1, 2), previousCounts());
    assertEquals(3, serversReached(), "each hedge on another instance");
  }

  @Test
  void withoutAPolicyDiscoveryFailsOverAnIdempotentCallToEachOtherInstance() {
    threeFailingServers();
    Unavailable unavailable = consumer(TripleClient.builder(), Discovery.using(registry));
    failsWithUnavailable(() -> unavailable.read("k"));
    assertEquals(3, seen.size(), "one attempt and discovery's two retries: " + seen);
    assertEquals(List.of(0, 1, 2), previousCounts());
    assertEquals(3, serversReached());
  }

  @Test
  void withoutAPolicyOrFailoverACallIsMadeOnce() {
    threeFailingServers();
    Unavailable noFailover = consumer(TripleClient.builder(), Discovery.using(registry).retries(0));
    failsWithUnavailable(() -> noFailover.read("k"));
    assertEquals(1, seen.size(), seen::toString);

    seen.clear();
    Unavailable notIdempotent = consumer(TripleClient.builder(), Discovery.using(registry));
    failsWithUnavailable(() -> notIdempotent.write("k"));
    assertEquals(1, seen.size(), "failover never repeats a call that is not idempotent: " + seen);
  }
}
