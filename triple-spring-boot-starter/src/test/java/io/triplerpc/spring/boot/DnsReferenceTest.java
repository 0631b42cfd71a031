package io.triplerpc.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.TripleServer;
import io.triplerpc.spring.boot.app.Greeter;
import io.triplerpc.spring.boot.autoconfigure.TripleClientAutoConfiguration;
import io.triplerpc.spring.boot.autoconfigure.TripleRegistryAutoConfiguration;
import io.triplerpc.spring.boot.autoconfigure.TripleServerAutoConfiguration;
import io.triplerpc.spring.boot.internal.TripleReferences;
import io.triplerpc.testing.DnsNamedServers;
import io.triplerpc.testing.TestDnsServer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A {@code @TripleReference} whose address is a {@code dns:///} target, here from a property: the
 * target reaches the client unchanged, and the calls spread round robin over every address of the name
 * (a real DNS server over UDP on loopback, {@link TestDnsServer}, naming three servers on 127.0.0.1 to
 * 127.0.0.3, one port), or stay on one with {@code ?lb=pick_first}.
 */
class DnsReferenceTest {

  private static final String NAME = "greeter.test";
  private static final List<String> ADDRESSES = List.of("127.0.0.1", "127.0.0.2", "127.0.0.3");

  private DnsNamedServers<TripleServer> named;
  private TestDnsServer dns;
  private int port;

  private final ApplicationContextRunner runner = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(TripleRegistryAutoConfiguration.class,
          TripleServerAutoConfiguration.class, TripleClientAutoConfiguration.class));

  /** Two references to the property's target: round robin (the default), and pick_first. */
  @Configuration(proxyBeanMethods = false)
  static class Consumers {
    @Bean
    Spread spread(@TripleReference(address = "${greeter.target}") Greeter greeter) {
      return new Spread(greeter);
    }

    @Bean
    PickFirst pickFirst(@TripleReference(address = "${greeter.target}?lb=pick_first") Greeter greeter) {
      return new PickFirst(greeter);
    }
  }

  record Spread(Greeter greeter) {}

  record PickFirst(Greeter greeter) {}

  @BeforeEach
  void start() throws Exception {
    named = DnsNamedServers.start(NAME, ADDRESSES,
        (address, onePort) -> TripleServer.builder().host(address).port(onePort)
            .addService(Greeter.class, answeringAs(address)).build().start(),
        TripleServer::port, server -> {
          server.shutdownNow();
          server.awaitTermination(Duration.ofSeconds(10));
        });
    dns = named.dns();
    port = named.port();
  }

  @AfterEach
  void stop() throws Exception {
    named.close();
  }

  /** Greets with the server's address. */
  private static Greeter answeringAs(String address) {
    return new Greeter() {
      @Override
      public String greet(String name) {
        return address;
      }

      @Override
      public String slow(String name) {
        return address;
      }
    };
  }

  private static Map<String, Integer> tally(Greeter greeter, int calls) {
    Map<String, Integer> answered = new TreeMap<>();
    for (int i = 0; i < calls; i++) {
      answered.merge(greeter.greet("dns"), 1, Integer::sum);
    }
    return answered;
  }

  @Test
  void aDnsTargetFromAPropertySpreadsOverTheNamesAddressesOrPicksOne() {
    String target = "dns://127.0.0.1:" + dns.address().getPort() + "/" + NAME + ":" + port;
    runner.withUserConfiguration(Consumers.class).withPropertyValues("greeter.target=" + target).run(context -> {
      assertEquals(Set.of(target, target + "?lb=pick_first"),
          context.getBean(TripleReferences.class).clients().keySet(), "the targets reach the clients as written");

      assertEquals(Map.of("127.0.0.1", 10, "127.0.0.2", 10, "127.0.0.3", 10),
          tally(context.getBean(Spread.class).greeter(), 30));

      Map<String, Integer> picked = tally(context.getBean(PickFirst.class).greeter(), 10);
      assertEquals(1, picked.size(), "pick_first: one address takes every call: " + picked);
      assertEquals(10, picked.values().iterator().next());
    });
  }

  @Test
  void theLoadBalancingPropertyReachesADnsTargetWithoutItsOwn() {
    String target = "dns://127.0.0.1:" + dns.address().getPort() + "/" + NAME + ":" + port;
    runner.withUserConfiguration(Consumers.class)
        .withPropertyValues("greeter.target=" + target, "triple.client.load-balancing=pick-first")
        .run(context -> {
          Map<String, Integer> picked = tally(context.getBean(Spread.class).greeter(), 10);
          assertEquals(1, picked.size(), "pick-first from the property: " + picked);
        });
    runner.withUserConfiguration(Consumers.class)
        .withPropertyValues("greeter.target=" + target, "triple.client.load-balancing=least-active")
        .run(context -> {
          StringBuilder messages = new StringBuilder();
          for (Throwable t = context.getStartupFailure(); t != null; t = t.getCause()) {
            messages.append(t.getMessage()).append('\n');
          }
          assertTrue(messages.toString().contains("lb=round_robin (the default) or lb=pick_first"), messages.toString());
          assertTrue(messages.toString().contains("(triple.client.load-balancing)"), messages.toString());
        });
  }

  @Test
  void aMalformedDnsTargetStopsStartUpNamingTheParameterAndTheForm() {
    runner.withUserConfiguration(Consumers.class).withPropertyValues("greeter.target=dns:///" + NAME).run(context -> {
      StringBuilder messages = new StringBuilder();
      for (Throwable t = context.getStartupFailure(); t != null; t = t.getCause()) {
        messages.append(t.getMessage()).append('\n');
      }
      assertTrue(messages.toString().contains("@TripleReference on parameter 0 of"), messages.toString());
      assertTrue(messages.toString().contains("A DNS target names its port, as in dns:///"), messages.toString());
    });
  }
}
