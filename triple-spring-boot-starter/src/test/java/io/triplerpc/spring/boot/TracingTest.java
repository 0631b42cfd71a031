package io.triplerpc.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.triplerpc.TripleServer;
import io.triplerpc.spring.boot.app.Greeter;
import io.triplerpc.spring.boot.app.GreeterImpl;
import io.triplerpc.spring.boot.app.References;
import io.triplerpc.spring.boot.app.TracingConfiguration;
import io.triplerpc.spring.boot.autoconfigure.TripleClientAutoConfiguration;
import io.triplerpc.spring.boot.autoconfigure.TripleRegistryAutoConfiguration;
import io.triplerpc.spring.boot.autoconfigure.TripleServerAutoConfiguration;
import io.triplerpc.spring.boot.autoconfigure.TripleTracingAutoConfiguration;
import io.triplerpc.spring.boot.internal.TripleReferences;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * With triple-opentelemetry and an OpenTelemetry bean, the server and the references' clients are traced:
 * a call through a reference makes a client span and a server span of one trace, the server's the client's
 * child; {@code triple.tracing.enabled=false}, no OpenTelemetry bean or no triple-opentelemetry, none.
 */
class TracingTest {

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(TripleRegistryAutoConfiguration.class, TripleTracingAutoConfiguration.class,
          TripleServerAutoConfiguration.class, TripleClientAutoConfiguration.class))
      .withUserConfiguration(Service.class)
      .withPropertyValues("triple.server.port=0", "triple.server.host=127.0.0.1");

  @Configuration(proxyBeanMethods = false)
  static class Service {
    @Bean
    GreeterImpl greeter() {
      return new GreeterImpl();
    }
  }

  /** Calls the context's server through a reference, as {@code @TripleReference(address = ...)} does. */
  static String callThroughAReference(ApplicationContext context, String name) {
    int port = context.getBean(TripleServer.class).port();
    Greeter greeter = (Greeter) context.getBean(TripleReferences.class)
        .proxy(Greeter.class, References.to("127.0.0.1:" + port), "test");
    return greeter.greet(name);
  }

  @Test
  void aCallThroughAReferenceMakesAClientAndAServerSpanOfOneTrace() {
    runner.withUserConfiguration(TracingConfiguration.class).run(context -> {
      assertEquals("Hello, traced", callThroughAReference(context, "traced"));
      List<SpanData> spans = context.getBean(TracingConfiguration.Spans.class).await(2);
      assertEquals(2, spans.size(), spans.toString());
      SpanData client = spans.stream().filter(span -> span.getKind() == SpanKind.CLIENT).findFirst().orElseThrow();
      SpanData server = spans.stream().filter(span -> span.getKind() == SpanKind.SERVER).findFirst().orElseThrow();
      assertEquals("test.Greeter/greet", client.getName());
      assertEquals("test.Greeter/greet", server.getName());
      assertEquals(client.getTraceId(), server.getTraceId(), "one trace");
      assertEquals(client.getSpanId(), server.getParentSpanId(), "the server's span is the client's child");
    });
  }

  @Test
  void tracingIsOffWhenTurnedOffOrWithoutOpenTelemetry() {
    runner.withUserConfiguration(TracingConfiguration.class).withPropertyValues("triple.tracing.enabled=false")
        .run(context -> {
          assertEquals("Hello, untraced", callThroughAReference(context, "untraced"));
          assertFalse(context.containsBean("tripleTracing"));
          assertTrue(context.getBean(TracingConfiguration.Spans.class).ended().isEmpty());
        });
    runner.run(context -> {
      assertEquals("Hello, alone", callThroughAReference(context, "alone"));
      assertFalse(context.containsBean("tripleTracing"), "no OpenTelemetry bean");
    });
    runner.withUserConfiguration(TracingConfiguration.class)
        .withClassLoader(new FilteredClassLoader("io.triplerpc.opentelemetry."))
        .run(context -> {
          assertEquals("Hello, no module", callThroughAReference(context, "no module"));
          assertFalse(context.containsBean("tripleTracing"), "no triple-opentelemetry");
        });
  }
}
