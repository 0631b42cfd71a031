package io.triplerpc.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.MeterRegistry;
import io.triplerpc.StatusException;
import io.triplerpc.registry.Registry;
import io.triplerpc.registry.remote.RemoteRegistry;
import io.triplerpc.registry.server.RegistryServer;
import io.triplerpc.spring.boot.app.Greeter;
import io.triplerpc.spring.boot.app.GreeterApplication;
import io.triplerpc.micrometer.DiscoveryMetrics;
import io.triplerpc.registry.DiscoveryObserver;
import io.triplerpc.testing.Signal;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * With triple.registry.address naming a registry server (triple-registry's, embedded in the test): the
 * server registers as spring.application.name, a reference without an address finds it there, and the
 * registry's health follows the registry.
 */
@SpringBootTest(classes = {GreeterApplication.class, RegistryDiscoveryTest.Consumer.class},
    properties = {"triple.server.port=0", "triple.server.host=127.0.0.1", "spring.application.name=greeter-app",
        "triple.registry.timeout=2s"})
@DirtiesContext
class RegistryDiscoveryTest {

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

    /** Discovery's meters, as the starter makes them when no observer is given, told through a signal. */
    @Bean
    SignallingObserver discoveryObserver(MeterRegistry meters) {
      return new SignallingObserver(DiscoveryMetrics.observer(meters));
    }
  }

  /** Tells discovery's reports to {@code metrics}, then fires: the test awaits the instances found. */
  static final class SignallingObserver implements DiscoveryObserver {
    private final DiscoveryObserver metrics;
    private final Map<String, Integer> instances = new ConcurrentHashMap<>();
    private final Signal reported = new Signal();

    SignallingObserver(DiscoveryObserver metrics) {
      this.metrics = metrics;
    }

    @Override
    public void instancesChanged(String service, String version, String group, int count) {
      metrics.instancesChanged(service, version, group, count);
      instances.put(service, count);
      reported.fire();
    }

    @Override
    public void pushApplied(String application, long lagNanos) {
      metrics.pushApplied(application, lagNanos);
    }

    void awaitInstances(String service, int count) {
      reported.await(() -> Integer.valueOf(count).equals(instances.get(service)),
          count + " instances of " + service + "; reported: " + instances);
    }
  }

  static class Discovering {
    @TripleReference
    Greeter greeter;
  }

  @Autowired
  private Discovering discovering;

  @Autowired
  private SignallingObserver discoveryObserver;

  @Autowired
  private HealthEndpoint health;

  @Autowired
  private Registry registry;

  @Autowired
  private MeterRegistry meters;

  private static boolean greets(Greeter greeter) {
    try {
      return greeter.greet("probe").equals("Hello, probe");
    } catch (StatusException e) {
      return false;
    }
  }

  @Test
  void theServerRegistersAndAReferenceWithoutAddressFindsIt() throws Exception {
    try (RemoteRegistry observer = RemoteRegistry.connect("127.0.0.1", registryServer.port())) {
      assertEquals(Set.of("greeter-app"), observer.applications("test.Greeter").get(10, TimeUnit.SECONDS));
    }
    // The consumer was made before the server registered; its discovery looks the service up again
    // (250 ms, doubling) until an application serves it, then reports its instance.
    greets(discovering.greeter); // names the service to discovery, if the reference has not yet
    discoveryObserver.awaitInstances("test.Greeter", 1);
    assertEquals("Hello, registry", discovering.greeter.greet("registry"));
    assertEquals(1.0, meters.get("triple.registry.instances").tag("triple.service", "test.Greeter").gauge().value(),
        "discovery's meters");
    assertEquals(Status.UP, health.healthForPath("tripleRegistry").getStatus());
    assertTrue(registry instanceof RemoteRegistry, registry.toString());

    registryServer.shutdownNow();
    assertTrue(registryServer.awaitTermination(Duration.ofSeconds(10)));
    assertEquals(Status.DOWN, health.healthForPath("tripleRegistry").getStatus());
    assertEquals("Hello, again", discovering.greeter.greet("again"), "consumers keep their last addresses");
  }
}
