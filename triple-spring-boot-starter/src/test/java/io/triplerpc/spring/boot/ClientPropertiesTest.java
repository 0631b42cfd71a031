package io.triplerpc.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.CallCredentials;
import io.triplerpc.CallObserver;
import io.triplerpc.ObservedCall;
import io.triplerpc.ServerContext;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TlsConfig;
import io.triplerpc.TripleServer;
import io.triplerpc.registry.Registry;
import io.triplerpc.registry.StaticRegistry;
import io.triplerpc.spring.boot.app.Greeter;
import io.triplerpc.spring.boot.app.References;
import io.triplerpc.spring.boot.autoconfigure.TripleClientAutoConfiguration;
import io.triplerpc.spring.boot.autoconfigure.TripleRegistryAutoConfiguration;
import io.triplerpc.spring.boot.autoconfigure.TripleServerAutoConfiguration;
import io.triplerpc.spring.boot.internal.TripleReferences;
import io.triplerpc.testing.TestCertificates;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code triple.client.*} and {@code triple.client.targets.<name>.*} against real servers on 127.0.0.1 started
 * by the test: each property reaches the calls (a named target's over the common ones, the rest inherited),
 * and a bad value stops the start-up naming the property.
 */
class ClientPropertiesTest {

  private final List<TripleServer> servers = new ArrayList<>();

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(TripleRegistryAutoConfiguration.class,
          TripleServerAutoConfiguration.class, TripleClientAutoConfiguration.class));

  /** Serves {@link Greeter}, answering some names with what it saw of the call. */
  static final class Answering implements Greeter {
    final String name;
    final AtomicInteger flakyAttempts = new AtomicInteger();
    /** The protocol of each call, as the server's call observer saw it. */
    final ConcurrentLinkedQueue<String> protocols = new ConcurrentLinkedQueue<>();

    Answering(String name) {
      this.name = name;
    }

    @Override
    public String greet(String what) {
      return switch (what) {
        case "who" -> name;
        case "authorization", "x-api-key" -> String.valueOf(ServerContext.current().requestHeaders().get(what));
        case "thread" -> Thread.currentThread().getName() + " virtual=" + isVirtual(Thread.currentThread());
        case "big" -> "x".repeat(2000);
        case "flaky" -> {
          int attempt = flakyAttempts.incrementAndGet();
          if (attempt < 3) {
            throw new StatusException(Status.UNAVAILABLE.withDescription("attempt " + attempt));
          }
          yield "attempt " + attempt;
        }
        default -> "Hello, " + what;
      };
    }

    @Override
    public String slow(String what) {
      return what;
    }

    /** Thread.isVirtual, which Java 17's API (this module's release) lacks. */
    private static boolean isVirtual(Thread thread) {
      try {
        return (Boolean) Thread.class.getMethod("isVirtual").invoke(thread);
      } catch (ReflectiveOperationException e) {
        return false;
      }
    }
  }

  private Answering serve(String name, TlsConfig tls) throws Exception {
    Answering service = new Answering(name);
    TripleServer.Builder builder = TripleServer.builder().host("127.0.0.1").port(0).addService(Greeter.class, service)
        .callObserver(new CallObserver() {
          @Override
          public void started(ObservedCall call) {
            service.protocols.add(call.protocol());
          }
        });
    if (tls != null) {
      builder.tls(tls);
    }
    servers.add(builder.build().start());
    return service;
  }

  private int port(int index) {
    return servers.get(index).port();
  }

  @AfterEach
  void stop() throws Exception {
    for (TripleServer server : servers) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    }
  }

  /** One reference of triple.client.* alone, one of each named target. */
  @Configuration(proxyBeanMethods = false)
  static class Consumers {
    @Bean
    Plain plain(@TripleReference(address = "${greeter.address}") Greeter greeter) {
      return new Plain(greeter);
    }

    @Bean
    Big big(@TripleReference(target = "big") Greeter greeter) {
      return new Big(greeter);
    }
  }

  record Plain(Greeter greeter) {}

  /** A reference of triple.client.* alone. */
  @Configuration(proxyBeanMethods = false)
  static class PlainOnly {
    @Bean
    Plain plain(@TripleReference(address = "${greeter.address}") Greeter greeter) {
      return new Plain(greeter);
    }
  }

  record Big(Greeter greeter) {}

  @Test
  void aNamedTargetTakesItsAddressAndSettingsAndInheritsTheRest() throws Exception {
    serve("one", null);
    runner.withUserConfiguration(Consumers.class)
        .withPropertyValues("greeter.address=127.0.0.1:" + port(0),
            "triple.client.max-inbound-message-size=1KB",
            "triple.client.bearer-token=t0ken",
            "triple.client.cleartext-credentials=true",
            "triple.client.targets.big.address=127.0.0.1:" + port(0),
            "triple.client.targets.big.max-inbound-message-size=4KB")
        .run(context -> {
          Greeter plain = context.getBean(Plain.class).greeter();
          Greeter big = context.getBean(Big.class).greeter();
          StatusException refused = assertThrows(StatusException.class, () -> plain.greet("big"));
          assertEquals(Status.Code.RESOURCE_EXHAUSTED, refused.status().code(), "triple.client's 1KB");
          assertEquals(2000, big.greet("big").length(), "the target's 4KB");
          assertEquals("Bearer t0ken", plain.greet("authorization"));
          assertEquals("Bearer t0ken", big.greet("authorization"), "inherited from triple.client");
          TripleReferences references = context.getBean(TripleReferences.class);
          assertEquals(1, references.clients().size());
          assertEquals(1, references.clients("big").size(), "one client per target name and address");
        });
  }

  @Test
  void theProtocolAndCodecAreTheProperties() throws Exception {
    Answering service = serve("one", null);
    runner.withUserConfiguration(Consumers.class)
        .withPropertyValues("greeter.address=127.0.0.1:" + port(0),
            "triple.client.targets.big.address=127.0.0.1:" + port(0),
            "triple.client.targets.big.protocol=connect", "triple.client.targets.big.http1=true",
            "triple.client.targets.big.connections-per-address=2", "triple.client.targets.big.connect-timeout=5s",
            "triple.client.targets.big.reconnect-backoff.initial=100ms",
            "triple.client.targets.big.reconnect-backoff.max=1s")
        .run(context -> {
          assertEquals("Hello, grpc", context.getBean(Plain.class).greeter().greet("grpc"));
          assertEquals("Hello, connect", context.getBean(Big.class).greeter().greet("connect"));
          assertEquals(List.of("grpc", "connect"), List.copyOf(service.protocols));
        });
  }

  @Test
  void aServiceConfigRetriesTheMethodsItNames() throws Exception {
    Answering service = serve("one", null);
    String inline = "{\"methodConfig\":[{\"name\":[{\"service\":\"test.Greeter\",\"method\":\"greet\"}],"
        + "\"retryPolicy\":{\"maxAttempts\":3,\"initialBackoff\":\"0.01s\",\"maxBackoff\":\"0.01s\","
        + "\"backoffMultiplier\":1,\"retryableStatusCodes\":[\"UNAVAILABLE\"]}}]}";
    runner.withUserConfiguration(Consumers.class)
        .withPropertyValues("greeter.address=127.0.0.1:" + port(0),
            "triple.client.service-config-location=classpath:no-retries-service-config.json",
            "triple.client.targets.big.address=127.0.0.1:" + port(0),
            "triple.client.targets.big.service-config=" + inline)
        .run(context -> {
          StatusException failed = assertThrows(StatusException.class,
              () -> context.getBean(Plain.class).greeter().greet("flaky"));
          assertEquals(Status.Code.UNAVAILABLE, failed.status().code(), "the resource's config retries nothing");
          assertEquals(1, service.flakyAttempts.get());
          // The target's inline JSON replaces the inherited location: attempts 2 and 3.
          assertEquals("attempt 3", context.getBean(Big.class).greeter().greet("flaky"));
        });
  }

  /** References to a static:// target of two servers, each its own client. */
  @Configuration(proxyBeanMethods = false)
  static class StaticConsumers {
    @Bean
    Plain plain(@TripleReference(address = "${greeter.address}") Greeter greeter) {
      return new Plain(greeter);
    }

    @Bean
    Big spread(@TripleReference(address = "${greeter.address}", target = "spread") Greeter greeter) {
      return new Big(greeter);
    }
  }

  private static Map<String, Integer> tally(Greeter greeter, int calls) {
    Map<String, Integer> answered = new TreeMap<>();
    for (int i = 0; i < calls; i++) {
      answered.merge(greeter.greet("who"), 1, Integer::sum);
    }
    return answered;
  }

  @Test
  void loadBalancingPicksAmongAStaticTargetsServers() throws Exception {
    serve("a", null);
    serve("b", null);
    runner.withUserConfiguration(StaticConsumers.class)
        .withPropertyValues("greeter.address=static://127.0.0.1:" + port(0) + ",127.0.0.1:" + port(1),
            "triple.client.load-balancing=pick-first",
            "triple.client.targets.spread.load-balancing=ROUND_ROBIN")
        .run(context -> {
          Map<String, Integer> picked = tally(context.getBean(Plain.class).greeter(), 10);
          assertEquals(1, picked.size(), "pick-first: one server takes every call: " + picked);
          assertEquals(Map.of("a", 5, "b", 5), tally(context.getBean(Big.class).greeter(), 10));
          assertTrue(context.getBean(TripleReferences.class).clients("spread").keySet().iterator().next()
              .startsWith("static://"), "the target reaches the customizers as written");
        });
  }

  /** References without an address, through the application's registry. */
  @Configuration(proxyBeanMethods = false)
  static class RegistryConsumers {
    @Bean
    Plain plain(@TripleReference Greeter greeter) {
      return new Plain(greeter);
    }

    @Bean
    Big spread(@TripleReference(target = "spread") Greeter greeter) {
      return new Big(greeter);
    }
  }

  @Test
  void loadBalancingPicksAmongTheRegistrysInstances() throws Exception {
    serve("a", null);
    serve("b", null);
    runner.withUserConfiguration(RegistryConsumers.class)
        .withBean(Registry.class, () -> StaticRegistry.of("127.0.0.1:" + port(0), "127.0.0.1:" + port(1)))
        .withPropertyValues("triple.client.load-balancing=pick-first",
            "triple.client.targets.spread.load-balancing=round-robin")
        .run(context -> {
          Map<String, Integer> picked = tally(context.getBean(Plain.class).greeter(), 10);
          assertEquals(1, picked.size(), "pick-first: one instance takes every call: " + picked);
          assertEquals(Map.of("a", 5, "b", 5), tally(context.getBean(Big.class).greeter(), 10));
        });
  }

  @Test
  void consistentHashingIsABalancingNameToo() throws Exception {
    serve("a", null);
    serve("b", null);
    runner.withUserConfiguration(RegistryConsumers.class)
        .withBean(Registry.class, () -> StaticRegistry.of("127.0.0.1:" + port(0), "127.0.0.1:" + port(1)))
        .withPropertyValues("triple.client.load-balancing=consistent-hash",
            "triple.client.targets.spread.load-balancing=consistent-hash")
        .run(context -> {
          // A reference's calls carry no hash key: they go to any instance.
          assertEquals(10, tally(context.getBean(Plain.class).greeter(), 10).values().stream()
              .mapToInt(Integer::intValue).sum());
        });
  }

  @Configuration(proxyBeanMethods = false)
  static class ApiKey {
    @Bean
    CallCredentials apiKey() {
      return CallCredentials.header("x-api-key", "k3y");
    }
  }

  @Test
  void theApplicationsCallCredentialsGoOverTlsOnly() throws Exception {
    serve("tls", TlsConfig.builder()
        .keyCertChain(TestCertificates.serverCertificate(), TestCertificates.serverKey()).build());
    serve("cleartext", null);
    runner.withUserConfiguration(Consumers.class, ApiKey.class)
        .withPropertyValues("greeter.address=localhost:" + port(0),
            "triple.client.tls.enabled=true",
            "triple.client.tls.trust-certificates=" + TestCertificates.caCertificate(),
            "triple.client.targets.big.address=127.0.0.1:" + port(1),
            "triple.client.targets.big.tls.enabled=false")
        .run(context -> {
          assertEquals("k3y", context.getBean(Plain.class).greeter().greet("x-api-key"));
          StatusException refused = assertThrows(StatusException.class,
              () -> context.getBean(Big.class).greeter().greet("x-api-key"));
          assertEquals(Status.Code.UNAUTHENTICATED, refused.status().code(), "never over cleartext");
        });
  }

  @Test
  @EnabledForJreRange(max = JRE.JAVA_20)
  void virtualThreadsOnJava17StopStartUpNamingTheProperty() throws Exception {
    runner.withUserConfiguration(PlainOnly.class)
        .withPropertyValues("greeter.address=127.0.0.1:1", "triple.client.virtual-threads=true")
        .run(context -> assertTrue(messages(context.getStartupFailure()).contains(
            "triple.client.virtual-threads: Virtual threads need Java 21 or newer; this is Java"),
            messages(context.getStartupFailure())));
    runner.withUserConfiguration(PlainOnly.class)
        .withPropertyValues("greeter.address=127.0.0.1:1", "triple.server.enabled=true", "triple.server.port=0",
            "triple.server.virtual-threads=true")
        .run(context -> assertTrue(messages(context.getStartupFailure()).contains(
            "triple.server.virtual-threads: Virtual threads need Java 21 or newer"),
            messages(context.getStartupFailure())));
  }

  @Configuration(proxyBeanMethods = false)
  static class Service {
    @Bean
    Answering answering() {
      return new Answering("local");
    }
  }

  @Test
  @EnabledForJreRange(min = JRE.JAVA_21)
  void virtualThreadsRunTheServiceOnJava21() throws Exception {
    runner.withUserConfiguration(Service.class)
        .withPropertyValues("triple.server.port=0", "triple.server.host=127.0.0.1", "triple.server.virtual-threads=true",
            "triple.client.virtual-threads=true")
        .run(context -> {
          int port = context.getBean(TripleServer.class).port();
          Greeter greeter = (Greeter) context.getBean(TripleReferences.class)
              .proxy(Greeter.class, References.to("127.0.0.1:" + port), "test");
          assertEquals("triple-service virtual=true", greeter.greet("thread"));
        });
  }

  @Test
  void aBadValueStopsStartUpNamingTheProperty() {
    Map<String, String> cases = new TreeMap<>(Map.of(
        "triple.client.load-balancing=fastest",
        "triple.client.load-balancing is one of round-robin, pick-first",
        "triple.client.targets.big.connections-per-address=0",
        "connections-per-address must be at least 1: 0",
        "triple.client.reconnect-backoff.max=1s",
        "triple.client.reconnect-backoff.initial and triple.client.reconnect-backoff.max go together",
        "triple.client.service-config={\"methodConfig\":7}",
        "triple.client.service-config: methodConfig",
        "triple.client.service-config-location=classpath:missing-service-config.json",
        "triple.client.service-config-location cannot be read",
        "triple.client.call-credentials=nobody",
        "triple.client.call-credentials names no CallCredentials bean: nobody",
        "triple.client.targets.big.retry-throttling.max-tokens=5000",
        "triple.client.targets.big.retry-throttling.max-tokens and"));
    cases.forEach((property, expected) -> runner.withUserConfiguration(Consumers.class)
        .withPropertyValues("greeter.address=127.0.0.1:1", "triple.client.targets.big.address=127.0.0.1:1", property)
        .run(context -> {
          String messages = messages(context.getStartupFailure());
          assertTrue(messages.contains(expected), property + " -> " + messages);
        }));
  }

  /** A reference naming a target the properties do not hold. */
  @Configuration(proxyBeanMethods = false)
  static class UnknownTarget {
    @Bean
    Plain plain(@TripleReference(target = "nowhere") Greeter greeter) {
      return new Plain(greeter);
    }
  }

  @Test
  void aReferenceToAnUnknownTargetStopsStartUp() {
    runner.withUserConfiguration(UnknownTarget.class).run(context -> {
      String messages = messages(context.getStartupFailure());
      assertTrue(messages.contains("names target 'nowhere', but no triple.client.targets.nowhere.* property is set"),
          messages);
    });
  }

  static String messages(Throwable failure) {
    assertNotNull(failure, "the start-up failed");
    StringBuilder all = new StringBuilder();
    for (Throwable t = failure; t != null; t = t.getCause()) {
      all.append(t.getMessage()).append('\n');
    }
    return all.toString();
  }
}
