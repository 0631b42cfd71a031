package io.triplerpc.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A Triple provider obeying the dynamic configuration's {@code side: provider} items
 * ({@link Registration.Builder#rules}), with two real servers in an {@link InProcessRegistry}: a weight
 * becomes the instance's registered weight, a disabled service leaves the instance's published metadata (a
 * consumer's calls of it go elsewhere while its other service is still called there), every service disabled
 * withdraws the instance, and each comes back when the rule goes. Items for consumers or other providers
 * change nothing.
 */
class ProviderConfiguratorsTest {

  private static final String APP = "cfg-provider";
  private static final String APP_KEY = RuleKeys.applicationConfigurators(APP);
  private static final String WHOAMI_KEY = RuleKeys.serviceConfigurators("triple.test.Whoami", "", "");

  /** A second service of the same providers. */
  @TripleService(name = "triple.test.Echo")
  public interface Echo {
    String echo(String text);
  }

  private final InProcessRegistry registry = new InProcessRegistry();
  private final MapRuleSource rules = new MapRuleSource();
  private final Map<String, TripleServer> servers = new LinkedHashMap<>();
  private final Instances instances = new Instances();
  private final RecordingDiscoveryObserver seen = new RecordingDiscoveryObserver();
  private TripleClient client;
  private Subscription subscription;

  /** The application's instances in the registry, as it pushes them. */
  private static final class Instances implements InstanceListener {
    private final Map<String, ServiceInstance> byAddress = new HashMap<>();

    @Override
    public synchronized void onResync(Collection<ServiceInstance> all) {
      byAddress.clear();
      all.forEach(i -> byAddress.put(i.address(), i));
      notifyAll();
    }

    @Override
    public synchronized void onChanges(List<InstanceChange> changes) {
      for (InstanceChange change : changes) {
        if (change.kind() == InstanceChange.Kind.REMOVED) {
          byAddress.remove(change.instance().address());
        } else {
          byAddress.put(change.instance().address(), change.instance());
        }
      }
      notifyAll();
    }

    synchronized Map<String, ServiceInstance> await(Predicate<Map<String, ServiceInstance>> done, String what)
        throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (!done.test(byAddress)) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw new AssertionError("not " + what + ": " + byAddress);
        }
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
      return Map.copyOf(byAddress);
    }
  }

  @BeforeEach
  void start() throws InterruptedException {
    for (String name : List.of("a", "b")) {
      servers.put(name, TripleServer.builder().host("127.0.0.1").port(0)
          .addService(Whoami.class, Whoami.named(name))
          .addService(Echo.class, text -> name)
          .registration(Registration.to(registry).application(APP).rules(rules).build())
          .build().start());
    }
    subscription = registry.subscribe(APP, instances);
    instances.await(m -> m.size() == 2, "two instances");
    client = TripleClient.builder()
        .cluster(Discovery.using(registry).coalesceWindow(Duration.ZERO).warmup(Duration.ZERO).observer(seen).build())
        .build();
    client.proxy(Whoami.class).who("first");
    client.proxy(Echo.class).echo("first");
    seen.awaitInstances("triple.test.Whoami", 2);
    seen.awaitInstances("triple.test.Echo", 2);
  }

  @AfterEach
  void stop() throws InterruptedException {
    client.close();
    subscription.close();
    for (TripleServer server : servers.values()) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(5));
    }
    registry.close();
  }

  private String address(String name) {
    return "127.0.0.1:" + servers.get(name).localAddress().getPort();
  }

  private static String rule(String scope, String key, String items) {
    return "configVersion: v3.0\nscope: " + scope + "\nkey: " + key + "\nenabled: true\nconfigs:\n" + items;
  }

  private Map<String, Integer> whoCounts() {
    Whoami whoami = client.proxy(Whoami.class);
    Map<String, Integer> counts = new TreeMap<>();
    for (int i = 0; i < 40; i++) {
      counts.merge(whoami.who("c"), 1, Integer::sum);
    }
    return counts;
  }

  @Test
  void aWeightForThisProviderBecomesItsRegisteredWeightUntilTheRuleGoes() throws InterruptedException {
    String a = address("a");
    long startTime = instances.await(m -> true, "").get(a).startTimeMillis();
    rules.put(APP_KEY, rule("application", APP,
        "  - side: provider\n    addresses: [ \"" + a + "\" ]\n    parameters: { weight: 300 }\n"));

    Map<String, ServiceInstance> now = instances.await(m -> m.get(a).weight() == 300, "a weighs 300");
    assertEquals(100, now.get(address("b")).weight());
    assertEquals(startTime, now.get(a).startTimeMillis(), "the same instance: its warm-up does not start over");

    rules.remove(APP_KEY);
    instances.await(m -> m.get(a).weight() == 100, "a weighs 100 again");
  }

  @Test
  void aDisabledServiceLeavesThisProvidersMetadataAndItsOtherServiceStaysCalled() throws InterruptedException {
    rules.put(WHOAMI_KEY, rule("service", "triple.test.Whoami",
        "  - side: provider\n    addresses: [ \"" + address("a") + "\" ]\n    parameters: { disabled: true }\n"));

    seen.awaitInstances("triple.test.Whoami", 1);
    assertEquals(Map.of("b", 40), whoCounts());
    seen.awaitInstances("triple.test.Echo", 2);
    Echo echo = client.proxy(Echo.class);
    java.util.Set<String> echoed = new java.util.TreeSet<>();
    for (int i = 0; i < 40; i++) {
      echoed.add(echo.echo("x"));
    }
    assertEquals(java.util.Set.of("a", "b"), echoed, "a still serves its other service");

    rules.remove(WHOAMI_KEY);
    seen.awaitInstances("triple.test.Whoami", 2);
    assertEquals(java.util.Set.of("a", "b"), whoCounts().keySet());
  }

  @Test
  void everyServiceDisabledWithdrawsTheInstanceUntilTheRuleGoes() throws InterruptedException {
    String a = address("a");
    long startTime = instances.await(m -> true, "").get(a).startTimeMillis();
    rules.put(APP_KEY, rule("application", APP,
        "  - side: provider\n    addresses: [ \"127.0.0.1\" ]\n    providerAddresses: [ \"" + a + "\" ]\n"
            + "    parameters: { disabled: true }\n"));

    instances.await(m -> !m.containsKey(a) && m.size() == 1, "a withdrawn");
    seen.awaitInstances("triple.test.Whoami", 1);
    assertEquals(Map.of("b", 40), whoCounts());

    rules.remove(APP_KEY);
    Map<String, ServiceInstance> back = instances.await(m -> m.containsKey(a), "a back");
    assertEquals(startTime, back.get(a).startTimeMillis());
  }

  @Test
  void aRuleChangedWhileOfflineIsWhatComesBackOnline() throws InterruptedException {
    String a = address("a");
    servers.get("a").offline();
    instances.await(m -> !m.containsKey(a), "a offline");
    rules.put(APP_KEY, rule("application", APP,
        "  - side: provider\n    addresses: [ \"" + a + "\" ]\n    parameters: { weight: 42 }\n"));

    servers.get("a").online();

    instances.await(m -> m.containsKey(a) && m.get(a).weight() == 42, "a back online, weighing 42");
  }

  @Test
  void itemsForConsumersOtherProvidersOrOtherApplicationsChangeNothing() throws InterruptedException {
    String a = address("a");
    rules.put(WHOAMI_KEY, rule("service", "triple.test.Whoami",
        "  - side: consumer\n    providerAddresses: [ \"" + a + "\" ]\n    parameters: { weight: 5 }\n"
            + "  - side: provider\n    addresses: [ \"10.9.9.9\" ]\n    parameters: { weight: 6 }\n"
            + "  - side: provider\n    applications: [ another-app ]\n    parameters: { weight: 7 }\n"
            + "  - addresses: [ \"" + a + "\" ]\n    parameters: { disabled: true }\n"));
    rules.put(APP_KEY, rule("application", "another-app",
        "  - side: provider\n    parameters: { weight: 8 }\n"));
    // Then one that applies: once it is seen, the earlier ones have had their turn (a source delivers in order).
    rules.put(APP_KEY, rule("application", APP,
        "  - side: provider\n    addresses: [ \"" + a + "\" ]\n    parameters: { weight: 9 }\n"));

    Map<String, ServiceInstance> now = instances.await(m -> m.get(a).weight() == 9, "a weighs 9");
    assertEquals(2, now.size());
    assertEquals(100, now.get(address("b")).weight());
    assertFalse(whoCounts().isEmpty());
  }
}
