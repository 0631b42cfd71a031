package io.triplerpc.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.testing.ManualClock;
import io.triplerpc.testing.OnePortServers;
import io.triplerpc.testing.Signal;
import io.triplerpc.testing.TestDnsServer;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code dns:///} targets against a real DNS server over UDP on loopback ({@link TestDnsServer}) naming
 * real servers on 127.0.0.1 to 127.0.0.4, one port (A records carry none): calls spread over every
 * address, follow the records when the name is resolved again (no sooner than the minimum interval, on
 * a {@link ManualClock}), keep the last good addresses through an empty answer, and fail naming the
 * name when it never resolved.
 */
class DnsDiscoveryTest {

  private static final String NAME = "users.test";

  private final ManualClock clock = new ManualClock();
  private final List<TripleServer> servers = new ArrayList<>();
  private final List<TripleClient> clients = new ArrayList<>();
  private TestDnsServer dns;
  private int port;

  @BeforeEach
  void start() throws Exception {
    dns = TestDnsServer.start();
    servers.addAll(OnePortServers.start(List.of("127.0.0.1", "127.0.0.2", "127.0.0.3", "127.0.0.4"),
        (host, port) -> TripleServer.builder().host(host).port(port).addService(Whoami.class, Whoami.named(host))
            .build().start(),
        TripleServer::port, TripleServer::shutdownNow));
    port = servers.get(0).port();
  }

  @AfterEach
  void stop() {
    clients.forEach(TripleClient::close);
    servers.forEach(TripleServer::shutdownNow);
    dns.close();
    clock.close();
  }

  private static InetAddress loopback(int last) throws Exception {
    return InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) last});
  }

  private Whoami consumer(Discovery discovery) {
    TripleClient client = TripleClient.builder().cluster(discovery).build();
    clients.add(client);
    return client.proxy(Whoami.class);
  }

  /** An observer that counts the pushes the directory applied, and fires {@code applied} after each. */
  private static DiscoveryObserver countingPushes(AtomicInteger pushes, Signal applied) {
    return new DiscoveryObserver() {
      @Override
      public void pushApplied(String application, long lagNanos) {
        pushes.incrementAndGet();
        applied.fire();
      }
    };
  }

  private static Map<String, Integer> tally(Whoami whoami, int calls) {
    Map<String, Integer> answered = new TreeMap<>();
    for (int i = 0; i < calls; i++) {
      answered.merge(whoami.who("test"), 1, Integer::sum);
    }
    return answered;
  }

  @Test
  void callsSpreadOverEveryAddressAndFollowTheRecords() throws Exception {
    dns.set(NAME, loopback(1), loopback(2), loopback(3));
    AtomicReference<DnsRegistry> registry = new AtomicReference<>();
    Signal applied = new Signal();
    AtomicInteger pushes = new AtomicInteger();
    Whoami whoami = consumer(Discovery.connecting(() -> {
          registry.set(DnsRegistry.builder(NAME, port).nameServer(dns.address())
              .clock(clock.scheduler(), clock::nanoTime).build());
          return registry.get();
        })
        .loadBalancing(LoadBalancing.ROUND_ROBIN)
        .observer(countingPushes(pushes, applied))
        .build());

    assertEquals(Map.of("127.0.0.1", 10, "127.0.0.2", 10, "127.0.0.3", 10), tally(whoami, 30));
    int queries = dns.queries();
    int pushed = pushes.get();

    dns.set(NAME, loopback(1), loopback(2), loopback(4));
    registry.get().refresh();
    clock.runPending();
    assertEquals(queries, dns.queries(), "no resolution within 30 s of the last one");
    assertEquals(Map.of("127.0.0.1", 10, "127.0.0.2", 10, "127.0.0.3", 10), tally(whoami, 30));

    clock.advance(Duration.ofSeconds(30));
    applied.await(() -> pushes.get() > pushed, "the new records reach the directory");
    assertEquals(queries + 2, dns.queries(), "one resolution: an A and an AAAA query");
    assertEquals(Map.of("127.0.0.1", 10, "127.0.0.2", 10, "127.0.0.4", 10), tally(whoami, 30),
        "the removed address gets no call, the new one its share at once");
  }

  @Test
  void aServerThatGoesAwayMakesTheNameResolveAgain() throws Exception {
    dns.set(NAME, loopback(1), loopback(2), loopback(3));
    Signal applied = new Signal();
    AtomicInteger pushes = new AtomicInteger();
    // No interval: the test sees that the GOAWAY asks for a resolution (the interval has a test of its own).
    Whoami whoami = consumer(Discovery.connecting(() -> DnsRegistry.builder(NAME, port).nameServer(dns.address())
            .minResolveInterval(Duration.ZERO).build())
        .loadBalancing(LoadBalancing.ROUND_ROBIN)
        .observer(countingPushes(pushes, applied))
        .build());
    assertEquals(Map.of("127.0.0.1", 4, "127.0.0.2", 4, "127.0.0.3", 4), tally(whoami, 12));
    int queries = dns.queries();
    int pushed = pushes.get();

    // As Kubernetes deletes a pod: out of the DNS answer, then its server drains (GOAWAY).
    dns.set(NAME, loopback(1), loopback(2));
    servers.get(2).shutdown();
    applied.await(() -> pushes.get() > pushed, "the server's GOAWAY has the name resolved again, without it");
    assertTrue(dns.queries() >= queries + 2);
    assertEquals(Map.of("127.0.0.1", 6, "127.0.0.2", 6), tally(whoami, 12), "no call failed or went to the server gone");
  }

  @Test
  void anEmptyAnswerKeepsTheLastGoodAddresses() throws Exception {
    dns.set(NAME, loopback(1), loopback(2));
    AtomicReference<DnsRegistry> registry = new AtomicReference<>();
    Whoami whoami = consumer(Discovery.connecting(() -> {
          registry.set(DnsRegistry.builder(NAME, port).nameServer(dns.address()).minResolveInterval(Duration.ZERO)
              .clock(clock.scheduler(), clock::nanoTime).build());
          return registry.get();
        })
        .loadBalancing(LoadBalancing.ROUND_ROBIN).build());
    assertEquals(Map.of("127.0.0.1", 5, "127.0.0.2", 5), tally(whoami, 10));

    int queries = dns.queries();
    dns.set(NAME);
    registry.get().refresh();
    dns.queried().await(() -> dns.queries() >= queries + 2, "the name is resolved again");
    assertEquals(Map.of("127.0.0.1", 5, "127.0.0.2", 5), tally(whoami, 10));

    int again = dns.queries();
    dns.remove(NAME);
    registry.get().refresh();
    dns.queried().await(() -> dns.queries() >= again + 2, "the name is resolved again");
    assertEquals(Map.of("127.0.0.1", 5, "127.0.0.2", 5), tally(whoami, 10), "NXDOMAIN keeps them too");
  }

  @Test
  void aNameThatNeverResolvedFailsCallsNamingIt() {
    TripleClient client = TripleClient.builder()
        .address("dns://127.0.0.1:" + dns.address().getPort() + "/nowhere.test:" + port).build();
    clients.add(client);
    StatusException failed = assertThrows(StatusException.class, () -> client.proxy(Whoami.class).who("test"));
    assertEquals(Status.Code.UNAVAILABLE, failed.status().code());
    assertTrue(failed.getMessage().contains("dns:///nowhere.test:" + port), failed.getMessage());
    assertTrue(failed.getMessage().contains("nowhere.test"), failed.getMessage());
  }

  @Test
  void theTargetBalancesRoundRobinOverTheNamesAddresses() throws Exception {
    dns.set(NAME, loopback(1), loopback(2), loopback(3));
    TripleClient client = TripleClient.builder()
        .address("dns://127.0.0.1:" + dns.address().getPort() + "/" + NAME + ":" + port).build();
    clients.add(client);
    assertEquals(Map.of("127.0.0.1", 4, "127.0.0.2", 4, "127.0.0.3", 4), tally(client.proxy(Whoami.class), 12));
  }

  @Test
  void pickFirstSendsEveryCallToOneAddressUntilItGoesAway() throws Exception {
    dns.set(NAME, loopback(1), loopback(2), loopback(3));
    TripleClient client = TripleClient.builder()
        .address("dns://127.0.0.1:" + dns.address().getPort() + "/" + NAME + ":" + port + "?lb=pick_first").build();
    clients.add(client);
    Whoami whoami = client.proxy(Whoami.class);
    Map<String, Integer> before = tally(whoami, 10);
    assertEquals(1, before.size(), "one address takes every call: " + before);
    String chosen = before.keySet().iterator().next();
    servers.get(Integer.parseInt(chosen.substring(chosen.lastIndexOf('.') + 1)) - 1).shutdown();
    // Calls still succeed (the one that meets the GOAWAY is retried transparently), then stick to another.
    Map<String, Integer> after = new TreeMap<>();
    for (int i = 0; i < 20; i++) {
      after.merge(whoami.whoIdempotent("test"), 1, Integer::sum);
    }
    after.remove(chosen);
    assertEquals(1, after.size(), "the calls moved to one other address: " + after);
  }

  @Test
  void malformedTargetsAreRefusedNamingTheForm() {
    for (String target : new String[] {"dns:///users.test", "dns:///users.test:http", "dns:///:50051",
        "dns:///users.test:50051?lb=random"}) {
      IllegalArgumentException refused =
          assertThrows(IllegalArgumentException.class, () -> TripleClient.builder().address(target));
      assertTrue(refused.getMessage().contains("dns:///"), refused.getMessage());
    }
  }
}
