package io.triplerpc.registry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TlsConfig;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.registry.remote.RemoteRegistry;
import io.triplerpc.registry.server.RegistryServer;
import io.triplerpc.spi.ServerInfo;
import io.triplerpc.testing.TestCertificates;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The registry server as it should run where others can reach it: TLS on its port and tokens from a
 * file, with real providers and consumers over real sockets.
 */
class SecuredRegistryTest {

  private static final String PROVIDER_TOKEN = "provider-token-0123456789abcdef";
  private static final String CONSUMER_TOKEN = "consumer-token-0123456789abcdef";

  @TempDir Path directory;

  private RegistryServer registry;
  private final List<AutoCloseable> closeables = new ArrayList<>();
  private final List<TripleServer> providers = new ArrayList<>();

  @BeforeEach
  void startRegistry() throws IOException {
    Path tokens = Files.write(directory.resolve("registry-tokens"), List.of(
        "# who may use this registry",
        PROVIDER_TOKEN + " register",
        CONSUMER_TOKEN + " subscribe"));
    registry = RegistryServer.builder().host("127.0.0.1").port(0)
        .tokenFile(tokens)
        .tls(TlsConfig.builder().keyCertChain(TestCertificates.serverCertificate(), TestCertificates.serverKey()).build())
        .build().start();
  }

  @AfterEach
  void stop() throws Exception {
    for (AutoCloseable closeable : closeables) {
      closeable.close();
    }
    for (TripleServer provider : providers) {
      provider.shutdownNow();
      provider.awaitTermination(Duration.ofSeconds(5));
    }
    registry.shutdownNow();
    assertTrue(registry.awaitTermination(Duration.ofSeconds(10)), "registry server did not terminate");
  }

  private static TlsConfig trustingTestCa() {
    return TlsConfig.builder().trustCertificates(TestCertificates.caCertificate()).build();
  }

  private RemoteRegistry remote(String token) {
    RemoteRegistry.Builder builder = RemoteRegistry.builder("127.0.0.1", registry.port()).tls(trustingTestCa());
    if (token != null) {
      builder.token(token);
    }
    RemoteRegistry remote = builder.build();
    closeables.add(remote);
    return remote;
  }

  private TripleServer provider(RemoteRegistry remote, String name) {
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(Whoami.class, Whoami.named(name))
        .registration(Registration.to(remote).application("whoami-app").required(true)
            .timeout(Duration.ofSeconds(5)).build())
        .build();
    providers.add(server);
    return server.start();
  }

  @Test
  void overTlsWithTokensAProviderRegistersAndAConsumerDiscoversAndCallsIt() throws Exception {
    provider(remote(PROVIDER_TOKEN), "secured");
    Path consumerToken = Files.writeString(directory.resolve("consumer-token"), CONSUMER_TOKEN + "\n");

    TripleClient client = TripleClient.builder().address("registry://127.0.0.1:" + registry.port()
        + "?tls-ca=" + TestCertificates.caCertificate() + "&token-file=" + consumerToken).build();
    closeables.add(client);
    assertEquals("secured", client.proxy(Whoami.class).who("test"));
  }

  @Test
  void aConsumerWithoutATokenFindsNothingAndItsCallsSayWhy() {
    provider(remote(PROVIDER_TOKEN), "secured");
    TripleClient client = TripleClient.builder()
        .address("registry://127.0.0.1:" + registry.port() + "?tls-ca=" + TestCertificates.caCertificate()).build();
    closeables.add(client);
    StatusException e = assertThrows(StatusException.class, () -> client.proxy(Whoami.class).who("test"));
    assertEquals(Status.Code.UNAVAILABLE, e.status().code());
    assertTrue(e.getMessage().contains("UNAUTHENTICATED"), e.getMessage());
  }

  @Test
  void aProviderWithoutATokenFailsToStartWhenItsRegistrationIsRequired() {
    IllegalStateException e = assertThrows(IllegalStateException.class, () -> provider(remote(null), "anonymous"));
    assertTrue(e.getMessage().contains("UNAUTHENTICATED"), e.getMessage());
    assertEquals(0, registry.leaseCount());
  }

  @Test
  void aRegistryWithAConsumersTokenIsDeniedRegistrationAndCanStillSubscribe() throws Exception {
    RemoteRegistry consumer = remote(CONSUMER_TOKEN);
    MetadataInfo metadata = MetadataInfo.of("whoami-app",
        List.of(new ServerInfo.Service("triple.test.Whoami", List.of("who"), "hessian2", "", "")));
    ExecutionException denied = assertThrows(ExecutionException.class, () -> consumer.register(
        ServiceInstance.of("whoami-app", "127.0.0.1", 9, metadata.revision())).get(10, TimeUnit.SECONDS));
    StatusException status = assertInstanceOf(StatusException.class, denied.getCause());
    assertEquals(Status.Code.PERMISSION_DENIED, status.status().code());
    assertTrue(status.getMessage().contains("register right"), status.getMessage());
    assertEquals(0, registry.leaseCount());

    assertEquals(java.util.Set.of(), consumer.applications("triple.test.Whoami").get(10, TimeUnit.SECONDS));
  }

  @Test
  void aProviderWithTheTokenButWithoutTlsIsRefusedAndItsTokenNeverSent() {
    RemoteRegistry cleartext = RemoteRegistry.builder("127.0.0.1", registry.port())
        .token(PROVIDER_TOKEN)
        .callTimeout(Duration.ofSeconds(2))
        .build();
    closeables.add(cleartext);
    MetadataInfo metadata = MetadataInfo.of("whoami-app",
        List.of(new ServerInfo.Service("triple.test.Whoami", List.of("who"), "hessian2", "", "")));
    ExecutionException refused = assertThrows(ExecutionException.class, () -> cleartext.register(
        ServiceInstance.of("whoami-app", "127.0.0.1", 9, metadata.revision())).get(10, TimeUnit.SECONDS));
    StatusException status = assertInstanceOf(StatusException.class, refused.getCause());
    // The TLS-only port closes the cleartext connection before reading a request, saying why.
    assertEquals(Status.Code.PERMISSION_DENIED, status.status().code(), status.toString());
    assertTrue(status.getMessage().contains("This port serves TLS only"), status.getMessage());
    assertEquals(0, registry.leaseCount());
  }

  @Test
  void aRegistryTargetNeverCarriesARawTokenNorShowsOneInItsErrors() {
    IllegalArgumentException raw = assertThrows(IllegalArgumentException.class,
        () -> TripleClient.builder().address("registry://127.0.0.1:7070?token=" + CONSUMER_TOKEN));
    assertTrue(raw.getMessage().contains("token-file="), raw.getMessage());
    assertFalse(raw.getMessage().contains(CONSUMER_TOKEN), raw.getMessage());

    IllegalArgumentException stray = assertThrows(IllegalArgumentException.class,
        () -> TripleClient.builder().address("registry://127.0.0.1:7070?tls=true&" + CONSUMER_TOKEN));
    assertFalse(stray.getMessage().contains(CONSUMER_TOKEN), stray.getMessage());

    IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
        () -> TripleClient.builder().address("registry://127.0.0.1:7070?tsl=true"));
    assertTrue(unknown.getMessage().contains("'tsl'") && unknown.getMessage().contains("tls, tls-ca, token-file"),
        unknown.getMessage());
  }
}
