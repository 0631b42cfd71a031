package io.triplerpc.registry.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.registry.LoadBalancing;
import io.triplerpc.registry.RuleKeys;
import io.triplerpc.registry.RuleSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The dynamic configuration a consumer obeys, on a directory of three instances: which items apply (side,
 * the consumer's host and application, the services named, the providers named), what they change (weight,
 * disabled, timeout, retries) and when (a change, a removal, a malformed or disabled rule, warm-up on a
 * controllable clock).
 */
class ConfiguratorsTest {

  private static final String SERVICE = "demo.Greeter";
  private static final String SERVICE_KEY = RuleKeys.serviceConfigurators(SERVICE, "", "");
  private static final String APP_KEY = RuleKeys.applicationConfigurators("shop-web");
  private static final long WARMUP = TimeUnit.MINUTES.toMillis(10);
  private static final long EPOCH = 1_765_000_000_000L;
  private static final int PICKS = 6_000;

  private final Rules rules = new Rules();
  private final AtomicLong wallClock = new AtomicLong(EPOCH);
  private final RevisionGroup group = new RevisionGroup("shop", "r1", false);
  private final Endpoint a = new Endpoint("10.0.0.1", 20880, 100);
  private final Endpoint b = new Endpoint("10.0.0.2", 20880, 100);
  private final Endpoint c = new Endpoint("10.0.0.3", 50051, 100);
  private Configurators configurators;

  /** A rule source in memory whose changes reach the watchers before {@link #put} returns. */
  private static final class Rules implements RuleSource {
    final Map<String, String> texts = new HashMap<>();
    final Map<String, List<Consumer<String>>> watchers = new HashMap<>();

    void put(String key, String text) {
      if (text == null) {
        texts.remove(key);
      } else {
        texts.put(key, text);
      }
      watchers.getOrDefault(key, List.of()).forEach(w -> w.accept(text));
    }

    @Override
    public Watch watch(String key, Consumer<String> listener) {
      watchers.computeIfAbsent(key, k -> new ArrayList<>()).add(listener);
      listener.accept(texts.get(key));
      return () -> watchers.get(key).remove(listener);
    }

    @Override
    public void close() {}
  }

  private ServiceDirectory directory(LoadBalancing balancing, String consumerApplication) {
    group.add(a);
    group.add(b);
    group.add(c);
    ServiceDirectory directory = new ServiceDirectory(SERVICE, balancing);
    directory.link(group);
    configurators = new Configurators(rules, consumerApplication, "192.168.1.7", WARMUP, wallClock::get);
    directory.configurators = configurators;
    configurators.watch(directory);
    return directory;
  }

  private static String rule(String scope, String key, String items) {
    return "configVersion: v3.0\nscope: " + scope + "\nkey: " + key + "\nenabled: true\nconfigs:\n" + items;
  }

  private static Map<Endpoint, Integer> picks(ServiceDirectory directory) {
    Map<Endpoint, Integer> counts = new HashMap<>();
    Endpoint[] none = new Endpoint[0];
    for (int i = 0; i < PICKS; i++) {
      counts.merge(directory.pick(none, 0, null, null), 1, Integer::sum);
    }
    return counts;
  }

  @Test
  void aDisabledProviderGetsNoPickFromAnyBalancer() {
    for (LoadBalancing balancing : List.of(LoadBalancing.WEIGHTED_RANDOM, LoadBalancing.ROUND_ROBIN,
        LoadBalancing.LEAST_ACTIVE, LoadBalancing.POWER_OF_TWO_CHOICES, LoadBalancing.PICK_FIRST)) {
      RevisionGroup fresh = new RevisionGroup("shop", "r-" + balancing, false);
      Endpoint x = new Endpoint("10.0.0.1", 20880, 100);
      Endpoint y = new Endpoint("10.0.0.2", 20880, 100);
      fresh.add(x);
      fresh.add(y);
      ServiceDirectory directory = new ServiceDirectory(SERVICE, balancing);
      directory.link(fresh);
      Rules source = new Rules();
      source.put(SERVICE_KEY, rule("service", SERVICE, """
            - side: consumer
              providerAddresses: [ "10.0.0.1:20880" ]
              parameters: { disabled: true }
          """));
      Configurators c = new Configurators(source, null, "192.168.1.7", WARMUP, wallClock::get);
      directory.configurators = c;
      c.watch(directory);

      Map<Endpoint, Integer> counts = picks(directory);

      assertNull(counts.get(x), balancing + " picked the disabled instance");
      assertEquals(PICKS, counts.get(y), balancing.toString());
    }
  }

  @Test
  void aWeightOverrideShiftsTheWeightedPicksAndItsRemovalRestoresTheRegistrys() {
    ServiceDirectory directory = directory(LoadBalancing.WEIGHTED_RANDOM, null);
    rules.put(SERVICE_KEY, rule("service", SERVICE, """
          - side: consumer
            providerAddresses: [ "10.0.0.1:20880" ]
            parameters: { weight: 800 }
        """));

    Map<Endpoint, Integer> counts = picks(directory);

    // 800 : 100 : 100, so a gets 80% (±3%, many standard deviations); without the rule it would get a third.
    assertTrue(Math.abs(counts.get(a) - PICKS * 0.8) < PICKS * 0.03, counts.toString());
    assertTrue(counts.get(b) > PICKS * 0.07 && counts.get(c) > PICKS * 0.07, counts.toString());

    rules.put(SERVICE_KEY, null);
    counts = picks(directory);
    assertTrue(Math.abs(counts.get(a) - PICKS / 3.0) < PICKS * 0.04, counts.toString());
    assertNull(directory.overrides());
  }

  @Test
  void withEveryInstanceDisabledNoneIsPickedAndTheCallerIsToldWhy() {
    ServiceDirectory directory = directory(LoadBalancing.WEIGHTED_RANDOM, null);
    rules.put(SERVICE_KEY, rule("service", SERVICE, """
          - side: consumer
            providerAddresses: [ "10.0.0.0/24:*" ]
            parameters: { disabled: true }
        """));

    assertNull(directory.pick(new Endpoint[0], 0, null, null));
    assertNull(directory.pick(new Endpoint[] {a, b}, 2, null, null), "not even one tried before");
    DirectoryPicker picker = new DirectoryPicker(directory, null, new DirectorySettings(LoadBalancing.WEIGHTED_RANDOM,
        0, 0, 0, true, 0, (d, changes) -> {}));
    assertTrue(picker.noServerReason().endsWith("or disabled by the dynamic configuration"), picker.noServerReason());
  }

  @Test
  void aWeightOfZeroKeepsTheInstanceOffWhileOthersServe() {
    ServiceDirectory directory = directory(LoadBalancing.WEIGHTED_RANDOM, null);
    rules.put(SERVICE_KEY, rule("service", SERVICE, """
          - side: consumer
            providerAddresses: [ "10.0.0.2" ]
            parameters: { weight: 0 }
        """));

    Map<Endpoint, Integer> counts = picks(directory);

    assertNull(counts.get(b), counts.toString());
    assertEquals(PICKS, counts.get(a) + counts.get(c));
  }

  @Test
  void timeoutAndRetriesApplyWhereTheItemsSay() {
    ServiceDirectory directory = directory(LoadBalancing.WEIGHTED_RANDOM, null);
    rules.put(SERVICE_KEY, rule("service", SERVICE, """
          - side: consumer
            parameters: { timeout: 3000, retries: 5 }
          - side: consumer
            providerAddresses: [ "10.0.0.3:50051" ]
            parameters: { timeout: 250, retries: 9 }
        """));

    Overrides o = directory.overrides();

    assertNotNull(o);
    assertEquals(TimeUnit.MILLISECONDS.toNanos(3000), o.timeoutNanos(a));
    assertEquals(TimeUnit.MILLISECONDS.toNanos(250), o.timeoutNanos(c), "the later item wins for c");
    assertEquals(5, o.retries, "retries come from items that name no provider");
  }

  @Test
  void itemsForProvidersOtherConsumersOrOtherApplicationsChangeNothing() {
    ServiceDirectory directory = directory(LoadBalancing.WEIGHTED_RANDOM, "shop-web");
    rules.put(SERVICE_KEY, rule("service", SERVICE, """
          - side: provider
            addresses: [ "10.0.0.1:20880" ]
            parameters: { weight: 0 }
          - side: consumer
            addresses: [ "192.168.1.8" ]
            parameters: { timeout: 1 }
          - side: consumer
            applications: [ shop-admin ]
            parameters: { retries: 7 }
          - parameters: { disabled: true }
        """));
    assertNull(directory.overrides());

    rules.put(SERVICE_KEY, rule("service", SERVICE, """
          - side: consumer
            addresses: [ "192.168.1.0/24" ]
            applications: [ shop-admin, shop-web ]
            parameters: { retries: 7 }
        """));
    assertEquals(7, directory.overrides().retries);
  }

  @Test
  void theConsumerApplicationsRuleAppliesFirstAndNamesServices() {
    ServiceDirectory directory = directory(LoadBalancing.WEIGHTED_RANDOM, "shop-web");
    rules.put(APP_KEY, rule("application", "shop-web", """
          - side: consumer
            services: [ demo.Other ]
            parameters: { timeout: 10 }
          - side: consumer
            services: [ demo.Greeter ]
            parameters: { timeout: 20, retries: 1 }
        """));
    assertEquals(TimeUnit.MILLISECONDS.toNanos(20), directory.overrides().timeoutNanos(a));

    rules.put(SERVICE_KEY, rule("service", SERVICE, """
          - side: consumer
            parameters: { timeout: 30 }
        """));
    Overrides o = directory.overrides();
    assertEquals(TimeUnit.MILLISECONDS.toNanos(30), o.timeoutNanos(a), "the service's rule applies after");
    assertEquals(1, o.retries);

    rules.put(APP_KEY, rule("application", "another-app", """
          - side: consumer
            parameters: { retries: 4 }
        """));
    assertEquals(-1, directory.overrides().retries, "a rule keyed for another application is not this one's");
  }

  @Test
  void aDisabledRuleAppliesNothingAndAMalformedOneKeepsTheLastGood() {
    ServiceDirectory directory = directory(LoadBalancing.WEIGHTED_RANDOM, null);
    String good = rule("service", SERVICE, """
          - side: consumer
            providerAddresses: [ "10.0.0.1:20880" ]
            parameters: { disabled: true }
        """);
    rules.put(SERVICE_KEY, good);
    assertTrue(directory.overrides().isDisabled(a));

    rules.put(SERVICE_KEY, good.replace("disabled: true", "disabled: maybe"));
    assertTrue(directory.overrides().isDisabled(a), "the malformed rule left the good one in force");
    rules.put(SERVICE_KEY, good.replace("weight", "x").replace("disabled: true", "weight: -3"));
    assertTrue(directory.overrides().isDisabled(a));

    rules.put(SERVICE_KEY, good.replace("enabled: true", "enabled: false"));
    assertNull(directory.overrides());
  }

  @Test
  void anOverriddenWeightWarmsUpFromTheInstancesStartOnTheClock() {
    ServiceDirectory directory = directory(LoadBalancing.WEIGHTED_RANDOM, null);
    a.startTimeMillis(EPOCH - TimeUnit.MINUTES.toMillis(1));
    rules.put(SERVICE_KEY, rule("service", SERVICE, """
          - side: consumer
            providerAddresses: [ "10.0.0.1:20880" ]
            parameters: { weight: 500 }
        """));

    assertEquals(50, directory.overrides().weight(a), "a tenth of the window: a tenth of 500, by Dubbo's formula");
    wallClock.addAndGet(TimeUnit.MINUTES.toMillis(1));
    assertEquals(100, directory.overrides().weight(a), "worked out again once the warm-up moved on");
    wallClock.addAndGet(TimeUnit.MINUTES.toMillis(9));
    assertEquals(500, directory.overrides().weight(a));
    assertEquals(Overrides.REGISTRY_WEIGHT, directory.overrides().weight(b));
  }

  @Test
  void aChangeOfTheInstancesIsSeenByTheNextPick() {
    ServiceDirectory directory = directory(LoadBalancing.WEIGHTED_RANDOM, null);
    rules.put(SERVICE_KEY, rule("service", SERVICE, """
          - side: consumer
            providerAddresses: [ "10.0.0.4:20880" ]
            parameters: { disabled: true }
        """));
    assertNull(directory.overrides());

    Endpoint d = new Endpoint("10.0.0.4", 20880, 100);
    group.add(d);

    assertTrue(directory.overrides().isDisabled(d));
    assertNull(picks(directory).get(d));
  }
}
