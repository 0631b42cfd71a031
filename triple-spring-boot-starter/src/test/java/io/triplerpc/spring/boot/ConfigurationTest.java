package io.triplerpc.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.spring.boot.app.Greeter;
import io.triplerpc.spring.boot.app.GreeterImpl;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.triplerpc.spring.boot.autoconfigure.TripleClientAutoConfiguration;
import io.triplerpc.spring.boot.autoconfigure.TripleHealthAutoConfiguration;
import io.triplerpc.spring.boot.autoconfigure.TripleMetricsAutoConfiguration;
import io.triplerpc.spring.boot.autoconfigure.TripleRegistryAutoConfiguration;
import io.triplerpc.spring.boot.autoconfigure.TripleServerAutoConfiguration;
import io.triplerpc.testing.TestCertificates;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;

/** What the properties and the application's beans decide: limits, TLS, whether a server runs, errors at start-up. */
class ConfigurationTest {

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

  /** A client proxy declared as a bean of the service's interface, beside the implementation. */
  @Configuration(proxyBeanMethods = false)
  static class ProxyBean {
    @Bean(destroyMethod = "close")
    TripleClient remoteClient() {
      return TripleClient.builder().address("127.0.0.1", 1).build();
    }

    @Bean
    Greeter remoteGreeter(TripleClient remoteClient) {
      return remoteClient.proxy(Greeter.class);
    }
  }

  /** A reference without an address, in an application without a registry. */
  @Configuration(proxyBeanMethods = false)
  static class Unaddressed {
    @Bean
    @Lazy(false)
    Holder holder(@TripleReference Greeter greeter) {
      return new Holder(greeter);
    }
  }

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
  void theOpenApiDocumentIsServedAtThePropertysPath() {
    runner.withUserConfiguration(Service.class)
        .withPropertyValues("triple.server.open-api-path=/openapi.json")
        .run(context -> {
          TripleServer server = context.getBean(TripleServer.class);
          java.net.http.HttpResponse<String> document = java.net.http.HttpClient.newHttpClient().send(
              java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                  "http://127.0.0.1:" + server.port() + "/openapi.json")).build(),
              java.net.http.HttpResponse.BodyHandlers.ofString());
          assertEquals(200, document.statusCode());
          assertTrue(document.body().contains("\"3.1.0\""), document.body());
        });
    runner.withUserConfiguration(Service.class)
        .withPropertyValues("triple.server.open-api-path=/openapi")
        .run(context -> {
          assertTrue(context.getStartupFailure() != null, "a path without .json stops start-up");
          String messages = messages(context.getStartupFailure());
          assertTrue(messages.contains("triple.server.open-api-path"), messages);
        });
  }

  @Test
  void theDocsPageIsServedAtThePropertysPath() {
    runner.withUserConfiguration(Service.class)
        .withPropertyValues("triple.server.open-api-path=/openapi.json", "triple.server.open-api-docs-path=/docs")
        .run(context -> {
          TripleServer server = context.getBean(TripleServer.class);
          java.net.http.HttpResponse<String> page = java.net.http.HttpClient.newHttpClient().send(
              java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                  "http://127.0.0.1:" + server.port() + "/docs/swagger-initializer.js")).build(),
              java.net.http.HttpResponse.BodyHandlers.ofString());
          assertEquals(200, page.statusCode());
          assertTrue(page.body().contains("\"url\":\"/openapi.json\""), page.body());
        });
    runner.withUserConfiguration(Service.class)
        .withPropertyValues("triple.server.open-api-docs-path=/docs")
        .run(context -> {
          assertTrue(context.getStartupFailure() != null, "a docs page without the document stops start-up");
          String messages = messages(context.getStartupFailure());
          assertTrue(messages.contains("openApi(\"/openapi.json\")"), messages);
        });
  }

  @Test
  void aConcurrencyLimitIsTheProperty() {
    runner.withUserConfiguration(Service.class)
        .withPropertyValues("triple.server.max-concurrent-calls[test.Greeter/slow]=1")
        .run(context -> {
          TripleServer server = context.getBean(TripleServer.class);
          GreeterImpl service = context.getBean(GreeterImpl.class);
          try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port()).build()) {
            Greeter greeter = client.proxy(Greeter.class);
            Thread first = new Thread(() -> greeter.slow("first"));
            first.start();
            assertTrue(service.slowArrived.await(10, java.util.concurrent.TimeUnit.SECONDS));
            StatusException refused = assertThrows(StatusException.class, () -> greeter.slow("second"));
            assertEquals(Status.Code.RESOURCE_EXHAUSTED, refused.status().code());
            service.release();
            first.join(10_000);
          }
        });
  }

  @Test
  void tlsFilesServeTlsAndClientsTrustTheirCa() {
    runner.withUserConfiguration(Service.class, ClientOnly.class)
        .withPropertyValues("triple.server.tls.certificate-chain=" + TestCertificates.serverCertificate(),
            "triple.server.tls.private-key=" + TestCertificates.serverKey(),
            "triple.client.tls.enabled=true",
            "triple.client.tls.trust-certificates=" + TestCertificates.caCertificate())
        .run(context -> {
          TripleServer server = context.getBean(TripleServer.class);
          // TLS only: a cleartext call is refused.
          assertThrows(StatusException.class, () -> call(server, g -> g.greet("plain")));
          io.triplerpc.spring.boot.internal.TripleReferences references =
              context.getBean(io.triplerpc.spring.boot.internal.TripleReferences.class);
          Greeter secured = (Greeter) references.proxy(Greeter.class, reference("localhost:" + server.port()), "test");
          assertEquals("Hello, tls", secured.greet("tls"));
        });
  }

  @Test
  void http3IsServedOnTheUdpPortThePropertiesName() throws Exception {
    runner.withUserConfiguration(Service.class)
        .withPropertyValues("triple.server.tls.certificate-chain=" + TestCertificates.serverCertificate(),
            "triple.server.tls.private-key=" + TestCertificates.serverKey(),
            "triple.server.http3.enabled=true")
        .run(context -> {
          TripleServer server = context.getBean(TripleServer.class);
          assertUdpPortTaken(server.port());
        });
    int udpPort;
    try (java.net.DatagramSocket free = new java.net.DatagramSocket(0)) {
      udpPort = free.getLocalPort();
    }
    runner.withUserConfiguration(Service.class)
        .withPropertyValues("triple.server.tls.certificate-chain=" + TestCertificates.serverCertificate(),
            "triple.server.tls.private-key=" + TestCertificates.serverKey(),
            "triple.server.http3.enabled=true", "triple.server.http3.port=" + udpPort,
            "triple.server.http3.alt-svc-max-age=1h")
        .run(context -> assertUdpPortTaken(udpPort));
  }

  @Test
  void theAdminEndpointTakesTheServerOffline() {
    runner.withUserConfiguration(Service.class).withPropertyValues("triple.server.admin-port=0")
        .run(context -> {
          TripleServer server = context.getBean(TripleServer.class);
          java.net.http.HttpResponse<String> offline = java.net.http.HttpClient.newHttpClient().send(
              java.net.http.HttpRequest.newBuilder(java.net.URI.create(
                  "http://127.0.0.1:" + server.adminPort() + "/offline")).build(),
              java.net.http.HttpResponse.BodyHandlers.ofString());
          assertEquals(200, offline.statusCode());
          assertTrue(server.isOffline());
        });
    runner.withUserConfiguration(Service.class).withPropertyValues("triple.server.admin-port=70000")
        .run(context -> assertTrue(messages(context.getStartupFailure()).contains("triple.server.admin-port")));
  }

  @Test
  void http3WithoutTlsOrEnabledStopsStartUp() {
    runner.withUserConfiguration(Service.class).withPropertyValues("triple.server.http3.enabled=true")
        .run(context -> {
          String messages = messages(context.getStartupFailure());
          assertTrue(messages.contains("http3") && messages.contains("TLS"), messages);
        });
    runner.withUserConfiguration(Service.class).withPropertyValues("triple.server.http3.port=9443")
        .run(context -> {
          String messages = messages(context.getStartupFailure());
          assertTrue(messages.contains("triple.server.http3.* is set without triple.server.http3.enabled=true"),
              messages);
        });
  }

  /** The server holds {@code port} on UDP: binding it again fails. */
  private static void assertUdpPortTaken(int port) {
    assertThrows(java.net.BindException.class, () -> {
      try (java.net.DatagramSocket socket = new java.net.DatagramSocket(port)) {
        socket.getLocalPort();
      }
    });
  }

  @Test
  void aClientSettingIsTheSamePropertyAsTheServers() {
    runner.withUserConfiguration(Service.class, ClientOnly.class)
        .withPropertyValues("triple.client.max-inbound-message-size=1KB")
        .run(context -> {
          TripleServer server = context.getBean(TripleServer.class);
          io.triplerpc.spring.boot.internal.TripleReferences references =
              context.getBean(io.triplerpc.spring.boot.internal.TripleReferences.class);
          Greeter greeter = (Greeter) references.proxy(Greeter.class, reference("127.0.0.1:" + server.port()), "test");
          assertEquals("Hello, small", greeter.greet("small"));
          // The server answers a 2,000-character greeting; the client's 1KB limit refuses it.
          StatusException refused = assertThrows(StatusException.class, () -> greeter.greet("x".repeat(2000)));
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
  void unsetPropertiesLeaveEveryBuilderDefault() {
    java.util.List<String> called = new java.util.ArrayList<>();
    TripleServer.Builder recording = (TripleServer.Builder) java.lang.reflect.Proxy.newProxyInstance(
        getClass().getClassLoader(), new Class<?>[] {TripleServer.Builder.class}, (proxy, method, args) -> {
          called.add(method.getName());
          return proxy;
        });
    runner.withUserConfiguration(Service.class)
        .withBean(TripleServerCustomizer.class, () -> builder -> {})
        .run(context -> {
          io.triplerpc.spring.boot.autoconfigure.TripleServerProperties properties =
              context.getBean(io.triplerpc.spring.boot.autoconfigure.TripleServerProperties.class);
          java.lang.reflect.Method applyTo = io.triplerpc.spring.boot.autoconfigure.TransportProperties.class
              .getDeclaredMethod("applyTo", io.triplerpc.TransportBuilder.class, String.class);
          applyTo.setAccessible(true);
          applyTo.invoke(properties, recording, "triple.server");
          assertEquals(java.util.List.of(), called, "no property set, so no builder setting is touched");
          applyTo.invoke(context.getBean(io.triplerpc.spring.boot.autoconfigure.TripleClientProperties.class), recording,
              "triple.client");
          assertEquals(java.util.List.of(), called);
          // And none of the client builder's own settings.
          TripleClient.Builder client = (TripleClient.Builder) java.lang.reflect.Proxy.newProxyInstance(
              getClass().getClassLoader(), new Class<?>[] {TripleClient.Builder.class}, (proxy, method, args) -> {
                called.add(method.getName());
                return proxy;
              });
          java.lang.reflect.Method clientApplyTo = io.triplerpc.spring.boot.autoconfigure.ClientProperties.class
              .getDeclaredMethod("applyTo", TripleClient.Builder.class, String.class);
          clientApplyTo.setAccessible(true);
          clientApplyTo.invoke(context.getBean(io.triplerpc.spring.boot.autoconfigure.TripleClientProperties.class), client,
              "triple.client");
          assertEquals(java.util.List.of(), called);
        });
  }

  private static TripleReference reference(String address) {
    return new TripleReference() {
      @Override
      public Class<? extends java.lang.annotation.Annotation> annotationType() {
        return TripleReference.class;
      }

      @Override
      public String address() {
        return address;
      }

      @Override
      public String target() {
        return "";
      }

      @Override
      public String version() {
        return "";
      }

      @Override
      public String group() {
        return "";
      }
    };
  }

  @Test
  void aClientProxyBeanIsNeverServed() {
    runner.withUserConfiguration(Service.class, ProxyBean.class)
        .run(context -> assertEquals("Hello, local", call(context.getBean(TripleServer.class), g -> g.greet("local"))));
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
        });
  }

  @Test
  void metricsGoToTheMeterRegistryUnlessTurnedOff() {
    ApplicationContextRunner withMetrics = runner
        .withConfiguration(AutoConfigurations.of(TripleMetricsAutoConfiguration.class))
        .withBean(MeterRegistry.class, SimpleMeterRegistry::new)
        .withUserConfiguration(Service.class);
    withMetrics.run(context -> {
      call(context.getBean(TripleServer.class), greeter -> greeter.greet("counted"));
      MeterRegistry registry = context.getBean(MeterRegistry.class);
      // Counted before the reply existed: the server observes a call's start before its service runs.
      assertNotNull(registry.find("grpc.server.call.started").counter(), "the call is counted on the server");
    });
    withMetrics.withPropertyValues("triple.metrics.enabled=false").run(context -> {
      call(context.getBean(TripleServer.class), greeter -> greeter.greet("not counted"));
      assertTrue(context.getBean(MeterRegistry.class).getMeters().isEmpty());
    });
  }

  @Test
  void noServiceBeanMeansNoServer() {
    runner.withUserConfiguration(ClientOnly.class).run(context -> {
      assertFalse(context.containsBean("tripleServer"));
      assertNotNull(context.getBean(Holder.class).greeter());
    });
  }

  @Test
  void enabledRunsAServerWithoutServiceBeans() {
    runner.withPropertyValues("triple.server.enabled=true")
        .run(context -> assertTrue(context.getBean(TripleServer.class).port() > 0));
  }

  @Test
  void disabledRunsNoServerDespiteServiceBeans() {
    runner.withUserConfiguration(Service.class).withPropertyValues("triple.server.enabled=false")
        .run(context -> assertFalse(context.containsBean("tripleServer")));
  }

  @Test
  void exportOffLeavesServiceBeansUnserved() {
    runner.withUserConfiguration(Service.class).withPropertyValues("triple.server.export-services=false")
        .run(context -> {
          StatusException e = assertThrows(StatusException.class,
              () -> call(context.getBean(TripleServer.class), greeter -> greeter.greet("nobody")));
          assertEquals(Status.Code.UNIMPLEMENTED, e.status().code());
        });
  }

  @Test
  void aPortOutOfRangeStopsStartUpNamingTheProperty() {
    runner.withUserConfiguration(Service.class).withPropertyValues("triple.server.port=70000").run(context -> {
      Throwable failure = context.getStartupFailure();
      assertNotNull(failure);
      String messages = messages(failure);
      assertTrue(messages.contains("Failed to bind properties under 'triple.server'"), messages);
      assertTrue(messages.contains("triple.server.port must be between 0 and 65535: 70000"), messages);
    });
  }

  @Test
  void aSizeThatIsNoSizeStopsStartUpNamingTheProperty() {
    runner.withUserConfiguration(Service.class).withPropertyValues("triple.server.max-inbound-message-size=lots")
        .run(context -> {
          String messages = messages(context.getStartupFailure());
          assertTrue(messages.contains("triple.server.max-inbound-message-size"), messages);
          assertTrue(messages.contains("lots"), messages);
        });
  }

  @Test
  void aPortInUseStopsStartUpNamingIt() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      runner.withUserConfiguration(Service.class).withPropertyValues("triple.server.port=" + taken.getLocalPort())
          .run(context -> {
            String messages = messages(context.getStartupFailure());
            assertTrue(messages.contains("The Triple server did not start (triple.server.host, triple.server.port)"),
                messages);
            assertTrue(messages.contains(String.valueOf(taken.getLocalPort())), messages);
          });
    }
  }

  @Test
  void tlsWithoutItsKeyStopsStartUp() {
    runner.withUserConfiguration(Service.class)
        .withPropertyValues("triple.server.tls.certificate-chain=" + TestCertificates.serverCertificate())
        .run(context -> {
          String messages = messages(context.getStartupFailure());
          assertTrue(messages.contains("triple.server.tls.certificate-chain and triple.server.tls.private-key go"
              + " together"), messages);
        });
  }

  /** A reference whose address names a property that is not set. */
  @Configuration(proxyBeanMethods = false)
  static class UnsetPlaceholder {
    @Bean
    Holder holder(@TripleReference(address = "${greeter.address}") Greeter greeter) {
      return new Holder(greeter);
    }
  }

  @Test
  void anUnresolvedPlaceholderStopsStartUpNamingTheParameter() {
    runner.withUserConfiguration(UnsetPlaceholder.class).run(context -> {
      String messages = messages(context.getStartupFailure());
      assertTrue(messages.contains("@TripleReference on parameter 0 of"), messages);
      assertTrue(messages.contains("greeter.address"), messages);
    });
  }

  @Test
  void aReferenceWithoutAddressOrRegistryStopsStartUp() {
    runner.withUserConfiguration(Unaddressed.class).run(context -> {
      String messages = messages(context.getStartupFailure());
      assertTrue(messages.contains("names no address and the application has no registry"), messages);
      assertTrue(messages.contains("set triple.registry.address"), messages);
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
        "triple.server.tls.certificate-chain", "triple.server.max-concurrent-calls", "triple.client.deadline",
        "triple.registry.address", "triple.registry.application", "triple.metrics.enabled", "triple.tracing.enabled",
        "triple.server.virtual-threads", "triple.client.virtual-threads", "triple.client.load-balancing",
        "triple.client.connections-per-address", "triple.client.connect-timeout", "triple.client.reconnect-backoff.initial",
        "triple.client.keep-alive-without-calls", "triple.client.protocol", "triple.client.codec",
        "triple.client.connect-get", "triple.client.retry-throttling.max-tokens", "triple.client.retry-buffer.per-call",
        "triple.client.service-config", "triple.client.service-config-location", "triple.client.bearer-token",
        "triple.client.call-credentials", "triple.client.cleartext-credentials", "triple.client.targets"}) {
      assertTrue(metadata.contains("\"" + property + "\""), property);
    }
    assertTrue(metadata.contains("Port to listen on"), "descriptions come from the fields' Javadoc");
    assertTrue(metadata.contains("How calls pick one of several servers"), "the client's fields' Javadoc too");
    assertTrue(metadata.contains("\"power-of-two-choices\""), "the balancings as hints");
  }

  private static String messages(Throwable failure) {
    StringBuilder all = new StringBuilder();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      all.append(t.getMessage()).append('\n');
    }
    return all.toString();
  }
}
