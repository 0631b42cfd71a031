package io.triplerpc.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Counter;
import io.triplerpc.TripleServer;
import io.triplerpc.spring.boot.app.Greeter;
import io.triplerpc.spring.boot.app.GreeterApplication;
import io.triplerpc.spring.boot.internal.TripleReferences;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;

/** One application serving a bean, calling it through injected clients and curl; its health and metrics. */
@SpringBootTest(classes = GreeterApplication.class,
    properties = {"triple.server.port=0", "triple.server.host=127.0.0.1", "management.endpoint.health.show-details=always"})
class TripleStarterTest {

  @Autowired
  private ApplicationContext context;

  @Autowired
  private TripleServer server;

  @Value("${local.triple.server.port}")
  private int localPort;

  @Test
  void theServiceBeanIsServedOnTheSystemChosenPort() throws Exception {
    assertTrue(server.port() > 0);
    assertEquals(new InetSocketAddress("127.0.0.1", server.port()), server.localAddress());
    assertEquals(server.port(), localPort, "local.triple.server.port");
    assertEquals(server.port(), context.getBean(GreeterApplication.StartedListener.class).port.get(10, TimeUnit.SECONDS),
        "TripleServerStartedEvent's port");
  }

  @Test
  void aFieldInjectedClientCallsTheService() {
    Greeter greeter = context.getBean(GreeterApplication.FieldConsumer.class).greeter();
    assertEquals("Hello, field", greeter.greet("field"));
  }

  @Test
  void aConstructorInjectedClientCallsTheService() {
    Greeter greeter = context.getBean(GreeterApplication.ConstructorConsumer.class).greeter();
    assertEquals("Hello, constructor", greeter.greet("constructor"));
  }

  @Test
  void aBeanMethodParameterIsInjectedToo() {
    Greeter greeter = context.getBean(GreeterApplication.MethodConsumer.class).greeter();
    assertEquals("Hello, method", greeter.greet("method"));
  }

  @Test
  void referencesToOneTargetShareOneClientAndProxy() {
    Greeter byField = context.getBean(GreeterApplication.FieldConsumer.class).greeter();
    Greeter byConstructor = context.getBean(GreeterApplication.ConstructorConsumer.class).greeter();
    assertSame(byField, byConstructor);
    assertSame(byField, context.getBean(GreeterApplication.MethodConsumer.class).greeter());
    assertEquals(List.of("127.0.0.1:" + server.port()), List.copyOf(context.getBean(TripleReferences.class).clients().keySet()));
  }

  @Test
  void curlCallsTheServiceWithJson(@TempDir Path dir) throws Exception {
    Path out = dir.resolve("out.txt");
    Process curl;
    try {
      curl = new ProcessBuilder("curl", "-sS", "-o", out.toString(), "-w", "%{http_code}",
          "-H", "content-type: application/json", "--data-binary", "\"curl\"",
          "http://127.0.0.1:" + server.port() + "/test.Greeter/greet").redirectErrorStream(true).start();
    } catch (IOException e) {
      assumeTrue(false, "curl is not installed: " + e.getMessage());
      return;
    }
    String status = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(curl.waitFor(20, TimeUnit.SECONDS), "curl finished");
    String body = Files.readString(out, StandardCharsets.UTF_8);
    assertEquals("200", status, body);
    assertEquals("\"Hello, curl\"", body.trim());
  }

  @Test
  void healthIsUpWhileServing() {
    HealthEndpoint health = context.getBean(HealthEndpoint.class);
    assertEquals(Status.UP, health.healthForPath("tripleServer").getStatus());
    assertEquals(Status.UP, health.health().getStatus());
  }

  @Test
  void callMetricsReachTheApplicationsMeterRegistry() {
    MeterRegistry registry = context.getBean(MeterRegistry.class);
    Greeter greeter = context.getBean(GreeterApplication.FieldConsumer.class).greeter();
    assertEquals("Hello, metrics", greeter.greet("metrics"));
    // Counted before the reply existed: each side's start is observed before the call goes on.
    assertTrue(started(registry, "grpc.server.call.started") > 0, "the server's call is counted");
    assertTrue(started(registry, "grpc.client.attempt.started") > 0, "the client's call is counted");
    assertTrue(registry.find("triple.server.connections").gauge() != null, "connection gauge bound at start");
  }

  private static double started(MeterRegistry registry, String counter) {
    return registry.find(counter).tag("grpc.method", "test.Greeter/greet").counters().stream()
        .mapToDouble(Counter::count).sum();
  }
}
