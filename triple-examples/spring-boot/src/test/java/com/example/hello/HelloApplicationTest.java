package com.example.hello;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.micrometer.core.instrument.MeterRegistry;
import io.triplerpc.TripleServer;
import io.triplerpc.spring.boot.TripleReference;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.health.actuate.endpoint.HealthEndpoint;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Lazy;

/** Boots the application on a free port and calls it as its users would: a Triple client, and curl. */
@SpringBootTest(properties = {"triple.server.port=0", "triple.server.host=127.0.0.1"})
class HelloApplicationTest {

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

  @Test
  void anInjectedClientCallsTheService() throws Exception {
    Greeter greeter = context.getBean(GreeterCaller.class).greeter();
    assertEquals(new Greeter.Greeting("Hello, Ada!", 11), greeter.greet("Ada"));
    assertEquals("Hello, Bob!", greeter.greetAsync("Bob").get(10, TimeUnit.SECONDS).message());
  }

  @Test
  void curlCallsTheServiceWithJson() throws Exception {
    Process curl;
    try {
      curl = new ProcessBuilder("curl", "-sS", "-H", "content-type: application/json", "--data-binary", "\"curl\"",
          "http://127.0.0.1:" + server.port() + "/hello.Greeter/greet").redirectErrorStream(true).start();
    } catch (IOException e) {
      assumeTrue(false, "curl is not installed: " + e.getMessage());
      return;
    }
    String answer = new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(curl.waitFor(20, TimeUnit.SECONDS), "curl finished");
    assertEquals("{\"message\":\"Hello, curl!\",\"length\":12}", answer.trim());
  }

  @Test
  void healthAndMetricsSeeTheServer() {
    assertEquals(Status.UP, context.getBean(HealthEndpoint.class).healthForPath("tripleServer").getStatus());
    context.getBean(GreeterCaller.class).greeter().greet("metrics");
    assertTrue(context.getBean(MeterRegistry.class).find("grpc.client.call.duration").timer() != null,
        "the client's call metrics");
  }
}
