package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.OpenSslContext;
import io.triplerpc.CallOptions;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TlsConfig;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.testing.TestCertificates;
import io.triplerpc.transport.netty.internal.Tls;
import io.triplerpc.transport.netty.testing.EchoRequest;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * TLS on either implementation, and across them: OpenSSL (netty-tcnative's BoringSSL, on this module's
 * test class path) and the JDK's provider, each as server and client, mutual TLS and ALPN included.
 */
class TlsProvidersTest {

  private static final EchoRequest HELLO = EchoRequest.newBuilder().setMessage("over tls").build();

  private static TlsConfig server(TlsConfig.Provider provider) {
    return TlsConfig.builder()
        .keyCertChain(TestCertificates.serverCertificate(), TestCertificates.serverKey())
        .trustCertificates(TestCertificates.caCertificate())
        .clientAuth(TlsConfig.ClientAuth.REQUIRE)
        .provider(provider)
        .build();
  }

  private static TlsConfig client(TlsConfig.Provider provider) {
    return TlsConfig.builder()
        .trustCertificates(TestCertificates.caCertificate())
        .keyCertChain(TestCertificates.clientCertificate(), TestCertificates.clientKey())
        .provider(provider)
        .build();
  }

  @ParameterizedTest(name = "server {0}, client {1}")
  @CsvSource({"OPENSSL, OPENSSL", "OPENSSL, JDK", "JDK, OPENSSL", "JDK, JDK", "DEFAULT, DEFAULT"})
  void mutualTlsCallsWorkOnEitherProviderAndAcrossThem(TlsConfig.Provider serverSide, TlsConfig.Provider clientSide) {
    TripleServer server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(EchoService.class, new EchoServiceImpl())
        .tls(server(serverSide))
        .build().start();
    try (TripleClient tripleClient = TripleClient.builder().address("127.0.0.1", server.port())
        .tls(client(clientSide)).build()) {
      EchoService echo = tripleClient.proxy(EchoService.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10)));
      for (int i = 0; i < 3; i++) {
        assertEquals("over tls", echo.echo(HELLO).getMessage());
      }
      // Without a client certificate the server refuses the handshake, on whichever side it runs.
      try (TripleClient anonymous = TripleClient.builder().address("127.0.0.1", server.port())
          .tls(TlsConfig.builder().trustCertificates(TestCertificates.caCertificate()).provider(clientSide).build())
          .build()) {
        StatusException refused = assertThrows(StatusException.class,
            () -> anonymous.proxy(EchoService.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10)))
                .echo(HELLO));
        assertEquals(Status.Code.UNAVAILABLE, refused.status().code());
      }
    } finally {
      server.shutdownNow();
    }
  }

  @Test
  void theDefaultIsOpenSslWhereItLoadsAndTheJdkOnRequest() {
    assertTrue(OpenSsl.isAvailable(), "netty-tcnative is on this module's test class path: "
        + OpenSsl.unavailabilityCause());
    assertTrue(Tls.serverContext(server(TlsConfig.Provider.DEFAULT)) instanceof OpenSslContext);
    assertTrue(Tls.clientContext(client(TlsConfig.Provider.DEFAULT)) instanceof OpenSslContext);
    assertTrue(Tls.serverContext(server(TlsConfig.Provider.JDK)) instanceof JdkSslContext);
    assertTrue(Tls.clientContext(client(TlsConfig.Provider.JDK)) instanceof JdkSslContext);
  }

  @Test
  void anSslContextIsTheJdksAndCannotBeServedByOpenSsl() throws Exception {
    SSLContext context = SSLContext.getDefault();
    assertEquals(TlsConfig.Provider.JDK, TlsConfig.builder().sslContext(context).build().provider());
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
        () -> TlsConfig.builder().sslContext(context).provider(TlsConfig.Provider.OPENSSL).build());
    assertTrue(e.getMessage().contains("OpenSSL"), e.getMessage());
  }
}
