package com.example.hello;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.MeterRegistry;
import io.netty.util.Version;
import io.triplerpc.TripleServer;
import io.triplerpc.spring.boot.TripleReference;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.MediaType;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Boots the application on free ports and calls it as its users would: a Triple client, and WebFlux's
 * WebClient on Boot's Netty 4.1, which also reads Actuator's health from the WebFlux server.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = {"triple.server.port=0", "triple.server.host=127.0.0.1"})
class HelloApplicationTest {

  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  /** A caller of the greeter, made once the server listens (its port is local.triple.server.port). */
  @TestConfiguration(proxyBeanMethods = false)
  static class Caller {
    @Bean
    @Lazy
    GreeterCaller greeterCaller(@TripleReference(address = "127.0.0.1:${local.triple.server.port}") Greeter greeter) {
      return new GreeterCaller(greeter);
    }
  }

  record GreeterCaller(Greeter greeter) {}

  @Autowired
  private ApplicationContext context;

  @Autowired
  private TripleServer server;

  @LocalServerPort
  private int webPort;

  @Test
  void theApplicationsNettyIsBoots41() {
    assertTrue(Version.identify().get("netty-common").artifactVersion().startsWith("4.1."), Version.identify().toString());
  }

  @Test
  void anInjectedClientCallsTheService() throws Exception {
    Greeter greeter = context.getBean(GreeterCaller.class).greeter();
    assertEquals(new Greeter.Greeting("Hello, Ada!", 11), greeter.greet("Ada"));
    assertEquals("Hello, Bob!", greeter.greetAsync("Bob").get(10, TimeUnit.SECONDS).message());
  }

  @Test
  void webClientOnReactorNettyCallsTheServiceWithJson() {
    String answer = WebClient.create("http://127.0.0.1:" + server.port())
        .post().uri("/hello.Greeter/greet")
        .contentType(MediaType.APPLICATION_JSON)
        .bodyValue("\"WebClient\"")
        .retrieve().bodyToMono(String.class).block(TIMEOUT);
    assertEquals("{\"message\":\"Hello, WebClient!\",\"length\":17}", answer);
  }

  @Test
  void actuatorOnWebFluxReportsTheTripleServerUp() {
    Map<String, Object> health = WebClient.create("http://127.0.0.1:" + webPort)
        .get().uri("/actuator/health/tripleServer")
        .retrieve().bodyToMono(new ParameterizedTypeReference<Map<String, Object>>() {}).block(TIMEOUT);
    assertNotNull(health);
    assertEquals("UP", health.get("status"), health.toString());
  }

  @Test
  void callMetricsReachTheMeterRegistry() {
    context.getBean(GreeterCaller.class).greeter().greet("metrics");
    assertNotNull(context.getBean(MeterRegistry.class).find("grpc.client.call.duration").timer(), "the client's call metrics");
  }
}
