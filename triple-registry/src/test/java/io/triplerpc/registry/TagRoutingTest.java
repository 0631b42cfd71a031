package io.triplerpc.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.CallOptions;
import io.triplerpc.ClientCall;
import io.triplerpc.ClientInterceptor;
import io.triplerpc.ForwardingClientCall;
import io.triplerpc.Metadata;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Apache Dubbo's tag routing through {@link Discovery#using}{@code .rules(...)}, with three real servers
 * on loopback in an {@link InProcessRegistry}: the application's tag rule sends a tagged request to the
 * instances with its tag and keeps untagged requests off them; an unknown tag falls back to the untagged
 * instances unless the rule forces it; a malformed rule changes nothing; a change applies to the next call.
 */
class TagRoutingTest {

  private static final String APP = "tag-app";
  private static final String KEY = RuleKeys.tagRouter(APP);
  private static final int CALLS = 60;

  private final InProcessRegistry registry = new InProcessRegistry();
  private final MapRuleSource rules = new MapRuleSource();
  private final Map<String, TripleServer> servers = new LinkedHashMap<>();
  /** The {@code dubbo.tag} header of each call the servers received ({@code -} for none), in order. */
  private final java.util.Queue<String> tagsReceived = new java.util.concurrent.ConcurrentLinkedQueue<>();
  private TripleClient client;

  @BeforeEach
  void start() throws InterruptedException {
    for (String name : List.of("a", "b", "c")) {
      servers.put(name, TripleServer.builder().host("127.0.0.1").port(0)
          .addService(Whoami.class, Whoami.named(name))
          .intercept(new io.triplerpc.ServerInterceptor() {
            @Override
            public <Q, R> io.triplerpc.ServerCall.Listener<Q> interceptCall(io.triplerpc.ServerCall<Q, R> call,
                Metadata headers, io.triplerpc.ServerCallHandler<Q, R> next) {
              String tag = headers.get("dubbo.tag");
              tagsReceived.add(tag == null ? "-" : tag);
              return next.startCall(call, headers);
            }
          })
          .registration(Registration.to(registry).application(APP).build())
          .build().start());
    }
    RecordingDiscoveryObserver seen = new RecordingDiscoveryObserver();
    client = TripleClient.builder().cluster(Discovery.using(registry).rules(rules).observer(seen).build()).build();
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

  private String address(String name) {
    return "127.0.0.1:" + servers.get(name).localAddress().getPort();
  }

  private String rule(String force, String tag, String... names) {
    StringBuilder addresses = new StringBuilder();
    for (String name : names) {
      addresses.append(addresses.length() == 0 ? "" : ", ").append('"').append(address(name)).append('"');
    }
    return "configVersion: v3.0\nforce: " + force + "\nkey: " + APP + "\ntags:\n  - name: " + tag
        + "\n    addresses: [ " + addresses + " ]\n";
  }

  /** How many of {@link #CALLS} calls each instance answered. */
  private static Map<String, Integer> counts(Whoami whoami) {
    Map<String, Integer> counts = new TreeMap<>();
    for (int i = 0; i < CALLS; i++) {
      counts.merge(whoami.who("x"), 1, Integer::sum);
    }
    return counts;
  }

  private Map<String, Integer> countsWithTag(String tag) {
    return counts(client.proxy(Whoami.class, CallOptions.DEFAULT.withTag(tag)));
  }

  private Map<String, Integer> countsUntagged() {
    return counts(client.proxy(Whoami.class));
  }

  /** Sends {@code dubbo.tag: value} as a request header, as a Dubbo consumer's attachment arrives. */
  private static ClientInterceptor tagHeader(String value) {
    return new ClientInterceptor() {
      @Override
      public <Q, R> ClientCall<Q, R> interceptCall(
          io.triplerpc.MethodDescriptor<Q, R> method, CallOptions options, io.triplerpc.ClientCallFactory next) {
        return new ForwardingClientCall<>(next.newCall(method, options)) {
          @Override
          public void start(Listener<R> listener, Metadata headers) {
            headers.put("dubbo.tag", value);
            super.start(listener, headers);
          }
        };
      }
    };
  }

  /** A config center slow to answer: a watch hears nothing until {@link #release}. */
  private static final class SlowRuleSource implements RuleSource {
    private final java.util.concurrent.CountDownLatch released = new java.util.concurrent.CountDownLatch(1);
    private final String text;

    SlowRuleSource(String text) {
      this.text = text;
    }

    void release() {
      released.countDown();
    }

    @Override
    public Watch watch(String key, java.util.function.Consumer<String> listener) {
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
  }

  @Test
  void aConsumersFirstCallsWaitForTheRuleAndNeverReachTheCanaryBeforeIt() throws Exception {
    SlowRuleSource slow = new SlowRuleSource(rule("false", "gray", "a"));
    RecordingDiscoveryObserver seen = new RecordingDiscoveryObserver();
    try (TripleClient fresh = TripleClient.builder()
        .cluster(Discovery.using(registry).rules(slow).observer(seen).initialWait(Duration.ofSeconds(30)).build())
        .build()) {
      Whoami whoami = fresh.proxy(Whoami.class);
      java.util.concurrent.ExecutorService callers = java.util.concurrent.Executors.newFixedThreadPool(4);
      try {
        List<java.util.concurrent.Future<String>> answers = new java.util.ArrayList<>();
        for (int i = 0; i < CALLS; i++) {
          answers.add(callers.submit(() -> whoami.who("x")));
        }
        seen.awaitInstances("triple.test.Whoami", 3);   // the instances are known; the rule is not yet

        slow.release();

        Map<String, Integer> counts = new TreeMap<>();
        for (java.util.concurrent.Future<String> answer : answers) {
          counts.merge(answer.get(30, java.util.concurrent.TimeUnit.SECONDS), 1, Integer::sum);
        }
        assertEquals(List.of("b", "c"), List.copyOf(counts.keySet()), "untagged calls made before the rule: " + counts);
      } finally {
        callers.shutdownNow();
      }
    }
  }

  @Test
  void aConfigCenterThatNeverAnswersDelaysCallsOnlyByTheInitialWait() {
    SlowRuleSource silent = new SlowRuleSource(rule("false", "gray", "a"));   // never released
    try (TripleClient fresh = TripleClient.builder()
        .cluster(Discovery.using(registry).rules(silent).initialWait(Duration.ofMillis(200)).build()).build()) {
      Whoami whoami = fresh.proxy(Whoami.class);
      for (int i = 0; i < 5; i++) {
        assertTrue(List.of("a", "b", "c").contains(whoami.who("x")), "calls go, without the rule");
      }
    }
  }

  @Test
  void theTagGoesOnTheWireAsDubboTag() {
    tagsReceived.clear();
    client.proxy(Whoami.class, CallOptions.DEFAULT.withTag("gray")).who("x");
    client.proxy(Whoami.class).who("x");
    client.proxy(Whoami.class, CallOptions.DEFAULT.withTag("")).who("x");
    assertEquals(List.of("gray", "-", "-"), List.copyOf(tagsReceived));
  }

  @Test
  void withoutARuleEveryCallGoesAnywhereTaggedOrNot() {
    assertEquals(3, countsWithTag("gray").size(), "a tag no rule knows: every instance");
    assertEquals(3, countsUntagged().size());
  }

  @Test
  void theRulesTagTakesTaggedCallsAndUntaggedOnesStayOff() {
    rules.put(KEY, rule("false", "gray", "a"));

    assertEquals(Map.of("a", CALLS), countsWithTag("gray"));
    assertEquals(Map.of("a", CALLS),
        counts(client.proxy(Whoami.class, CallOptions.DEFAULT.withInterceptors(tagHeader("gray")))),
        "the tag given as Dubbo's dubbo.tag header");
    Map<String, Integer> untagged = countsUntagged();
    assertEquals(List.of("b", "c"), List.copyOf(untagged.keySet()), "untagged calls: " + untagged);

    rules.put(KEY, rule("false", "gray", "a", "b"));     // the next call sees the change
    Map<String, Integer> gray = countsWithTag("gray");
    assertEquals(List.of("a", "b"), List.copyOf(gray.keySet()), "spread over both: " + gray);
    assertEquals(Map.of("c", CALLS), countsUntagged());
  }

  @Test
  void aTagWithNoInstanceFallsBackToTheUntaggedUnlessForced() {
    rules.put(KEY, rule("false", "gray", "a"));
    assertEquals(List.of("b", "c"), List.copyOf(countsWithTag("blue").keySet()), "a tag the rule lacks");

    rules.put(KEY, "force: false\ntags:\n  - name: gray\n    addresses: [ \"10.9.9.9:1\" ]\n");
    assertEquals(3, countsWithTag("gray").size(), "no instance has the tag: the untagged, here all");

    rules.put(KEY, "force: true\ntags:\n  - name: gray\n    addresses: [ \"10.9.9.9:1\" ]\n");
    StatusException e = assertThrows(StatusException.class,
        () -> client.proxy(Whoami.class, CallOptions.DEFAULT.withTag("gray")).who("x"));
    assertEquals(io.triplerpc.Status.Code.UNAVAILABLE, e.status().code());
    assertTrue(e.getMessage().contains("tag rule gives the tag to none"), e.getMessage());
    assertEquals(3, countsUntagged().size(), "untagged calls go on");
  }

  @Test
  void aMalformedRuleChangesNothingAndARemovedOneStopsTheRouting() {
    rules.put(KEY, rule("false", "gray", "a"));
    assertEquals(Map.of("a", CALLS), countsWithTag("gray"));

    rules.put(KEY, rule("false", "gray", "b").replace("tags:", "tags:\n  - name: blue\n    addresses: [ 10.0.0.999 ]"));
    rules.put(KEY, "tags: [");
    assertEquals(Map.of("a", CALLS), countsWithTag("gray"), "the last good rule, whole");
    assertTrue(!countsUntagged().containsKey("a"));

    rules.put(KEY, rule("false", "gray", "a", "b", "c"));
    StatusException e = assertThrows(StatusException.class, () -> client.proxy(Whoami.class).who("x"));
    assertTrue(e.getMessage().contains("tags them all and the call has no tag"), e.getMessage());

    rules.remove(KEY);
    assertEquals(3, countsWithTag("gray").size());
    assertEquals(3, countsUntagged().size());
  }
}
