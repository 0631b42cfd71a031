package io.triplerpc.interop.dubbo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Dubbo's dynamic configuration obeyed alike by a Triple consumer and a real Apache Dubbo 3.3.6 consumer
 * (its own JVM), over one application's mixed providers in real ZooKeeper: two Triple providers ({@code t1},
 * {@code t2}) and a Dubbo 3.3.6 provider ({@code default}). Dubbo's own config center API writes the
 * service's configurators, as Dubbo Admin does: {@code t2} disabled and {@code t1} weighed 900 against the
 * Dubbo provider's 100, then a 300 ms timeout; each consumer's calls are counted per instance. A malformed
 * rule changes nothing for either.
 *
 * <p>The providers register this machine's first non-loopback IPv4 address, as Dubbo's consumers match a
 * rule's provider addresses against the registered ones; skipped on a machine with no such address.
 */
class DubboConfiguratorsTest {

  private static final Duration PEERS = Duration.ofSeconds(60);
  private static final String APP = "cfg-app";
  private static final String KEY = RuleKeys.serviceConfigurators(PlainService.class.getName(), "", "");
  private static final int CALLS = 60;

  private ZooKeeperEstate estate;

  @AfterEach
  void stop() throws Exception {
    if (estate != null) {
      estate.close();
    }
  }

  private static String whoamiFromDubbo(DubboProcess dubbo) {
    try {
      return DubboProcess.result(dubbo.callWith(PlainService.class, "whoami", Map.of(), 0), String.class);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** Whether the Dubbo consumer's call that sleeps 1.5 s succeeded, with no timeout of the call's own. */
  private static boolean sleepFromDubbo(DubboProcess dubbo) {
    try {
      return dubbo.callWith(PlainService.class, "sleep", Map.of(), 0, 1500).path("ok").asBoolean();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** How many of {@link #CALLS} calls each instance answered. */
  private static Map<String, Integer> counts(java.util.function.Supplier<String> call) {
    Map<String, Integer> counts = new TreeMap<>();
    for (int i = 0; i < CALLS; i++) {
      counts.merge(call.get(), 1, Integer::sum);
    }
    return counts;
  }

  /** This machine's first IPv4 address that is not loopback, or null. */
  private static String siteAddress() throws java.net.SocketException {
    for (java.net.NetworkInterface nic : java.util.Collections.list(java.net.NetworkInterface.getNetworkInterfaces())) {
      if (!nic.isUp() || nic.isLoopback()) {
        continue;
      }
      for (java.net.InetAddress address : java.util.Collections.list(nic.getInetAddresses())) {
        if (address instanceof java.net.Inet4Address && !address.isLoopbackAddress() && !address.isLinkLocalAddress()) {
          return address.getHostAddress();
        }
      }
    }
    return null;
  }

  @Test
  void overridesWrittenByDubboSteerTripleAndDubboConsumersAlike() throws Exception {
    String host = siteAddress();
    org.junit.jupiter.api.Assumptions.assumeTrue(host != null, "no non-loopback IPv4 address to register");
    estate = new ZooKeeperEstate();
    for (String label : List.of("t1", "t2")) {
      ZooKeeperRegistry providerRegistry = estate.dubboRegistry();
      estate.serve(TripleServer.builder().host(host).port(0)
          .addService(PlainService.class, new TriplePlainService(label))
          .registration(Registration.to(providerRegistry).application(APP).required(true)
              .rules(providerRegistry.ruleSource()).build())
          .build().start());
    }
    DubboProcess dubboProvider = DubboProcess.provider("--registry=" + estate.connectString(),
        "--application=" + APP, "--host=" + host);
    estate.add(dubboProvider);
    DubboProcess dubbo = DubboProcess.discoveringConsumer(estate.connectString(), "--application=cfg-consumer");
    estate.add(dubbo);

    ZooKeeperRegistry consumerRegistry = estate.dubboRegistry();
    RuleSource rules = consumerRegistry.ruleSource();
    // Warm-up off: the providers have just started, and the counts are about the overridden weights.
    TripleClient client = TripleClient.builder().cluster(Discovery.using(consumerRegistry).rules(rules)
        .consumerApplication("cfg-consumer").warmup(Duration.ZERO).build()).build();
    estate.add(client);
    PlainService triple = client.proxy(PlainService.class);

    Set<String> all = Set.of("t1", "t2", "default");
    AwaitPeers.until(() -> counts(triple::whoami).keySet().equals(all), PEERS,
        "the Triple consumer calls all three providers");
    AwaitPeers.until(() -> counts(() -> whoamiFromDubbo(dubbo)).keySet().equals(all), PEERS,
        "the Dubbo consumer calls all three providers");
    assertEquals("slept 1500", triple.sleep(1500), "no deadline before the rule");

    String t1 = host + ":" + estate.servers().get(0).localAddress().getPort();
    String t2 = host + ":" + estate.servers().get(1).localAddress().getPort();
    // warmup: 0 is for Dubbo's consumer (Triple ignores the parameter): the counts are about weights, not uptime.
    String rule = "configVersion: v3.0\nscope: service\nkey: " + PlainService.class.getName() + "\nenabled: true\n"
        + "configs:\n"
        + "  - side: consumer\n    providerAddresses: [ \"" + t2 + "\" ]\n    parameters: { disabled: true }\n"
        + "  - side: consumer\n    providerAddresses: [ \"" + t1 + "\" ]\n    parameters: { weight: 900 }\n"
        + "  - side: consumer\n    parameters: { warmup: 0 }\n";
    dubbo.publishRule(KEY, rule);

    AwaitPeers.until(() -> !counts(() -> whoamiFromDubbo(dubbo)).containsKey("t2"), PEERS,
        "the Dubbo consumer obeys the rule");
    AwaitPeers.until(() -> !counts(triple::whoami).containsKey("t2"), PEERS, "the Triple consumer obeys the rule");
    assertWeighed(dubbo, triple);

    // A timeout: calls that bring no deadline of their own get it.
    dubbo.publishRule(KEY, rule + "  - side: consumer\n    parameters: { timeout: 300 }\n");
    AwaitPeers.until(() -> !sleepFromDubbo(dubbo), PEERS, "the Dubbo consumer's calls time out after 300 ms");
    AwaitPeers.until(() -> {
      try {
        triple.sleep(1500);
        return false;
      } catch (StatusException e) {
        return e.status().code() == Status.Code.DEADLINE_EXCEEDED;
      }
    }, PEERS, "the Triple consumer's calls time out after 300 ms");
    StatusException late = assertThrows(StatusException.class, () -> triple.sleep(1500));
    assertEquals(Status.Code.DEADLINE_EXCEEDED, late.status().code());
    assertTrue(late.status().description().contains("300 ms"), late.status().description());
    assertFalse(sleepFromDubbo(dubbo), "the Dubbo consumer's call of 1.5 s timed out");
    PlainService patient = client.proxy(PlainService.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(5)));
    assertEquals("slept 1500", patient.sleep(1500), "a call's own deadline wins over the rule's");

    // A malformed rule (YAML neither can read): both keep the last good one. (A value Triple refuses but Dubbo's
    // YAML reads, weight: heavy, Dubbo 3.3.6 takes, and its calls then fail with NumberFormatException.)
    // Triple's own watch of the key says when it arrived.
    dubbo.publishRule(KEY, rule);
    AwaitPeers.until(() -> sleepFromDubbo(dubbo), PEERS, "the timeout is lifted for Dubbo");
    AwaitPeers.until(() -> {
      try {
        return "slept 1500".equals(triple.sleep(1500));
      } catch (StatusException e) {
        return false;
      }
    }, PEERS, "the timeout is lifted for Triple");
    CountDownLatch malformedSeen = new CountDownLatch(1);
    String malformed = rule.replace("configs:", "configs: [");
    try (RuleSource.Watch watch = rules.watch(KEY, text -> {
      if (malformed.equals(text)) {
        malformedSeen.countDown();
      }
    })) {
      dubbo.publishRule(KEY, malformed);
      assertTrue(malformedSeen.await(30, TimeUnit.SECONDS), "the malformed rule reached Triple");
    }
    assertWeighed(dubbo, triple);

    // Rules for providers: the Triple providers obey them, and both consumers see what they publish.
    dubbo.publishRule(KEY, "configVersion: v3.0\nscope: service\nkey: " + PlainService.class.getName()
        + "\nenabled: true\nconfigs:\n  - side: consumer\n    parameters: { warmup: 0 }\n");
    String providerRule = "configVersion: v3.0\nscope: application\nkey: " + APP + "\nenabled: true\nconfigs:\n"
        + "  - side: provider\n    addresses: [ \"" + t2 + "\" ]\n    parameters: { weight: 2000 }\n";
    dubbo.publishRule(RuleKeys.applicationConfigurators(APP), providerRule);
    AwaitPeers.until(() -> counts(triple::whoami).getOrDefault("t2", 0) >= 45, PEERS,
        "the Triple consumer gives t2 the weight its provider rule gives");
    AwaitPeers.until(() -> counts(() -> whoamiFromDubbo(dubbo)).getOrDefault("t2", 0) >= 45, PEERS,
        "the Dubbo consumer gives t2 the weight its provider rule gives");

    dubbo.publishRule(RuleKeys.applicationConfigurators(APP), providerRule
        + "  - side: provider\n    addresses: [ \"" + t1 + "\" ]\n    parameters: { disabled: true }\n");
    AwaitPeers.until(() -> !counts(triple::whoami).containsKey("t1"), PEERS, "the Triple consumer drops t1");
    AwaitPeers.until(() -> !counts(() -> whoamiFromDubbo(dubbo)).containsKey("t1"), PEERS,
        "the Dubbo consumer drops t1");
    Map<String, Integer> tripleCounts = counts(triple::whoami);
    Map<String, Integer> dubboCounts = counts(() -> whoamiFromDubbo(dubbo));
    assertEquals(Set.of("t2", "default"), tripleCounts.keySet(), "Triple's calls: " + tripleCounts);
    assertEquals(Set.of("t2", "default"), dubboCounts.keySet(), "Dubbo's calls: " + dubboCounts);

    dubbo.removeRule(RuleKeys.applicationConfigurators(APP));
    AwaitPeers.until(() -> counts(triple::whoami).containsKey("t1"), PEERS, "t1 back for the Triple consumer");
    AwaitPeers.until(() -> counts(() -> whoamiFromDubbo(dubbo)).containsKey("t1"), PEERS,
        "t1 back for the Dubbo consumer");
  }

  /**
   * t2 gets nothing; t1 takes at least 45 of 60 calls (900 : 100 makes it 54 on average; a draw without the
   * weights, 30 of 60, reaches 45 with a chance of about 1 in 10,000).
   */
  private static void assertWeighed(DubboProcess dubbo, PlainService triple) {
    Map<String, Integer> tripleCounts = counts(triple::whoami);
    assertNull(tripleCounts.get("t2"), "Triple's calls: " + tripleCounts);
    assertTrue(tripleCounts.getOrDefault("t1", 0) >= 45, "Triple's calls: " + tripleCounts);
    // Dubbo's consumer, another process, rebuilds its invokers when a rule arrives and weighs the new ones only
    // once they are in place (a CI run counted t1 42 of 60 just after): its counts are awaited, t2 never called.
    AwaitPeers.until(() -> {
      Map<String, Integer> dubboCounts = counts(() -> whoamiFromDubbo(dubbo));
      assertNull(dubboCounts.get("t2"), "Dubbo's calls: " + dubboCounts);
      return dubboCounts.getOrDefault("t1", 0) >= 45;
    }, PEERS, "the Dubbo consumer gives t1 at least 45 of 60 calls");
  }
}
