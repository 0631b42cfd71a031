package io.triplerpc.interop.dubbo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.CallOptions;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Dubbo's tag routing obeyed alike by a Triple consumer and a real Apache Dubbo 3.3.6 consumer (its own
 * JVM), over one application's mixed providers in real ZooKeeper: two Triple providers ({@code t1},
 * {@code t2}) and a Dubbo 3.3.6 provider (its label {@code default}). The tag rule is written by Dubbo's own
 * config center API, as Dubbo Admin writes it: {@code gray} on {@code t1} and the Dubbo provider. Calls
 * tagged {@code gray} land only there, untagged ones only on {@code t2}, counted per instance; a malformed
 * rule (YAML neither can read) changes nothing for either.
 *
 * <p>Every provider registers this machine's first non-loopback IPv4 address: Dubbo 3.3.6's tag router
 * cannot match a loopback host against an address in a rule (its {@code NetUtils} takes a loopback host
 * for IPv6 and refuses the IPv4 pattern), so on loopback a Dubbo consumer would ignore the rule. Skipped
 * on a machine with no such address.
 */
class DubboTagRoutingTest {

  private static final Duration PEERS = Duration.ofSeconds(60);
  private static final String APP = "tag-app";
  private static final int CALLS = 30;

  private ZooKeeperEstate estate;

  @AfterEach
  void stop() throws Exception {
    if (estate != null) {
      estate.close();
    }
  }

  private ZooKeeperRegistry registry() {
    return estate.dubboRegistry();
  }

  private static String whoamiFromDubbo(DubboProcess dubbo, String tag) {
    try {
      return DubboProcess.result(dubbo.callWith(PlainService.class, "whoami",
          tag == null ? Map.of() : Map.of("dubbo.tag", tag), 5_000), String.class);
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
  void aTagRuleWrittenByDubboSteersTripleAndDubboConsumersAlike() throws Exception {
    String host = siteAddress();
    org.junit.jupiter.api.Assumptions.assumeTrue(host != null, "no non-loopback IPv4 address to register");
    estate = new ZooKeeperEstate();
    for (String label : List.of("t1", "t2")) {
      estate.serve(TripleServer.builder().host(host).port(0)
          .addService(PlainService.class, new TriplePlainService(label))
          .registration(Registration.to(registry()).application(APP).required(true).build())
          .build().start());
    }
    DubboProcess dubboProvider = DubboProcess.provider("--registry=" + estate.connectString(),
        "--application=" + APP, "--host=" + host);
    estate.add(dubboProvider);
    DubboProcess dubbo = DubboProcess.discoveringConsumer(estate.connectString(), "--application=tag-consumer");
    estate.add(dubbo);

    ZooKeeperRegistry consumerRegistry = registry();
    RuleSource rules = consumerRegistry.ruleSource();
    TripleClient client = TripleClient.builder().cluster(Discovery.using(consumerRegistry).rules(rules).build())
        .build();
    estate.add(client);
    PlainService untagged = client.proxy(PlainService.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10)));
    PlainService gray = client.proxy(PlainService.class,
        CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10)).withTag("gray"));

    Set<String> all = Set.of("t1", "t2", "default");
    AwaitPeers.until(() -> counts(untagged::whoami).keySet().equals(all), PEERS,
        "the Triple consumer calls all three providers");
    AwaitPeers.until(() -> counts(() -> whoamiFromDubbo(dubbo, null)).keySet().equals(all), PEERS,
        "the Dubbo consumer calls all three providers");

    String rule = "configVersion: v3.0\nforce: false\nenabled: true\nruntime: true\nkey: " + APP + "\ntags:\n"
        + "  - name: gray\n    addresses: [ \"" + host + ":" + estate.servers().get(0).localAddress().getPort()
        + "\", \"" + host + ":" + dubboProvider.port() + "\" ]\n";
    dubbo.publishRule(RuleKeys.tagRouter(APP), rule);

    Set<String> grayOnes = Set.of("t1", "default");
    AwaitPeers.until(() -> counts(() -> whoamiFromDubbo(dubbo, null)).keySet().equals(Set.of("t2")), PEERS,
        "the Dubbo consumer obeys the rule");
    AwaitPeers.until(() -> counts(untagged::whoami).keySet().equals(Set.of("t2")), PEERS,
        "the Triple consumer obeys the rule");
    assertRouted(dubbo, untagged, gray, grayOnes);

    // A malformed rule: both keep the last good one. Triple's own watch of the key says when it arrived.
    CountDownLatch malformedSeen = new CountDownLatch(1);
    String malformed = rule.replace("tags:", "tags: [");
    try (RuleSource.Watch watch = rules.watch(RuleKeys.tagRouter(APP), text -> {
      if (malformed.equals(text)) {
        malformedSeen.countDown();
      }
    })) {
      dubbo.publishRule(RuleKeys.tagRouter(APP), malformed);
      assertTrue(malformedSeen.await(30, TimeUnit.SECONDS), "the malformed rule reached Triple");
    }
    assertRouted(dubbo, untagged, gray, grayOnes);
  }

  private static void assertRouted(DubboProcess dubbo, PlainService untagged, PlainService gray, Set<String> grayOnes) {
    Map<String, Integer> tripleGray = counts(gray::whoami);
    Map<String, Integer> dubboGray = counts(() -> whoamiFromDubbo(dubbo, "gray"));
    assertEquals(grayOnes, tripleGray.keySet(), "Triple's gray calls: " + tripleGray);
    assertEquals(grayOnes, dubboGray.keySet(), "Dubbo's gray calls: " + dubboGray);
    assertEquals(Map.of("t2", CALLS), counts(untagged::whoami), "Triple's untagged calls");
    assertEquals(Map.of("t2", CALLS), counts(() -> whoamiFromDubbo(dubbo, null)), "Dubbo's untagged calls");
  }
}
