package io.triplerpc.registry.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.Metadata;
import io.triplerpc.registry.LoadBalancing;
import io.triplerpc.registry.RuleKeys;
import io.triplerpc.registry.RuleSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The condition stage over a directory built by hand: the chain's order and fallback, and its cache: a call
 * whose conditions read only the method gets the very outcome the previous call got, until a rule or the
 * instances change; one whose conditions read attachments gets the outcome cached for what matched.
 */
class ConditionStageTest {

  private static final String SERVICE_KEY = RuleKeys.serviceConditionRouter("demo.Greeter", "", "");
  private static final String PROVIDER_KEY = RuleKeys.applicationConditionRouter("app");
  private static final String CONSUMER_KEY = RuleKeys.applicationConditionRouter("web");

  private final Rules rules = new Rules();
  private final ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
  private final RevisionGroup group = new RevisionGroup("app", "r1", true);
  private final Endpoint a = new Endpoint("10.0.0.1", 1, 100);
  private final Endpoint b = new Endpoint("10.0.0.2", 2, 100);
  private final Endpoint c = new Endpoint("10.0.0.3", 3, 100);
  private final ServiceDirectory directory = new ServiceDirectory("demo.Greeter", LoadBalancing.WEIGHTED_RANDOM);
  private final ConditionStage stage;

  ConditionStageTest() {
    group.add(a);
    group.add(b);
    group.add(c);
    directory.link(group);
    ConditionRouter router = new ConditionRouter(rules, "web", "10.9.9.9", scheduler, 1_000_000_000L);
    router.watchApplication("app");
    stage = new ConditionStage(router, directory);
  }

  @AfterEach
  void stop() {
    scheduler.shutdownNow();
  }

  private static String rule(String force, String... conditions) {
    StringBuilder text = new StringBuilder("force: " + force + "\nconditions:\n");
    for (String condition : conditions) {
      text.append("  - \"").append(condition).append("\"\n");
    }
    return text.toString();
  }

  private static Metadata headers(String key, String value) {
    Metadata headers = new Metadata();
    headers.put(key, value);
    return headers;
  }

  private static List<Endpoint> of(ConditionStage.Outcome outcome) {
    return outcome.endpoints() == null ? null : Arrays.asList(outcome.endpoints());
  }

  @Test
  void withoutRulesNothingIsRouted() {
    assertSame(ConditionStage.UNCHANGED, stage.route(null, "who", null));
  }

  @Test
  void aMethodsCallsGetTheCachedOutcomeUntilARuleOrTheInstancesChange() {
    rules.put(SERVICE_KEY, rule("false", "method = who => host = 10.0.0.1, 10.0.0.2"));
    ConditionStage.Outcome first = stage.route(null, "who", null);
    assertEquals(List.of(a, b), of(first));
    assertSame(first, stage.route(null, "who", null));
    assertSame(ConditionStage.UNCHANGED, stage.route(null, "other", null));

    rules.put(SERVICE_KEY, rule("false", "method = who => host = 10.0.0.2, 10.0.0.3"));
    ConditionStage.Outcome changed = stage.route(null, "who", null);
    assertEquals(List.of(b, c), of(changed));

    group.remove(c);
    ConditionStage.Outcome afterRemoval = stage.route(null, "who", null);
    assertNotSame(changed, afterRemoval);
    assertEquals(List.of(b), of(afterRemoval));
  }

  @Test
  void aCachedCallAllocatesNothing() {
    rules.put(SERVICE_KEY, rule("false", "method = who => host = 10.0.0.1, 10.0.0.2", "method = other => false"));
    com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean();
    ConditionStage.Outcome first = stage.route(null, "who", null);
    for (int i = 0; i < 10_000; i++) {
      stage.route(null, "who", null);
    }
    long before = threads.getCurrentThreadAllocatedBytes();
    ConditionStage.Outcome last = null;
    for (int i = 0; i < 100_000; i++) {
      last = stage.route(null, "who", null);
    }
    long allocated = threads.getCurrentThreadAllocatedBytes() - before;
    assertSame(first, last);
    // One object per call would be 1.6 MB; what is left is the measurement's own noise.
    assertTrue(allocated < 16_384, allocated + " bytes allocated by 100,000 routed calls");
  }

  @Test
  void conditionsReadingAttachmentsAreMatchedPerCallAndTheirOutcomesCached() {
    rules.put(SERVICE_KEY, rule("false", "attachments[region] = east => host = 10.0.0.1",
        "attachments[region] = west => host = 10.0.0.3"));
    ConditionStage.Outcome east = stage.route(null, "who", headers("region", "east"));
    assertEquals(List.of(a), of(east));
    assertSame(east, stage.route(null, "who", headers("region", "east")));
    assertEquals(List.of(c), of(stage.route(null, "who", headers("region", "west"))));
    assertSame(ConditionStage.UNCHANGED, stage.route(null, "who", headers("region", "north")));
    assertSame(ConditionStage.UNCHANGED, stage.route(null, "who", null));
  }

  @Test
  void theChainRunsServiceThenProviderThenConsumerRulesEachNarrowingTheLast() {
    rules.put(SERVICE_KEY, rule("false", "=> host != 10.0.0.3"));
    rules.put(PROVIDER_KEY, rule("false", "=> host = 10.0.0.2, 10.0.0.3"));
    assertEquals(List.of(b), of(stage.route(null, "who", null)));
    // The consumer's rule finds none of what is left: not forced, it leaves it as it was.
    rules.put(CONSUMER_KEY, rule("false", "application = web => host = 10.0.0.1"));
    assertEquals(List.of(b), of(stage.route(null, "who", null)));
    rules.put(CONSUMER_KEY, rule("true", "application = web => host = 10.0.0.1"));
    ConditionStage.Outcome forced = stage.route(null, "who", null);
    assertEquals(List.of(), of(forced));
    assertTrue(forced.failure().startsWith("Condition rule web.condition-router (force: true) leaves no instance"),
        forced.failure());
  }

  @Test
  void theTagRoutersChoiceIsTheInputAndWhatANonForcedConditionFallsBackTo() {
    rules.put(SERVICE_KEY, rule("false", "=> host = 10.0.0.3"));
    Endpoint[] tagged = {a, b};
    assertSame(ConditionStage.UNCHANGED, stage.route(tagged, "who", null));
    rules.put(SERVICE_KEY, rule("false", "=> host = 10.0.0.2, 10.0.0.3"));
    assertEquals(List.of(b), of(stage.route(tagged, "who", null)));
    assertEquals(List.of(b, c), of(stage.route(null, "who", null)));
  }

  @Test
  void aDisabledRuleAConsumerValueAndABlockingCondition() {
    rules.put(SERVICE_KEY, "enabled: false\n" + rule("true", "=> host = 10.0.0.9"));
    assertSame(ConditionStage.UNCHANGED, stage.route(null, "who", null));
    rules.put(SERVICE_KEY, rule("false", "host = 10.9.9.* => host = 10.0.0.1"));
    assertEquals(List.of(a), of(stage.route(null, "who", null)));
    rules.put(SERVICE_KEY, rule("false", "method = secret => false"));
    ConditionStage.Outcome blocked = stage.route(null, "secret", null);
    assertEquals(List.of(), of(blocked));
    assertTrue(blocked.failure().contains("demo.Greeter::.condition-router sends the calls"), blocked.failure());
    assertNull(stage.route(null, "who", null).failure());
  }

  @Test
  void aMalformedRuleLeavesTheLastGoodOne() {
    rules.put(SERVICE_KEY, rule("false", "=> host = 10.0.0.1"));
    rules.put(SERVICE_KEY, rule("false", "=> zone = east"));
    assertEquals(List.of(a), of(stage.route(null, "who", null)));
    rules.put(SERVICE_KEY, null);
    assertSame(ConditionStage.UNCHANGED, stage.route(null, "who", null));
  }

  /** Rules in memory, delivered on the caller's thread; null removes. */
  private static final class Rules implements RuleSource {
    private final Map<String, String> texts = new HashMap<>();
    private final Map<String, List<Consumer<String>>> watchers = new HashMap<>();

    synchronized void put(String key, String text) {
      texts.put(key, text);
      watchers.getOrDefault(key, List.of()).forEach(w -> w.accept(text));
    }

    @Override
    public synchronized Watch watch(String key, Consumer<String> listener) {
      watchers.computeIfAbsent(key, k -> new ArrayList<>()).add(listener);
      listener.accept(texts.get(key));
      return () -> {};
    }

    @Override
    public void close() {}
  }
}
