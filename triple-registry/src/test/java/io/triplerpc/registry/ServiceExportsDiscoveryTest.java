package io.triplerpc.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.CallOptions;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Versions and groups in discovery: a consumer's directory holds only the instances whose metadata lists
 * the export it calls (version and group matched exactly, {@code "*"} for any), and a call through a
 * wildcard names the export the chosen instance serves, so that the instance routes it.
 */
class ServiceExportsDiscoveryTest {

  private static final String WHOAMI = "triple.test.Whoami";

  private final InProcessRegistry registry = new InProcessRegistry();
  private final List<TripleServer> servers = new ArrayList<>();
  private final List<TripleClient> clients = new ArrayList<>();
  /** Told each consumer's instances as they change: what the tests await. */
  private final RecordingDiscoveryObserver seen = new RecordingDiscoveryObserver();

  @AfterEach
  void stop() throws InterruptedException {
    clients.forEach(TripleClient::close);
    for (TripleServer server : servers) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(5));
    }
    registry.close();
  }

  /** An instance of one application serving Whoami in each {version, group, answer} export given. */
  private void provider(String application, String[]... exports) {
    TripleServer.Builder builder = TripleServer.builder().host("127.0.0.1").port(0);
    for (String[] export : exports) {
      builder.addService(Whoami.class, Whoami.named(export[2]), export[0], export[1]);
    }
    servers.add(builder.registration(Registration.to(registry).application(application).build()).build().start());
  }

  private Whoami consumer(String version, String group) {
    TripleClient client = TripleClient.builder()
        .cluster(Discovery.using(registry).observer(seen).loadBalancing(LoadBalancing.ROUND_ROBIN).build()).build();
    clients.add(client);
    return client.proxy(Whoami.class, CallOptions.DEFAULT.withServiceVersion(version).withServiceGroup(group));
  }

  private static Map<String, Integer> tally(Whoami whoami, int calls) {
    Map<String, Integer> counts = new TreeMap<>();
    for (int i = 0; i < calls; i++) {
      counts.merge(whoami.who("test"), 1, Integer::sum);
    }
    return counts;
  }

  @Test
  void aConsumerOnlyReachesInstancesServingItsExport() throws Exception {
    provider("app", new String[] {"1.0.0", "g1", "a-v1"});
    provider("app", new String[] {"2.0.0", "", "b-v2"});
    provider("app", new String[] {"1.0.0", "g1", "c-v1"}, new String[] {"2.0.0", "", "c-v2"});

    Whoami v1 = consumer("1.0.0", "g1");
    seen.awaitSize(RecordingDiscoveryObserver.export(WHOAMI, "1.0.0", "g1"), 2);
    assertEquals(Set.of("a-v1", "c-v1"), tally(v1, 60).keySet(), "never the instance serving only 2.0.0");

    Whoami v2 = consumer("2.0.0", "");
    seen.awaitSize(RecordingDiscoveryObserver.export(WHOAMI, "2.0.0", ""), 2);
    assertEquals(Set.of("b-v2", "c-v2"), tally(v2, 60).keySet());
  }

  @Test
  void anExportNoInstanceServesFailsNamingIt() {
    provider("app", new String[] {"2.0.0", "", "b-v2"});
    Whoami v3 = consumer("3.0.0", "");
    StatusException e = assertThrows(StatusException.class, () -> v3.who("test"));
    assertEquals(Status.Code.UNAVAILABLE, e.status().code());
    assertTrue(e.status().description().contains("triple.test.Whoami (version 3.0.0, no group)"),
        e.status().description());
  }

  @Test
  void aWildcardCallNamesTheExportOfTheChosenInstance() throws Exception {
    provider("app", new String[] {"", "", "a-plain"}, new String[] {"1.0.0", "g1", "a-v1"});
    provider("app", new String[] {"2.0.0", "", "b-v2"});
    Whoami any = consumer("*", "*");
    seen.awaitSize(RecordingDiscoveryObserver.export(WHOAMI, "*", "*"), 2);
    assertEquals(Map.of("a-plain", 30, "b-v2", 30), tally(any, 60), "the first export each instance lists");

    // Without the export named, the first instance would answer from its default export, a-plain.
    Whoami anyVersionOfG1 = consumer("*", "g1");
    assertEquals(Map.of("a-v1", 10), tally(anyVersionOfG1, 10));
  }
}
