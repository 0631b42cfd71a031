package io.triplerpc.registry.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.triplerpc.registry.InProcessRegistry;
import io.triplerpc.registry.LoadBalancing;
import io.triplerpc.registry.MetadataInfo;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.spi.ServerInfo;
import io.triplerpc.testing.ManualClock;
import java.time.Duration;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Warm-up on a controllable clock: a new instance's weight ramps by Dubbo's formula over the window, the
 * weighted balancer follows it, and a restarted instance warms up again.
 */
class WarmupTest {

  private static final String APP = "shop";
  private static final long WARMUP = TimeUnit.MINUTES.toMillis(10);
  /** The wall clock's time when the manual clock reads 0. */
  private static final long EPOCH = 1_765_000_000_000L;

  private final ManualClock clock = new ManualClock();
  private final InProcessRegistry registry = new InProcessRegistry();
  private final MetadataInfo metadata = MetadataInfo.of(APP,
      List.of(new ServerInfo.Service("demo.Cart", List.of("call"), "proto", "", "")));

  @AfterEach
  void stop() {
    clock.close();
    registry.close();
  }

  private long now() {
    return EPOCH + TimeUnit.NANOSECONDS.toMillis(clock.nanoTime());
  }

  private ApplicationDirectory directory() {
    registry.publishMetadata(metadata);
    DirectorySettings settings = new DirectorySettings(LoadBalancing.WEIGHTED_RANDOM, 0, 0,
        TimeUnit.SECONDS.toNanos(1), true, TimeUnit.SECONDS.toNanos(1), (d, changes) -> {}, null, null, null,
        clock::nanoTime, null, HashRing.DEFAULT_NODES, WARMUP, this::now);
    return new ApplicationDirectory(APP, registry, clock.scheduler(), settings, null);
  }

  private ServiceInstance instance(int port, long startTime) {
    return ServiceInstance.of(APP, "10.0.0.1", port, metadata.revision()).withStartTime(startTime);
  }

  private static Map<Integer, Integer> weights(ApplicationDirectory directory) {
    Map<Integer, Integer> weights = new HashMap<>();
    directory.forEachEndpoint(e -> weights.put(e.port, e.weight));
    return weights;
  }

  @Test
  void dubbosFormula() {
    // AbstractLoadBalance.calculateWarmupWeight: (int) (uptime / ((float) warmup / weight)), in [1, weight].
    assertEquals(1, Warmup.weight(100, 1_000, WARMUP, 1_001), "1 ms in: at least 1");
    assertEquals(10, Warmup.weight(100, 1_000, WARMUP, 1_000 + 60_000), "a tenth of the window: a tenth");
    assertEquals(50, Warmup.weight(100, 1_000, WARMUP, 1_000 + 300_000));
    assertEquals(99, Warmup.weight(100, 1_000, WARMUP, 1_000 + WARMUP - 1));
    assertEquals(100, Warmup.weight(100, 1_000, WARMUP, 1_000 + WARMUP));
    assertEquals(1, Warmup.weight(100, 5_000, WARMUP, 1_000), "a start time ahead of the clock: 1, as Dubbo");
    assertEquals(0, Warmup.weight(0, 1_000, WARMUP, 2_000), "weight 0 stays 0");
    assertEquals(100, Warmup.weight(100, 0, WARMUP, 2_000), "no start time: no warm-up");
    assertEquals(100, Warmup.weight(100, 1_000, 0, 2_000), "warm-up off");
    assertEquals(3, Warmup.weight(300, 1_000, WARMUP, 1_000 + 6_000), "a weight of 300 ramps three times as fast");
  }

  @Test
  void aNewInstancesWeightRampsUpOverTheWindowWhileAnOldOneKeepsItsOwn() {
    ApplicationDirectory directory = directory();
    ServiceDirectory cart = new ServiceDirectory("demo.Cart", LoadBalancing.WEIGHTED_RANDOM);
    directory.addService(cart);
    directory.onResync(List.of(instance(1, now() - TimeUnit.HOURS.toMillis(1)), instance(2, now() - 1)));
    clock.runPending();
    assertEquals(Map.of(1, 100, 2, 1), weights(directory));

    clock.advance(Duration.ofMinutes(1));
    assertEquals(Map.of(1, 100, 2, 10), weights(directory));
    // The balancer follows: about 10 of 110 calls go to the new one.
    Map<Endpoint, Integer> picks = new IdentityHashMap<>();
    for (int i = 0; i < 11_000; i++) {
      picks.merge(cart.pick(new Endpoint[0], 0), 1, Integer::sum);
    }
    int toNew = picks.entrySet().stream().filter(e -> e.getKey().port == 2).mapToInt(Map.Entry::getValue).sum();
    assertEquals(1_000, toNew, 250, "a tenth of the old one's share: " + toNew);

    clock.advance(Duration.ofMinutes(4));
    assertEquals(Map.of(1, 100, 2, 50), weights(directory));
    clock.advance(Duration.ofMinutes(5));
    assertEquals(Map.of(1, 100, 2, 100), weights(directory));
  }

  @Test
  void aRestartedInstanceWarmsUpAgainAndAWeightChangedMidwayRampsToTheNewWeight() {
    ApplicationDirectory directory = directory();
    directory.onResync(List.of(instance(1, now() - TimeUnit.HOURS.toMillis(1))));
    clock.runPending();
    assertEquals(Map.of(1, 100), weights(directory));

    // The same address, started again: a new start time in the registry.
    directory.onResync(List.of(instance(1, now() - 1)));
    clock.runPending();
    assertEquals(Map.of(1, 1), weights(directory));
    clock.advance(Duration.ofMinutes(2));
    assertEquals(Map.of(1, 20), weights(directory));

    directory.onResync(List.of(instance(1, now() - TimeUnit.MINUTES.toMillis(2)).withWeight(200)));
    clock.runPending();
    assertEquals(Map.of(1, 40), weights(directory), "two minutes of ten, of 200");
    clock.advance(Duration.ofMinutes(8));
    assertEquals(Map.of(1, 200), weights(directory));
  }

  @Test
  void withoutAStartTimeOrWithWarmupOffAnInstanceHasItsFullWeightAtOnce() {
    ApplicationDirectory directory = directory();
    directory.onResync(List.of(instance(1, 0), instance(2, now() - 1).withWeight(0)));
    clock.runPending();
    assertEquals(Map.of(1, 100, 2, 0), weights(directory));
  }
}
