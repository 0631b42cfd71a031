package io.triplerpc.spring.boot3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.spring.boot.TripleReference;
import io.triplerpc.spring.boot.app.Greeter;
import io.triplerpc.spring.boot.app.GreeterImpl;
import io.triplerpc.spring.boot.autoconfigure.TripleClientAutoConfiguration;
import io.triplerpc.spring.boot.autoconfigure.TripleMetricsAutoConfiguration;
import io.triplerpc.spring.boot.autoconfigure.TripleRegistryAutoConfiguration;
import io.triplerpc.spring.boot.autoconfigure.TripleServerAutoConfiguration;
import io.triplerpc.spring.boot3.autoconfigure.TripleHealthAutoConfiguration;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The properties on Boot 3.5's binder and conditions, as the Boot 4 starter's ConfigurationTest checks them
 * on Boot 4: limits, errors at start-up naming the property, the switches, and the optional modules.
 */
class Boot3ConfigurationTest {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(TripleRegistryAutoConfiguration.class,
          TripleServerAutoConfiguration.class, TripleClientAutoConfiguration.class))
      .withPropertyValues("triple.server.port=0", "triple.server.host=127.0.0.1");

  @Configuration(proxyBeanMethods = false)
  static class Service {
    @Bean
    GreeterImpl greeter() {
      return new GreeterImpl();
    }
  }

  /** A consumer of a server at a fixed, unused address; never called. */
  @Configuration(proxyBeanMethods = false)
  static class ClientOnly {
    @Bean
    Holder holder(@TripleReference(address = "127.0.0.1:1") Greeter greeter) {
      return new Holder(greeter);
    }
  }

  record Holder(Greeter greeter) {}

  private static <T> T call(TripleServer server, Function<Greeter, T> call) {
    try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port()).build()) {
      return call.apply(client.proxy(Greeter.class));
    }
  }

  @Test
  void theMessageSizeLimitIsTheProperty() {
    runner.withUserConfiguration(Service.class)
        .withPropertyValues("triple.server.max-inbound-message-size=1KB")
        .run(context -> {
          TripleServer server = context.getBean(TripleServer.class);
          assertEquals("Hello, small", call(server, greeter -> greeter.greet("small")));
          StatusException refused = assertThrows(StatusException.class,
              () -> call(server, greeter -> greeter.greet("x".repeat(2000))));
          assertEquals(Status.Code.RESOURCE_EXHAUSTED, refused.status().code());
        });
  }

  @Test
  void aValueTheBuilderRefusesStopsStartUpNamingTheProperty() {
    runner.withUserConfiguration(Service.class).withPropertyValues("triple.server.keep-alive-time=0s")
        .run(context -> {
          String messages = messages(context.getStartupFailure());
          assertTrue(messages.contains("triple.server.keep-alive-time: keepAliveTime must be positive"), messages);
        });
  }

  @Test
  void aPortOutOfRangeStopsStartUpNamingTheProperty() {
    runner.withUserConfiguration(Service.class).withPropertyValues("triple.server.port=70000").run(context -> {
      String messages = messages(context.getStartupFailure());
      assertTrue(messages.contains("Failed to bind properties under 'triple.server'"), messages);
      assertTrue(messages.contains("triple.server.port must be between 0 and 65535: 70000"), messages);
    });
  }

  @Test
  void noServiceBeanMeansNoServerAndEnabledFalseNone() {
    runner.withUserConfiguration(ClientOnly.class).run(context -> {
      assertFalse(context.containsBean("tripleServer"));
      assertNotNull(context.getBean(Holder.class).greeter());
    });
    runner.withUserConfiguration(Service.class).withPropertyValues("triple.server.enabled=false")
        .run(context -> assertFalse(context.containsBean("tripleServer")));
  }

  @Test
  void metricsGoToTheMeterRegistryUnlessTurnedOff() {
    ApplicationContextRunner withMetrics = runner
        .withConfiguration(AutoConfigurations.of(TripleMetricsAutoConfiguration.class))
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withUserConfiguration(Service.class);
    withMetrics.run(context -> {
      call(context.getBean(TripleServer.class), greeter -> greeter.greet("counted"));
      assertNotNull(context.getBean(MeterRegistry.class).find("grpc.server.call.started").counter());
    });
    withMetrics.withPropertyValues("triple.metrics.enabled=false").run(context -> {
      call(context.getBean(TripleServer.class), greeter -> greeter.greet("not counted"));
      assertTrue(context.getBean(MeterRegistry.class).getMeters().isEmpty());
    });
  }

  @Test
  void healthIndicatorsUnlessTurnedOff() {
    ApplicationContextRunner withHealth = runner
        .withConfiguration(AutoConfigurations.of(TripleHealthAutoConfiguration.class))
        .withUserConfiguration(Service.class);
    withHealth.run(context -> assertTrue(context.getBean("tripleServerHealthIndicator") instanceof HealthIndicator));
    withHealth.withPropertyValues("management.health.triple.enabled=false")
        .run(context -> assertFalse(context.containsBean("tripleServerHealthIndicator")));
  }

  @Test
  void theOptionalModulesMayBeMissing() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(TripleRegistryAutoConfiguration.class, TripleMetricsAutoConfiguration.class,
            TripleServerAutoConfiguration.class, TripleClientAutoConfiguration.class, TripleHealthAutoConfiguration.class))
        .withClassLoader(new FilteredClassLoader("io.triplerpc.registry.", "io.triplerpc.micrometer.", "io.micrometer."))
        .withUserConfiguration(Service.class, ClientOnly.class)
        .withPropertyValues("triple.server.port=0", "triple.server.host=127.0.0.1", "triple.registry.address=127.0.0.1:1")
        .run(context -> {
          assertEquals("Hello, alone", call(context.getBean(TripleServer.class), greeter -> greeter.greet("alone")));
          assertFalse(context.containsBean("tripleRegistry"));
          assertFalse(context.containsBean("tripleServerMetrics"));
          assertFalse(context.containsBean("tripleRegistryHealthIndicator"));
          assertTrue(context.containsBean("tripleServerHealthIndicator"));
        });
  }

  @Test
  void theMetadataDescribesEveryProperty() throws Exception {
    String metadata = null;
    for (URL url : Collections.list(getClass().getClassLoader().getResources("META-INF/spring-configuration-metadata.json"))) {
      try (InputStream in = url.openStream()) {
        String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        if (text.contains("\"triple.server.port\"")) {
          metadata = text;
        }
      }
    }
    assertNotNull(metadata, "the configuration processor's metadata");
    for (String property : new String[] {"triple.server.max-inbound-message-size", "triple.server.shutdown.grace-period",
        "triple.server.max-concurrent-calls", "triple.client.deadline", "triple.registry.address", "triple.metrics.enabled",
        "triple.tracing.enabled", "triple.server.virtual-threads", "triple.client.load-balancing",
        "triple.client.service-config-location", "triple.client.bearer-token", "triple.client.targets"}) {
      assertTrue(metadata.contains("\"" + property + "\""), property);
    }
    assertTrue(metadata.contains("Port to listen on"), "descriptions come from the fields' Javadoc");
  }

  private static String messages(Throwable failure) {
    assertNotNull(failure, "start-up failed");
    StringBuilder all = new StringBuilder();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      all.append(t.getMessage()).append('\n');
    }
    return all.toString();
  }
}
