package io.triplerpc.spring.boot3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.registry.InProcessRegistry;
import io.triplerpc.spring.boot.app.Greeter;
import io.triplerpc.spring.boot.app.GreeterApplication;
import io.triplerpc.spring.boot.app.GreeterImpl;
import io.triplerpc.spring.boot.app.RecordingRegistry;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Closing a Boot 3.5 application context, as the Boot 4 starter's GracefulShutdownTest: the instance leaves
 * the registry while the server still takes new connections, health turns DOWN, a call in flight finishes
 * within the grace period, or is cut off after it.
 */
class Boot3GracefulShutdownTest {

  private final InProcessRegistry registry = new InProcessRegistry();
  private final List<String> events = new CopyOnWriteArrayList<>();
  private final CompletableFuture<String> unregistered = new CompletableFuture<>();
  private final ExecutorService threads = Executors.newCachedThreadPool();

  @AfterEach
  void close() {
    threads.shutdownNow();
    registry.close();
  }

  /** Started with the recording registry; at its withdrawal a new connection's call is made and recorded. */
  private ConfigurableApplicationContext start(String gracePeriod) {
    RecordingRegistry recording = new RecordingRegistry(registry, instance -> {
      try (TripleClient late = TripleClient.builder().address("127.0.0.1", instance.port()).build()) {
        events.add("unregister; a new connection is served: " + late.proxy(Greeter.class).greet("late"));
      } catch (RuntimeException e) {
        events.add("unregister; a new connection failed: " + e);
      }
      unregistered.complete(instance.application());
    });
    return new SpringApplicationBuilder(GreeterApplication.class)
        .web(WebApplicationType.NONE)
        .initializers(context -> context.getBeanFactory().registerSingleton("registry", recording))
        .properties("triple.server.port=0", "triple.server.host=127.0.0.1", "spring.application.name=greeter-app",
            "triple.server.shutdown.grace-period=" + gracePeriod)
        .run();
  }

  @Test
  void theInstanceLeavesTheRegistryHealthTurnsDownAndACallInFlightFinishes() throws Exception {
    ConfigurableApplicationContext context = start("20s");
    TripleServer server = context.getBean(TripleServer.class);
    GreeterImpl service = context.getBean(GreeterImpl.class);
    HealthEndpoint health = context.getBean(HealthEndpoint.class);
    assertEquals(Status.UP, health.healthForPath("tripleServer").getStatus());
    assertEquals(Set.of("greeter-app"), registry.applications("test.Greeter").get(10, TimeUnit.SECONDS));
    try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port()).build()) {
      Greeter greeter = client.proxy(Greeter.class);
      CompletableFuture<String> inFlight = CompletableFuture.supplyAsync(() -> greeter.slow("drain"), threads);
      assertTrue(service.slowArrived.await(10, TimeUnit.SECONDS), "the slow call reached the service");

      CompletableFuture<Void> closed = CompletableFuture.runAsync(context::close, threads);
      assertEquals("greeter-app", unregistered.get(10, TimeUnit.SECONDS));
      assertEquals(List.of("unregister; a new connection is served: Hello, late"), events);
      assertEquals(Status.DOWN, health.healthForPath("tripleServer").getStatus(), "DOWN while draining");

      service.release();
      assertEquals("Finally, drain", inFlight.get(10, TimeUnit.SECONDS));
      closed.get(20, TimeUnit.SECONDS);
      assertTrue(server.isTerminated());
      StatusException after = assertThrows(StatusException.class, () -> greeter.greet("after"));
      assertEquals(io.triplerpc.Status.Code.UNAVAILABLE, after.status().code());
    }
  }

  @Test
  void aCallPastTheGracePeriodIsCutOff() throws Exception {
    ConfigurableApplicationContext context = start("300ms");
    TripleServer server = context.getBean(TripleServer.class);
    GreeterImpl service = context.getBean(GreeterImpl.class);
    try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port()).build()) {
      Greeter greeter = client.proxy(Greeter.class);
      CompletableFuture<String> inFlight = CompletableFuture.supplyAsync(() -> greeter.slow("too long"), threads);
      assertTrue(service.slowArrived.await(10, TimeUnit.SECONDS), "the slow call reached the service");
      context.close();
      assertTrue(server.isTerminated());
      ExecutionException failed = assertThrows(ExecutionException.class, () -> inFlight.get(10, TimeUnit.SECONDS));
      assertTrue(failed.getCause() instanceof StatusException, failed.getCause().toString());
    } finally {
      service.release();
    }
  }
}
