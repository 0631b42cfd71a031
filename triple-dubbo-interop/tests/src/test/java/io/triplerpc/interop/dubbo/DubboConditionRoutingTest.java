package io.triplerpc.interop.dubbo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.triplerpc.CallOptions;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.interop.dubbo.api.PlainService;
import io.triplerpc.registry.Discovery;
import io.triplerpc.registry.Registration;
import io.triplerpc.registry.RuleKeys;
import io.triplerpc.registry.RuleSource;
import io.triplerpc.registry.zookeeper.ZooKeeperRegistry;
import io.triplerpc.testing.AwaitPeers;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Dubbo's condition routing obeyed alike by a Triple consumer and a real Apache Dubbo 3.3.6 consumer (its own
 * JVM), over one application's mixed providers in real ZooKeeper: two Triple providers ({@code t1}, {@code t2})
 * and a Dubbo 3.3.6 provider (its label {@code default}). The rules are written by Dubbo's own config center
 * API, as Dubbo Admin writes them: a service-scope rule ({@code PlainService::.condition-router}) sends
 * {@code whoami} to {@code t1} and the Dubbo provider and blocks {@code echo}; the provider application's rule
 * ({@code cond-app.condition-router}) then keeps {@code t1} out. Calls are counted per instance and per
 * method; a change applies to the next calls; {@code force: true} with no instance left fails the calls of
 * both consumers, {@code force: false} falls back; a malformed rule changes nothing for either.
 */
class DubboConditionRoutingTest {

  private static final Duration PEERS = Duration.ofSeconds(60);
  private static final String APP = "cond-app";
  private static final String SERVICE_RULE = RuleKeys.serviceConditionRouter(PlainService.class.getName(), "", "");
  private static final String APP_RULE = RuleKeys.applicationConditionRouter(APP);
  private static final int CALLS = 30;
  private static final String FAILED = "failed";

  private ZooKeeperEstate estate;

  @AfterEach
  void stop() throws Exception {
    if (estate != null) {
      estate.close();
    }
  }

  /** Where {@link #CALLS} calls landed, by instance; {@link #FAILED} for each call that failed. */
  private static Map<String, Integer> counts(Supplier<String> call) {
    Map<String, Integer> counts = new TreeMap<>();
    for (int i = 0; i < CALLS; i++) {
      counts.merge(call.get(), 1, Integer::sum);
    }
    return counts;
  }

  private static Supplier<String> dubboCall(DubboProcess dubbo, String method, Object... args) {
    return () -> {
      try {
        JsonNode answer = dubbo.callWith(PlainService.class, method, Map.of(), 5_000, args);
        if (!answer.path("ok").asBoolean()) {
          assertTrue(answer.path("message").asText().contains("No provider available"), answer::toString);
          return FAILED;
        }
        return method.equals("whoami") ? DubboProcess.result(answer, String.class) : "ok";
      } catch (Exception e) {
        throw new AssertionError(e);
      }
    };
  }

  private static Supplier<String> tripleCall(Supplier<String> call) {
    return () -> {
      try {
        return call.get();
      } catch (RuntimeException e) {
        StatusException status = e instanceof StatusException s ? s
            : e.getCause() instanceof StatusException s ? s : null;
        if (status == null) {
          throw e;
        }
        assertEquals(Status.Code.UNAVAILABLE, status.status().code(), status.getMessage());
        assertTrue(status.getMessage().contains("condition-router"), status.getMessage());
        return FAILED;
      }
    };
  }

  private static String rule(String force, String... conditions) {
    StringBuilder text = new StringBuilder("configVersion: v3.0\nscope: service\nforce: " + force
        + "\nenabled: true\nruntime: true\nconditions:\n");
    for (String condition : conditions) {
      text.append("  - \"").append(condition).append("\"\n");
    }
    return text.toString();
  }

  @Test
  void conditionRulesWrittenByDubboSteerTripleAndDubboConsumersAlike() throws Exception {
    estate = new ZooKeeperEstate();
    ZooKeeperRegistry providers = estate.dubboRegistry();
    for (String label : List.of("t1", "t2")) {
      estate.serve(TripleServer.builder().host("127.0.0.1").port(0)
          .addService(PlainService.class, new TriplePlainService(label))
          .registration(Registration.to(providers).application(APP).required(true).build())
          .build().start());
    }
    int t1 = estate.servers().get(0).localAddress().getPort();
    DubboProcess dubboProvider = DubboProcess.provider("--registry=" + estate.connectString(),
        "--application=" + APP);
    estate.add(dubboProvider);
    DubboProcess dubbo = DubboProcess.discoveringConsumer(estate.connectString(), "--application=cond-consumer");
    estate.add(dubbo);

    ZooKeeperRegistry consumerRegistry = estate.dubboRegistry();
    RuleSource rules = consumerRegistry.ruleSource();
    TripleClient client = TripleClient.builder()
        .cluster(Discovery.using(consumerRegistry).rules(rules).consumerApplication("cond-consumer").build())
        .build();
    estate.add(client);
    PlainService triple = client.proxy(PlainService.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10)));
    Supplier<String> tripleWhoami = tripleCall(triple::whoami);
    Supplier<String> tripleEcho = tripleCall(() -> triple.echo("x").equals("x") ? "ok" : "wrong");
    Supplier<String> dubboWhoami = dubboCall(dubbo, "whoami");
    Supplier<String> dubboEcho = dubboCall(dubbo, "echo", "x");

    Set<String> all = Set.of("t1", "t2", "default");
    AwaitPeers.until(() -> counts(tripleWhoami).keySet().equals(all), PEERS, "the Triple consumer calls all three");
    AwaitPeers.until(() -> counts(dubboWhoami).keySet().equals(all), PEERS, "the Dubbo consumer calls all three");

    // Service scope: whoami to t1 and the Dubbo provider, echo nowhere; other methods untouched.
    dubbo.publishRule(SERVICE_RULE, rule("false",
        "method = whoami => port = " + t1 + "," + dubboProvider.port(), "method = echo => false"));
    Set<String> serviceRouted = Set.of("t1", "default");
    AwaitPeers.until(() -> counts(dubboWhoami).keySet().equals(serviceRouted), PEERS, "Dubbo obeys the service rule");
    AwaitPeers.until(() -> counts(tripleWhoami).keySet().equals(serviceRouted), PEERS, "Triple obeys the service rule");
    assertBoth(tripleWhoami, dubboWhoami, serviceRouted, "whoami, service rule");
    assertEquals(Map.of(FAILED, CALLS), counts(tripleEcho), "Triple's echo calls");
    assertEquals(Map.of(FAILED, CALLS), counts(dubboEcho), "Dubbo's echo calls");

    // Application scope (the provider application's rule) comes after the service's: t1 out of what is left.
    dubbo.publishRule(APP_RULE, rule("false", "=> port != " + t1).replace("scope: service", "scope: application"));
    AwaitPeers.until(() -> counts(dubboWhoami).keySet().equals(Set.of("default")), PEERS, "Dubbo obeys the app rule");
    AwaitPeers.until(() -> counts(tripleWhoami).keySet().equals(Set.of("default")), PEERS, "Triple obeys the app rule");
    assertBoth(tripleWhoami, dubboWhoami, Set.of("default"), "whoami, service then application rule");

    // force: true and no instance left: every whoami call fails, for both.
    String forced = rule("true", "method = whoami => port = 1").replace("scope: service", "scope: application");
    dubbo.publishRule(APP_RULE, forced);
    AwaitPeers.until(() -> counts(dubboWhoami).keySet().equals(Set.of(FAILED)), PEERS, "Dubbo fails, forced");
    AwaitPeers.until(() -> counts(tripleWhoami).keySet().equals(Set.of(FAILED)), PEERS, "Triple fails, forced");

    // force: false: the application rule finds none and leaves the service rule's choice.
    dubbo.publishRule(APP_RULE, forced.replace("force: true", "force: false"));
    AwaitPeers.until(() -> counts(dubboWhoami).keySet().equals(serviceRouted), PEERS, "Dubbo falls back");
    AwaitPeers.until(() -> counts(tripleWhoami).keySet().equals(serviceRouted), PEERS, "Triple falls back");
    assertBoth(tripleWhoami, dubboWhoami, serviceRouted, "whoami, not forced");

    // A malformed rule (YAML neither reads): both keep the last good one. Triple's own watch says it arrived.
    String malformed = rule("false", "method = whoami => port = " + t1).replace("conditions:", "conditions: [");
    CountDownLatch malformedSeen = new CountDownLatch(1);
    try (RuleSource.Watch watch = rules.watch(SERVICE_RULE, text -> {
      if (malformed.equals(text)) {
        malformedSeen.countDown();
      }
    })) {
      dubbo.publishRule(SERVICE_RULE, malformed);
      assertTrue(malformedSeen.await(30, TimeUnit.SECONDS), "the malformed rule reached Triple");
    }
    assertBoth(tripleWhoami, dubboWhoami, serviceRouted, "whoami, after a malformed rule");
    assertEquals(Map.of(FAILED, CALLS), counts(tripleEcho), "Triple's echo calls, after a malformed rule");
    assertEquals(Map.of(FAILED, CALLS), counts(dubboEcho), "Dubbo's echo calls, after a malformed rule");
  }

  private static void assertBoth(Supplier<String> triple, Supplier<String> dubbo, Set<String> expected, String what) {
    Map<String, Integer> tripleCounts = counts(triple);
    Map<String, Integer> dubboCounts = counts(dubbo);
    assertEquals(expected, tripleCounts.keySet(), "Triple, " + what + ": " + tripleCounts);
    assertEquals(expected, dubboCounts.keySet(), "Dubbo, " + what + ": " + dubboCounts);
    assertEquals(CALLS, tripleCounts.values().stream().mapToInt(Integer::intValue).sum());
    assertEquals(CALLS, dubboCounts.values().stream().mapToInt(Integer::intValue).sum());
  }
}
