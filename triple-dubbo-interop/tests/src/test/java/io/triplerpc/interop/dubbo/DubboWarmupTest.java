package io.triplerpc.interop.dubbo;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.triplerpc.TripleServer;
import io.triplerpc.interop.dubbo.api.PlainService;
import io.triplerpc.registry.InstanceChange;
import io.triplerpc.registry.InstanceListener;
import io.triplerpc.registry.Registration;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.Subscription;
import io.triplerpc.registry.zookeeper.ZooKeeperRegistry;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

/**
 * The start time that warm-up counts from, across Dubbo 3.3.6 and Triple in one ZooKeeper: a Dubbo
 * provider's instance (its own JVM) reaches a Triple consumer with its {@code timestamp}, and a Triple
 * provider's instance carries one in Dubbo's place for it, which Dubbo's consumers warm up from.
 */
class DubboWarmupTest {

  /** The first list of {@code application} with an instance, as a Triple consumer's registry delivers it. */
  private static ServiceInstance firstInstance(ZooKeeperRegistry registry, String application) throws Exception {
    CompletableFuture<ServiceInstance> found = new CompletableFuture<>();
    Subscription subscription = registry.subscribe(application, new InstanceListener() {
      @Override
      public void onResync(Collection<ServiceInstance> instances) {
        instances.stream().findFirst().ifPresent(found::complete);
      }

      @Override
      public void onChanges(List<InstanceChange> changes) {
        changes.stream().filter(c -> c.kind() != InstanceChange.Kind.REMOVED).findFirst()
            .ifPresent(c -> found.complete(c.instance()));
      }
    });
    try {
      return found.get(60, TimeUnit.SECONDS);
    } finally {
      subscription.close();
    }
  }

  @Test
  void startTimesGoBothWays() throws Exception {
    try (TestingServer zooKeeper = new TestingServer(true);
        ZooKeeperRegistry registry = ZooKeeperRegistry.builder(zooKeeper.getConnectString()).dubboLayout()
            .sessionTimeout(Duration.ofSeconds(5)).build()) {
      long before = System.currentTimeMillis();
      try (DubboProcess dubbo = DubboProcess.provider("--registry=" + zooKeeper.getConnectString(),
          "--application=dubbo-warm")) {
        long started = firstInstance(registry, "dubbo-warm").startTimeMillis();
        assertTrue(started >= before && started <= System.currentTimeMillis(),
            "the Dubbo provider's timestamp is its start: " + started + " not in [" + before + ", now]");
      }

      long registering = System.currentTimeMillis();
      TripleServer server = TripleServer.builder().host("127.0.0.1").port(0)
          .addService(PlainService.class, new TriplePlainService())
          .registration(Registration.to(registry).application("triple-warm").required(true).build())
          .build().start();
      try (CuratorFramework curator = CuratorFrameworkFactory.newClient(zooKeeper.getConnectString(),
          new RetryOneTime(100))) {
        curator.start();
        String znode = "/services/triple-warm/127.0.0.1:" + server.localAddress().getPort();
        JsonNode instance = DubboProcess.JSON.readTree(
            new String(curator.getData().forPath(znode), StandardCharsets.UTF_8));
        long timestamp = Long.parseLong(instance.path("payload").path("metadata").path("timestamp").asText());
        assertTrue(timestamp >= registering && timestamp <= System.currentTimeMillis(),
            "Dubbo's timestamp in the Triple instance's metadata: " + instance);
        assertTrue(firstInstance(registry, "triple-warm").startTimeMillis() == timestamp,
            "and a Triple consumer reads it back");
      } finally {
        server.shutdownNow();
        server.awaitTermination(Duration.ofSeconds(10));
      }
    }
  }
}
