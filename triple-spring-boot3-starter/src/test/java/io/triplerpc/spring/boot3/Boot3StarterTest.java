package io.triplerpc.spring.boot3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.util.Version;
import io.triplerpc.TripleServer;
import io.triplerpc.spring.boot.app.Greeter;
import io.triplerpc.spring.boot.app.GreeterApplication;
import java.io.IOException;
import java.time.Duration;
import java.util.Collections;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootVersion;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import reactor.core.publisher.Mono;
import reactor.netty.ByteBufFlux;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.client.HttpClient;

/**
 * The Boot 4 starter's application (its test {@code GreeterApplication}) on Spring Boot 3.5 with this
 * starter: Boot 3.5's Netty 4.1 on the class path, Triple from triple-netty-shaded. The server starts with
 * the application and serves the bean, injected clients call it, Reactor Netty on the application's Netty
 * calls it too, health and metrics reach Boot 3's Actuator.
 */
@SpringBootTest(classes = GreeterApplication.class,
    properties = {"triple.server.port=0", "triple.server.host=127.0.0.1", "management.endpoint.health.show-details=always"})
class Boot3StarterTest {

  @Autowired
  private ApplicationContext context;

  @Autowired
  private TripleServer server;

  @Value("${local.triple.server.port}")
  private int localPort;

  @Test
  void theApplicationRunsOnBoot35WithNetty41AndTripleFromTheShadedJar() throws IOException {
    assertTrue(SpringBootVersion.getVersion().startsWith("3.5."), SpringBootVersion.getVersion());
    assertTrue(Version.identify().get("netty-common").artifactVersion().startsWith("4.1."),
        "the application's Netty is Boot 3.5's 4.1: " + Version.identify());
    String tripleJar = TripleServer.class.getProtectionDomain().getCodeSource().getLocation().getPath();
    assertTrue(tripleJar.matches(".*triple-netty-shaded[^/]*\\.jar"), "Triple's classes come from " + tripleJar);
    // Not triple-core beside it (whose classes would be there twice, on the unrelocated Netty 4.1).
    assertEquals(1, Collections.list(getClass().getClassLoader().getResources("io/triplerpc/TripleServer.class")).size(),
        "copies of TripleServer on the class path");
  }

  @Test
  void theServiceBeanIsServedOnTheSystemChosenPort() throws Exception {
    assertTrue(server.port() > 0);
    assertEquals(server.port(), localPort, "local.triple.server.port");
    assertEquals(server.port(), context.getBean(GreeterApplication.StartedListener.class).port.get(10, TimeUnit.SECONDS),
        "TripleServerStartedEvent's port");
  }

  @Test
  void injectedClientsCallTheService() {
    Greeter byField = context.getBean(GreeterApplication.FieldConsumer.class).greeter();
    assertEquals("Hello, field", byField.greet("field"));
    Greeter byConstructor = context.getBean(GreeterApplication.ConstructorConsumer.class).greeter();
    assertEquals("Hello, constructor", byConstructor.greet("constructor"));
    Greeter byMethod = context.getBean(GreeterApplication.MethodConsumer.class).greeter();
    assertEquals("Hello, method", byMethod.greet("method"));
    assertSame(byField, byConstructor, "one client and proxy per target");
    assertSame(byField, byMethod, "one client and proxy per target");
  }

  @Test
  void reactorNettyOnTheApplicationsNettyCallsTheServiceWithJson() {
    HttpClient http = HttpClient.create().protocol(HttpProtocol.HTTP11);
    String answer = http
        .headers(headers -> headers.set(HttpHeaderNames.CONTENT_TYPE, "application/json"))
        .post()
        .uri("http://127.0.0.1:" + server.port() + "/test.Greeter/greet")
        .send(ByteBufFlux.fromString(Mono.just("\"reactor\"")))
        .responseSingle((response, body) -> body.asString().defaultIfEmpty("")
            .map(text -> response.status().code() + " " + text.strip()))
        .block(Duration.ofSeconds(20));
    assertEquals("200 \"Hello, reactor\"", answer);
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
    assertTrue(started(registry, "grpc.server.call.started") > 0, "the server's call is counted");
    assertTrue(started(registry, "grpc.client.attempt.started") > 0, "the client's call is counted");
    assertNotNull(registry.find("triple.server.connections").gauge(), "connection gauge bound at start");
  }

  private static double started(MeterRegistry registry, String counter) {
    return registry.find(counter).tag("grpc.method", "test.Greeter/greet").counters().stream()
        .mapToDouble(Counter::count).sum();
  }
}
