package io.triplerpc.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.ClientInterceptor;
import io.triplerpc.ForwardingClientCall;
import io.triplerpc.Metadata;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Apache Dubbo's condition routing through {@link Discovery#using}{@code .rules(...)}, with three real servers
 * on loopback in an {@link InProcessRegistry}: a service's, a provider application's and the consumer's own
 * rules send each method's calls where they say; attachments (request headers) route per call; a condition
 * that finds no instance falls back unless forced, and a forced one fails the call naming the rule; a change
 * applies to the next call; a malformed rule changes nothing; tag routing comes first.
 */
class ConditionRoutingTest {

  private static final String APP = "cond-app";
  private static final String SERVICE_KEY = RuleKeys.serviceConditionRouter("triple.test.Whoami", "", "");
  private static final String PROVIDER_KEY = RuleKeys.applicationConditionRouter(APP);
  private static final String CONSUMER_KEY = RuleKeys.applicationConditionRouter("web");
  private static final int CALLS = 60;

  private final InProcessRegistry registry = new InProcessRegistry();
  private final MapRuleSource rules = new MapRuleSource();
  private final Map<String, TripleServer> servers = new LinkedHashMap<>();
  private TripleClient client;

  @BeforeEach
  void start() throws InterruptedException {
    for (String name : List.of("a", "b", "c")) {
      servers.put(name, TripleServer.builder().host("127.0.0.1").port(0)
          .addService(Whoami.class, Whoami.named(name))
          .registration(Registration.to(registry).application(APP).build())
          .build().start());
    }
    RecordingDiscoveryObserver seen = new RecordingDiscoveryObserver();
    client = TripleClient.builder()
        .cluster(Discovery.using(registry).rules(rules).consumerApplication("web").consumerHost("10.9.0.1")
            .observer(seen).build())
        .build();
    client.proxy(Whoami.class).who("first");
    seen.awaitInstances("triple.test.Whoami", 3);
  }

  @AfterEach
  void stop() throws InterruptedException {
    client.close();
    for (TripleServer server : servers.values()) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(5));
    }
    registry.close();
  }

  private int port(String name) {
    return servers.get(name).localAddress().getPort();
  }

  private static String rule(String force, String... conditions) {
    StringBuilder text = new StringBuilder("configVersion: v3.0\nforce: " + force + "\nconditions:\n");
    for (String condition : conditions) {
      text.append("  - \"").append(condition).append("\"\n");
    }
    return text.toString();
  }

  /** How many of {@link #CALLS} calls of {@code method} each instance answered. */
  private static Map<String, Integer> counts(Whoami whoami, Function<Whoami, String> method) {
    Map<String, Integer> counts = new TreeMap<>();
    for (int i = 0; i < CALLS; i++) {
      counts.merge(method.apply(whoami), 1, Integer::sum);
    }
    return counts;
  }

  private Map<String, Integer> who() {
    return counts(client.proxy(Whoami.class), w -> w.who("x"));
  }

  private Map<String, Integer> whoIdempotent() {
    return counts(client.proxy(Whoami.class), w -> w.whoIdempotent("x"));
  }

  private static Map<String, Integer> only(String name) {
    return Map.of(name, CALLS);
  }

  @Test
  void aServiceRuleRoutesOneMethodAndLeavesTheOtherAlone() {
    rules.put(SERVICE_KEY, rule("false", "method = who => port = " + port("a")));
    assertEquals(only("a"), who());
    assertEquals(3, whoIdempotent().size(), "the other method still reaches all three");
  }

  @Test
  void aChangeAppliesToTheNextCallAndARemovalStopsTheRouting() {
    rules.put(SERVICE_KEY, rule("false", "method = who* => port = " + port("a")));
    assertEquals(only("a"), who());
    rules.put(SERVICE_KEY, rule("false", "method = who* => address = 127.0.0.1:" + port("b")));
    assertEquals(only("b"), who());
    assertEquals(only("b"), whoIdempotent());
    rules.remove(SERVICE_KEY);
    assertEquals(3, who().size());
  }

  @Test
  void aMalformedRuleChangesNothing() {
    rules.put(SERVICE_KEY, rule("false", "method = who => port = " + port("c")));
    rules.put(SERVICE_KEY, rule("false", "method = who => zone = east"));
    assertEquals(only("c"), who());
    rules.put(SERVICE_KEY, rule("false", "arguments[0] = x => port = " + port("a")));
    assertEquals(only("c"), who());
    rules.put(SERVICE_KEY, "priority: high\nconditions:\n  - \"=> port = " + port("a") + "\"\n");
    assertEquals(only("c"), who());
  }

  @Test
  void attachmentsRouteEachCall() {
    rules.put(SERVICE_KEY, rule("false", "attachments[region] = east => port = " + port("b")));
    Whoami east = client.proxy(Whoami.class, CallOptions.DEFAULT.withInterceptors(header("region", "east")));
    assertEquals(only("b"), counts(east, w -> w.who("x")));
    assertEquals(3, who().size(), "calls without the attachment go anywhere");
  }

  @Test
  void aConditionThatFindsNoInstanceFallsBackUnlessForced() {
    rules.put(SERVICE_KEY, rule("false", "method = who => port = 1"));
    assertEquals(3, who().size());
    rules.put(SERVICE_KEY, rule("true", "method = who => port = 1"));
    StatusException e = assertThrows(StatusException.class, () -> client.proxy(Whoami.class).who("x"));
    assertEquals(Status.Code.UNAVAILABLE, e.status().code());
    assertTrue(e.getMessage().contains("Condition rule triple.test.Whoami::.condition-router (force: true) leaves "
        + "no instance"), e.getMessage());
    assertEquals(3, whoIdempotent().size(), "the other method is not routed");
  }

  @Test
  void aConditionWithoutThenBlocksItsCalls() {
    rules.put(PROVIDER_KEY, rule("false", "method = who => false"));
    StatusException e = assertThrows(StatusException.class, () -> client.proxy(Whoami.class).who("x"));
    assertEquals(Status.Code.UNAVAILABLE, e.status().code());
    assertTrue(e.getMessage().contains("cond-app.condition-router sends the calls"), e.getMessage());
    assertEquals(3, whoIdempotent().size());
  }

  @Test
  void theConsumersOwnApplicationRuleNamesItsHostAndApplication() {
    rules.put(CONSUMER_KEY, rule("false", "application = web & host = 10.9.0.* => port = " + port("c")));
    assertEquals(only("c"), who());
    rules.put(CONSUMER_KEY, rule("false", "application = other => port = " + port("c")));
    assertEquals(3, who().size());
  }

  @Test
  void rulesChainServiceThenProviderApplicationThenConsumer() {
    rules.put(SERVICE_KEY, rule("false", "=> port != " + port("a")));
    rules.put(PROVIDER_KEY, rule("false", "=> application = " + APP + " & port != " + port("b")));
    assertEquals(only("c"), who());
    // The consumer's rule finds none among what is left, and falls back to it, not to all three.
    rules.put(CONSUMER_KEY, rule("false", "=> port = " + port("a")));
    assertEquals(only("c"), who());
  }

  @Test
  void tagRoutingComesFirstAndAConditionFallsBackToItsChoice() {
    String tagRule = "force: true\nkey: " + APP + "\ntags:\n  - name: gray\n    addresses: [ \"127.0.0.1:"
        + port("a") + "\", \"127.0.0.1:" + port("b") + "\" ]\n";
    rules.put(RuleKeys.tagRouter(APP), tagRule);
    Whoami gray = client.proxy(Whoami.class, CallOptions.DEFAULT.withTag("gray"));
    rules.put(SERVICE_KEY, rule("false", "=> port = " + port("b") + "," + port("c")));
    assertEquals(only("b"), counts(gray, w -> w.who("x")));
    assertEquals(only("c"), who(), "untagged calls: only c is untagged, and the condition keeps it");
    rules.put(SERVICE_KEY, rule("false", "=> port = " + port("c")));
    assertEquals(2, counts(gray, w -> w.who("x")).size(), "gray calls fall back to the tag's a and b");
  }

  @Test
  void instancesTheDynamicConfigurationDisablesAreNotThereForTheConditions() {
    String configurators = RuleKeys.serviceConfigurators("triple.test.Whoami", "", "");
    rules.put(configurators, "configVersion: v3.0\nscope: service\nkey: triple.test.Whoami\nconfigs:\n"
        + "  - side: consumer\n    providerAddresses: [ \"127.0.0.1:" + port("a") + "\" ]\n"
        + "    parameters: { disabled: true }\n");
    // As Dubbo's routers never see a disabled instance: a condition that finds only it finds none, and falls back.
    rules.put(SERVICE_KEY, rule("false", "method = who => port = " + port("a") + "," + port("b")));
    assertEquals(only("b"), who());
    rules.put(SERVICE_KEY, rule("false", "method = who => port = " + port("a")));
    assertEquals(java.util.Set.of("b", "c"), who().keySet());
    rules.put(SERVICE_KEY, rule("true", "method = who => port = " + port("a")));
    StatusException e = assertThrows(StatusException.class, () -> client.proxy(Whoami.class).who("x"));
    assertTrue(e.getMessage().contains("(force: true) leaves no instance"), e.getMessage());
  }

  @Test
  void aConsumersFirstCallsWaitForTheConditionRule() throws Exception {
    java.util.concurrent.CountDownLatch released = new java.util.concurrent.CountDownLatch(1);
    String text = rule("false", "method = who => port = " + port("b"));
    // A config center slow to tell the service's rule; it tells the others' absence at once.
    RuleSource slow = new RuleSource() {
      @Override
      public Watch watch(String key, java.util.function.Consumer<String> listener) {
        if (!key.equals(SERVICE_KEY)) {
          listener.accept(null);
          return () -> {};
        }
        Thread answer = new Thread(() -> {
          try {
            released.await();
            listener.accept(text);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
        });
        answer.setDaemon(true);
        answer.start();
        return () -> {};
      }

      @Override
      public void close() {}
    };
    RecordingDiscoveryObserver seen = new RecordingDiscoveryObserver();
    java.util.concurrent.ExecutorService callers = java.util.concurrent.Executors.newFixedThreadPool(4);
    try (TripleClient fresh = TripleClient.builder()
        .cluster(Discovery.using(registry).rules(slow).observer(seen).initialWait(Duration.ofSeconds(30)).build())
        .build()) {
      Whoami whoami = fresh.proxy(Whoami.class);
      List<java.util.concurrent.Future<String>> answers = new java.util.ArrayList<>();
      for (int i = 0; i < CALLS; i++) {
        answers.add(callers.submit(() -> whoami.who("x")));
      }
      seen.awaitInstances("triple.test.Whoami", 3);   // the instances are known; the rule is not yet
      released.countDown();
      Map<String, Integer> counts = new TreeMap<>();
      for (java.util.concurrent.Future<String> answer : answers) {
        counts.merge(answer.get(30, java.util.concurrent.TimeUnit.SECONDS), 1, Integer::sum);
      }
      assertEquals(only("b"), counts, "calls made before the rule arrived");
    } finally {
      callers.shutdownNow();
    }
  }

  /** Sends {@code key: value} as a request header, as a Dubbo consumer's attachment arrives. */
  private static ClientInterceptor header(String key, String value) {
    return new ClientInterceptor() {
      @Override
      public <Q, R> ClientCall<Q, R> interceptCall(
          io.triplerpc.MethodDescriptor<Q, R> method, CallOptions options, io.triplerpc.ClientCallFactory next) {
        return new ForwardingClientCall<>(next.newCall(method, options)) {
          @Override
          public void start(Listener<R> listener, Metadata headers) {
            headers.put(key, value);
            super.start(listener, headers);
          }
        };
      }
    };
  }
}
