package io.triplerpc.registry.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TlsConfig;
import io.triplerpc.registry.ServiceInstance;
import io.triplerpc.registry.remote.RemoteRegistry;
import io.triplerpc.testing.TestCertificates;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line of {@code scripts/registry-server.sh}: its flags, and a registry they configure. */
class RegistryServerMainTest {

  private static final String TOKEN = "provider-token-0123456789abcdef";

  @TempDir Path directory;

  @Test
  void tokenFileAndTlsFlagsMakeARegistryOverTlsThatRefusesClientsWithoutTheToken() throws Exception {
    Path tokens = Files.write(directory.resolve("tokens"), List.of("# providers", TOKEN + " register,subscribe"));
    RegistryServerMain.Options options = RegistryServerMain.parse(new String[] {
        "--port", "0", "--lease-ttl", "2s", "--token-file", tokens.toString(),
        "--tls-cert", TestCertificates.serverCertificate().toString(),
        "--tls-key=" + TestCertificates.serverKey()});
    assertEquals("127.0.0.1", options.host());
    assertEquals(Duration.ofSeconds(2), options.leaseTtl());

    RegistryServer server = options.builder().build().start();
    TlsConfig tls = TlsConfig.builder().trustCertificates(TestCertificates.caCertificate()).build();
    try (RemoteRegistry withToken = RemoteRegistry.builder("127.0.0.1", server.port()).tls(tls).token(TOKEN).build();
        RemoteRegistry without = RemoteRegistry.builder("127.0.0.1", server.port()).tls(tls).build()) {
      ServiceInstance instance = ServiceInstance.of("app", "127.0.0.1", 9, "r1");
      withToken.register(instance).get(10, TimeUnit.SECONDS);
      assertEquals(1, server.leaseCount());

      ExecutionException refused = assertThrows(ExecutionException.class,
          () -> without.register(instance.withWeight(1)).get(10, TimeUnit.SECONDS));
      assertEquals(Status.Code.UNAUTHENTICATED,
          assertInstanceOf(StatusException.class, refused.getCause()).status().code());
    } finally {
      server.shutdownNow();
      assertTrue(server.awaitTermination(Duration.ofSeconds(10)));
    }
  }

  @Test
  void tlsClientCaAdmitsOnlyClientsWithACertificateItSigned() throws Exception {
    Path tokens = Files.write(directory.resolve("tokens"), List.of(TOKEN + " register"));
    RegistryServer server = RegistryServerMain.parse(new String[] {
        "--port", "0", "--token-file", tokens.toString(),
        "--tls-cert", TestCertificates.serverCertificate().toString(),
        "--tls-key", TestCertificates.serverKey().toString(),
        "--tls-client-ca", TestCertificates.caCertificate().toString()}).builder().build().start();
    TlsConfig.Builder trusting = TlsConfig.builder().trustCertificates(TestCertificates.caCertificate());
    try (RemoteRegistry withCertificate = RemoteRegistry.builder("127.0.0.1", server.port()).token(TOKEN)
            .tls(TlsConfig.builder().trustCertificates(TestCertificates.caCertificate())
                .keyCertChain(TestCertificates.clientCertificate(), TestCertificates.clientKey()).build()).build();
        RemoteRegistry withoutCertificate = RemoteRegistry.builder("127.0.0.1", server.port()).token(TOKEN)
            .tls(trusting.build()).callTimeout(Duration.ofSeconds(2)).build()) {
      ServiceInstance instance = ServiceInstance.of("app", "127.0.0.1", 9, "r1");
      withCertificate.register(instance).get(10, TimeUnit.SECONDS);
      ExecutionException refused = assertThrows(ExecutionException.class,
          () -> withoutCertificate.register(instance.withWeight(1)).get(10, TimeUnit.SECONDS));
      assertEquals(Status.Code.UNAVAILABLE, Status.fromThrowable(refused.getCause()).code(), refused.toString());
      assertEquals(1, server.leaseCount());
    } finally {
      server.shutdownNow();
      assertTrue(server.awaitTermination(Duration.ofSeconds(10)));
    }
  }

  @Test
  void aBadTokenFileLineIsReportedWithItsNumberAndWithoutTheToken() throws Exception {
    Path tokens = Files.write(directory.resolve("tokens"), List.of("", "# comment", TOKEN + " register", TOKEN + " publish"));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> RegistryServerMain.parse(new String[] {"--token-file", tokens.toString()}));
    assertTrue(e.getMessage().contains(tokens + ", line 4"), e.getMessage());
    assertFalse(e.getMessage().contains(TOKEN), e.getMessage());
  }

  @Test
  void tlsFlagsMustComeTogether() {
    String cert = TestCertificates.serverCertificate().toString();
    IllegalArgumentException alone = assertThrows(IllegalArgumentException.class,
        () -> RegistryServerMain.parse(new String[] {"--tls-cert", cert}));
    assertEquals("--tls-cert and --tls-key go together", alone.getMessage());
    IllegalArgumentException clientCa = assertThrows(IllegalArgumentException.class,
        () -> RegistryServerMain.parse(new String[] {"--tls-client-ca", TestCertificates.caCertificate().toString()}));
    assertTrue(clientCa.getMessage().contains("needs --tls-cert"), clientCa.getMessage());
    IllegalArgumentException missing = assertThrows(IllegalArgumentException.class,
        () -> RegistryServerMain.parse(new String[] {"--tls-cert", cert, "--tls-key", directory.resolve("no.key").toString()}));
    assertTrue(missing.getMessage().contains("not a readable file"), missing.getMessage());
  }

  @Test
  void existingFlagsStillParseAndHelpAsksForUsage() {
    RegistryServerMain.Options options = RegistryServerMain.parse(new String[] {
        "--host", "0.0.0.0", "--port", "7071", "--lease-ttl", "500ms", "--max-lease-ttl", "5m", "--startup-grace", "PT1S"});
    assertEquals("0.0.0.0", options.host());
    assertEquals(Duration.ofMillis(500), options.leaseTtl());
    assertNull(RegistryServerMain.parse(new String[] {"--help"}));
    assertThrows(IllegalArgumentException.class, () -> RegistryServerMain.parse(new String[] {"--token"}));
  }
}
