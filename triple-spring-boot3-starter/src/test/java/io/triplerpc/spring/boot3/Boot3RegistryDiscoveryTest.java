package io.triplerpc.spring.boot3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.MeterRegistry;
import io.triplerpc.StatusException;
import io.triplerpc.registry.DiscoveryObserver;
import io.triplerpc.registry.Registry;
import io.triplerpc.registry.remote.RemoteRegistry;
import io.triplerpc.registry.server.RegistryServer;
import io.triplerpc.spring.boot.TripleReference;
import io.triplerpc.spring.boot.app.Greeter;
import io.triplerpc.spring.boot.app.GreeterApplication;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The Boot 4 starter's RegistryDiscoveryTest on Boot 3.5 and the shaded jar: with triple.registry.address
 * naming a registry server (embedded in the test), the server registers as spring.application.name, a
 * reference without an address finds it there, discovery's meters reach the MeterRegistry, and the
 * registry's health follows the registry.
 */
@SpringBootTest(classes = {GreeterApplication.class, Boot3RegistryDiscoveryTest.Consumer.class},
    properties = {"triple.server.port=0", "triple.server.host=127.0.0.1", "spring.application.name=greeter-app",
        "triple.registry.timeout=2s"})
@DirtiesContext
class Boot3RegistryDiscoveryTest {

  private static RegistryServer registryServer;

  @DynamicPropertySource
  static void registry(DynamicPropertyRegistry properties) {
    registryServer = RegistryServer.builder().host("127.0.0.1").port(0).build().start();
    properties.add("triple.registry.address", () -> "registry://127.0.0.1:" + registryServer.port());
  }

  @AfterAll
  static void stopRegistry() throws InterruptedException {
    registryServer.shutdownNow();
    registryServer.awaitTermination(Duration.ofSeconds(10));
  }

  /** Calls the greeter wherever the registry says it is. */
  @TestConfiguration(proxyBeanMethods = false)
  static class Consumer {
    @Bean
    Discovering discovering() {
      return new Discovering();
    }

    /** Counts down once discovery reports an instance of the greeter (the starter's metrics observer is then not made). */
    @Bean
    FoundObserver discoveryObserver() {
      return new FoundObserver();
    }
  }

  static final class FoundObserver implements DiscoveryObserver {
    final CountDownLatch found = new CountDownLatch(1);

    @Override
    public void instancesChanged(String service, String version, String group, int count) {
      if (service.equals("test.Greeter") && count > 0) {
        found.countDown();
      }
    }

    @Override
    public void pushApplied(String application, long lagNanos) {
    }
  }

  static class Discovering {
    @TripleReference
    Greeter greeter;
  }

  @Autowired
  private Discovering discovering;

  @Autowired
  private FoundObserver discoveryObserver;

  @Autowired
  private HealthEndpoint health;

  @Autowired
  private Registry registry;

  @Autowired
  private MeterRegistry meters;

  @Test
  void theServerRegistersAndAReferenceWithoutAddressFindsIt() throws Exception {
    try (RemoteRegistry observer = RemoteRegistry.connect("127.0.0.1", registryServer.port())) {
      assertEquals(Set.of("greeter-app"), observer.applications("test.Greeter").get(10, TimeUnit.SECONDS));
    }
    assertTrue(registry instanceof RemoteRegistry, registry.toString());
    // The reference was made before the server registered; its discovery looks the service up again until an
    // application serves it. A first call names the service to discovery, if the reference has not yet.
    try {
      discovering.greeter.greet("probe");
    } catch (StatusException notYet) {
      // UNAVAILABLE until discovery finds the instance, awaited below.
    }
    assertTrue(discoveryObserver.found.await(20, TimeUnit.SECONDS), "discovery found the greeter");
    assertEquals("Hello, registry", discovering.greeter.greet("registry"));
    assertTrue(meters.find("grpc.client.attempt.started").counters().stream().anyMatch(c -> c.count() > 0),
        "the reference's calls are counted");
    assertEquals(Status.UP, health.healthForPath("tripleRegistry").getStatus());

    registryServer.shutdownNow();
    assertTrue(registryServer.awaitTermination(Duration.ofSeconds(10)));
    assertEquals(Status.DOWN, health.healthForPath("tripleRegistry").getStatus());
    assertEquals("Hello, again", discovering.greeter.greet("again"), "consumers keep their last addresses");
  }
}
