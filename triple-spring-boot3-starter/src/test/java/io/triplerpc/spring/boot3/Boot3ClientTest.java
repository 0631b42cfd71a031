package io.triplerpc.spring.boot3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.triplerpc.ServerContext;
import io.triplerpc.TripleServer;
import io.triplerpc.spring.boot.TripleReference;
import io.triplerpc.spring.boot.app.Greeter;
import io.triplerpc.spring.boot.app.GreeterImpl;
import io.triplerpc.spring.boot.app.References;
import io.triplerpc.spring.boot.app.TracingConfiguration;
import io.triplerpc.spring.boot.autoconfigure.TripleClientAutoConfiguration;
import io.triplerpc.spring.boot.autoconfigure.TripleRegistryAutoConfiguration;
import io.triplerpc.spring.boot.autoconfigure.TripleServerAutoConfiguration;
import io.triplerpc.spring.boot.autoconfigure.TripleTracingAutoConfiguration;
import io.triplerpc.spring.boot.internal.TripleReferences;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The client properties, tracing and virtual threads on Boot 3.5's binder and conditions, with Triple from
 * triple-netty-shaded and Boot 3.5's OpenTelemetry, as the Boot 4 starter's ClientPropertiesTest and
 * TracingTest check them on Boot 4.
 */
class Boot3ClientTest {

  private final List<TripleServer> servers = new ArrayList<>();

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(TripleRegistryAutoConfiguration.class, TripleTracingAutoConfiguration.class,
          TripleServerAutoConfiguration.class, TripleClientAutoConfiguration.class));

  /** Answers with the server's name and the call's authorization header. */
  private int serve(String name) throws Exception {
    Greeter answering = new Greeter() {
      @Override
      public String greet(String what) {
        return name + " " + ServerContext.current().requestHeaders().get("authorization");
      }

      @Override
      public String slow(String what) {
        return what;
      }
    };
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0).addService(Greeter.class, answering).build()
        .start();
    servers.add(server);
    return server.port();
  }

  @AfterEach
  void stop() throws Exception {
    for (TripleServer server : servers) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class Consumer {
    @Bean
    Holder holder(@TripleReference(target = "greeters") Greeter greeter) {
      return new Holder(greeter);
    }
  }

  record Holder(Greeter greeter) {}

  @Test
  void aNamedTargetFromThePropertiesSpreadsItsCallsWithItsToken() throws Exception {
    int a = serve("a");
    int b = serve("b");
    runner.withUserConfiguration(Consumer.class)
        .withPropertyValues("triple.client.bearer-token=t0ken", "triple.client.cleartext-credentials=true",
            "triple.client.targets.greeters.address=static://127.0.0.1:" + a + ",127.0.0.1:" + b,
            "triple.client.targets.greeters.load-balancing=round-robin")
        .run(context -> {
          Greeter greeter = context.getBean(Holder.class).greeter();
          Map<String, Integer> answered = new TreeMap<>();
          for (int i = 0; i < 10; i++) {
            answered.merge(greeter.greet("who"), 1, Integer::sum);
          }
          assertEquals(Map.of("a Bearer t0ken", 5, "b Bearer t0ken", 5), answered);
        });
  }

  @Configuration(proxyBeanMethods = false)
  static class Service {
    @Bean
    GreeterImpl greeter() {
      return new GreeterImpl();
    }
  }

  @Test
  void aCallThroughAReferenceMakesAClientAndAServerSpanOfOneTrace() {
    runner.withUserConfiguration(Service.class, TracingConfiguration.class)
        .withPropertyValues("triple.server.port=0", "triple.server.host=127.0.0.1")
        .run(context -> {
          int port = context.getBean(TripleServer.class).port();
          Greeter greeter = (Greeter) context.getBean(TripleReferences.class)
              .proxy(Greeter.class, References.to("127.0.0.1:" + port), "test");
          assertEquals("Hello, traced", greeter.greet("traced"));
          List<SpanData> spans = context.getBean(TracingConfiguration.Spans.class).await(2);
          SpanData client = spans.stream().filter(span -> span.getKind() == SpanKind.CLIENT).findFirst().orElseThrow();
          SpanData server = spans.stream().filter(span -> span.getKind() == SpanKind.SERVER).findFirst().orElseThrow();
          assertEquals(client.getTraceId(), server.getTraceId(), "one trace");
          assertEquals(client.getSpanId(), server.getParentSpanId(), "the server's span is the client's child");
          assertEquals("test.Greeter/greet", server.getName());
        });
  }

  @Test
  @EnabledForJreRange(max = JRE.JAVA_20)
  void virtualThreadsOnJava17StopStartUpNamingTheProperty() {
    runner.withUserConfiguration(Service.class)
        .withPropertyValues("triple.server.port=0", "triple.server.host=127.0.0.1", "triple.server.virtual-threads=true")
        .run(context -> {
          Throwable failure = context.getStartupFailure();
          assertNotNull(failure, "the start-up failed");
          StringBuilder messages = new StringBuilder();
          for (Throwable t = failure; t != null; t = t.getCause()) {
            messages.append(t.getMessage()).append('\n');
          }
          assertTrue(messages.toString().contains("triple.server.virtual-threads: Virtual threads need Java 21 or newer"),
              messages.toString());
        });
  }
}
