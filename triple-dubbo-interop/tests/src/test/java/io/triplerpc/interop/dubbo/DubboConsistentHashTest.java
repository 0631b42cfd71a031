package io.triplerpc.interop.dubbo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.CallOptions;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.interop.dubbo.api.PlainService;
import io.triplerpc.registry.Discovery;
import io.triplerpc.registry.LoadBalancing;
import io.triplerpc.registry.Registration;
import io.triplerpc.registry.zookeeper.ZooKeeperRegistry;
import io.triplerpc.testing.AwaitPeers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A Triple consumer with {@link LoadBalancing#CONSISTENT_HASH} and a real Apache Dubbo 3.3.6 consumer
 * (its own JVM) with {@code loadbalance=consistenthash}, both finding the same three Triple providers in
 * real ZooKeeper, send each key (the first argument) to the same provider: the rings agree.
 */
class DubboConsistentHashTest {

  private static final Duration PEERS = Duration.ofSeconds(60);
  private static final int KEYS = 30;

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

  /** Whether every provider has recorded an event that starts with {@code prefix}. */
  private static boolean allCalled(List<TriplePlainService> providers, String prefix) {
    return providers.stream().allMatch(p -> p.recorded().stream().anyMatch(e -> e.startsWith(prefix)));
  }

  /** Whether the Dubbo consumer's {@code record(event)} succeeded. */
  private static boolean record(DubboProcess consumer, String event) {
    try {
      return consumer.call(PlainService.class, "record", event).path("ok").asBoolean();
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void tripleAndDubboConsumersSendEachKeyToTheSameProvider() throws Exception {
    estate = new ZooKeeperEstate();
    List<TriplePlainService> providers = new ArrayList<>();
    for (String label : List.of("a", "b", "c")) {
      TriplePlainService provider = new TriplePlainService(label);
      providers.add(provider);
      estate.serve(TripleServer.builder().host("127.0.0.1").port(0)
          .addService(PlainService.class, provider)
          .registration(Registration.to(registry()).application("hash-app").required(true).build())
          .build().start());
    }

    DubboProcess dubbo = DubboProcess.discoveringConsumer(estate.connectString(), "--loadbalance=consistenthash");
    estate.add(dubbo);
    // Until Dubbo knows all three, its ring is another: probe with distinct keys until each provider was hit.
    int[] probe = {0};
    AwaitPeers.until(() -> {
      for (int i = 0; i < 20; i++) {
        record(dubbo, "dubbo-probe-" + probe[0]++);
      }
      return allCalled(providers, "dubbo-probe-");
    }, PEERS, "the Dubbo consumer's ring holds all three Triple providers");
    for (int k = 0; k < KEYS; k++) {
      assertTrue(record(dubbo, "user-" + k), "user-" + k);
    }

    TripleClient client = TripleClient.builder().cluster(Discovery.using(registry())
        .loadBalancing(LoadBalancing.CONSISTENT_HASH).build()).build();
    estate.add(client);
    PlainService plain = client.proxy(PlainService.class,
        CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10)).withHashArguments(0));
    int[] tripleProbe = {0};
    AwaitPeers.until(() -> {
      for (int i = 0; i < 20; i++) {
        plain.record("triple-probe-" + tripleProbe[0]++);
      }
      return allCalled(providers, "triple-probe-");
    }, PEERS, "the Triple consumer's ring holds all three providers");
    for (int k = 0; k < KEYS; k++) {
      plain.record("user-" + k);
    }

    Map<String, List<String>> keysByProvider = new TreeMap<>();
    Set<String> used = new HashSet<>();
    for (TriplePlainService provider : providers) {
      List<String> keys = provider.recorded().stream().filter(e -> e.startsWith("user-")).sorted().toList();
      keysByProvider.put(provider.whoami(), keys);
      for (String key : new HashSet<>(keys)) {
        assertEquals(2, keys.stream().filter(key::equals).count(),
            key + " reached " + provider.whoami() + " from one consumer only: " + keysByProvider);
        used.add(provider.whoami());
      }
    }
    assertEquals(2 * KEYS, keysByProvider.values().stream().mapToInt(List::size).sum(), keysByProvider::toString);
    assertTrue(used.size() >= 2, "the keys spread over the providers: " + keysByProvider);
  }
}
