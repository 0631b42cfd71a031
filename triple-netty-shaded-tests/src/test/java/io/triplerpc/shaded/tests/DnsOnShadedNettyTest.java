package io.triplerpc.shaded.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import io.triplerpc.spi.DnsResolver;
import java.net.InetAddress;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A {@code dns:///} target (triple-registry beside the shaded jar) resolves on the transport's DNS
 * resolver, which is inside the jar on the relocated Netty: the registry needs no Netty of its own.
 */
class DnsOnShadedNettyTest {

  @TripleService(name = "shaded.Dns")
  public interface Greeter {
    String greet(String name);
  }

  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  @Test
  void theResolverIsTheShadedJars() {
    try (DnsResolver resolver = DnsResolver.create(null, Duration.ofSeconds(1))) {
      assertEquals("io.triplerpc.transport.netty.internal.dns.NettyDnsResolver", resolver.getClass().getName());
      String jar = resolver.getClass().getProtectionDomain().getCodeSource().getLocation().getPath();
      assertTrue(jar.matches(".*/triple-netty-shaded-[^/]*\\.jar"), jar);
    }
  }

  @Test
  void aDnsTargetFindsTheServerThroughTheRelocatedResolver() throws Exception {
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Greeter.class, name -> "Hello, " + name)
        .build()
        .start();
    try (OneNameDnsServer dns = OneNameDnsServer.start("users.shaded.test", InetAddress.getByName("127.0.0.1"));
         TripleClient client = TripleClient.builder()
             .address("dns://127.0.0.1:" + dns.port() + "/users.shaded.test:" + server.port())
             .build()) {
      assertEquals("Hello, Dee", client.proxy(Greeter.class).greet("Dee"));
      assertTrue(dns.aQueries() >= 1, "the name server was asked: " + dns.aQueries());
    } finally {
      server.shutdown();
      assertTrue(server.awaitTermination(TIMEOUT), "the server stopped");
    }
  }
}
