package io.triplerpc.shaded.tests;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.PeerInfo;
import io.triplerpc.ServerContext;
import io.triplerpc.TlsConfig;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.TripleService;
import io.triplerpc.testing.TestCertificates;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * TLS from the shaded jar: the JDK's provider serves and calls (the jar holds no netty-tcnative, so
 * that is what the default chooses), and asking for OpenSSL fails as the server is built, with advice
 * that fits the shaded jar rather than the unshaded one.
 */
class TlsOnShadedNettyTest {

  @TripleService(name = "shaded.Tls")
  public interface Peer {
    String describe(String ignored);
  }

  private static final Duration TIMEOUT = Duration.ofSeconds(20);

  private static TlsConfig.Builder serverTls() {
    return TlsConfig.builder().keyCertChain(TestCertificates.serverCertificate(), TestCertificates.serverKey());
  }

  @Test
  void theJdksTlsServesAndCalls() throws InterruptedException {
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0)
        .tls(serverTls().build())
        .addService(Peer.class, ignored -> {
          PeerInfo peer = ServerContext.current().peer();
          return peer.isTls() + " " + peer.applicationProtocol();
        })
        .build()
        .start();
    try (TripleClient client = TripleClient.builder().address("127.0.0.1", server.port())
        .tls(TlsConfig.builder().trustCertificates(TestCertificates.caCertificate()).build())
        .build()) {
      assertEquals("true " + PeerInfo.HTTP_2, client.proxy(Peer.class).describe(""));
    } finally {
      server.shutdown();
      assertTrue(server.awaitTermination(TIMEOUT), "the server stopped");
    }
  }

  @Test
  void openSslIsRefusedWithAdviceForTheShadedJar() {
    IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () ->
        TripleServer.builder().host("127.0.0.1").port(0)
            .tls(serverTls().provider(TlsConfig.Provider.OPENSSL).build())
            .addService(Peer.class, ignored -> "")
            .build()
            .start());
    String message = refused.getMessage();
    assertTrue(message.contains("not available from triple-netty-shaded"), message);
    assertTrue(message.contains("TlsConfig.Provider.JDK"), message);
  }
}
