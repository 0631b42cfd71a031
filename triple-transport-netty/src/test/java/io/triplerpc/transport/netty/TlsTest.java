package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.triplerpc.CallOptions;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TlsConfig;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.testing.TestCertificates;
import io.triplerpc.transport.netty.testing.EchoRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** TLS and mutual TLS on the server's one port, with the Triple client and with the real curl. */
class TlsTest {

  private static final EchoRequest HELLO = EchoRequest.newBuilder().setMessage("over tls").build();

  private TripleServer server;
  private final List<TripleClient> clients = new ArrayList<>();

  @AfterEach
  void stop() throws Exception {
    clients.forEach(TripleClient::close);
    if (server != null) {
      server.shutdownNow();
      server.awaitTermination(Duration.ofSeconds(10));
    }
  }

  private void startServer(TlsConfig.ClientAuth clientAuth) {
    TlsConfig.Builder tls = TlsConfig.builder()
        .keyCertChain(TestCertificates.serverCertificate(), TestCertificates.serverKey())
        .clientAuth(clientAuth);
    if (clientAuth != TlsConfig.ClientAuth.NONE) {
      tls.trustCertificates(TestCertificates.caCertificate());
    }
    server = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(EchoService.class, new EchoServiceImpl())
        .tls(tls.build())
        .build().start();
  }

  private EchoService client(TlsConfig tls) {
    TripleClient.Builder builder = TripleClient.builder().address("127.0.0.1", server.port());
    if (tls != null) {
      builder.tls(tls);
    }
    TripleClient client = builder.build();
    clients.add(client);
    return client.proxy(EchoService.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10)));
  }

  private static TlsConfig trusting(java.nio.file.Path ca) {
    return TlsConfig.builder().trustCertificates(ca).build();
  }

  @Test
  void tlsAndCleartextOnOnePort() {
    startServer(TlsConfig.ClientAuth.NONE);
    assertEquals("over tls", client(trusting(TestCertificates.caCertificate())).echo(HELLO).getMessage());
    assertEquals("over tls", client(null).echo(HELLO).getMessage());
  }

  @Test
  void aServerCertificateNobodyTrustsFailsTheCallClearly() {
    startServer(TlsConfig.ClientAuth.NONE);
    StatusException e = assertThrows(StatusException.class,
        () -> client(trusting(TestCertificates.otherCaCertificate())).echo(HELLO));
    assertEquals(Status.Code.UNAVAILABLE, e.status().code());
    // Either the queued stream fails with the handshake's exception, or the handshake listener says so.
    assertTrue(e.status().description().contains("SSLHandshakeException")
        || e.status().description().contains("TLS handshake"), e.status().toString());
  }

  @Test
  void mutualTlsAcceptsTheClientCertificateAndRefusesAClientWithout() {
    startServer(TlsConfig.ClientAuth.REQUIRE);
    TlsConfig withCertificate = TlsConfig.builder()
        .trustCertificates(TestCertificates.caCertificate())
        .keyCertChain(TestCertificates.clientCertificate(), TestCertificates.clientKey())
        .build();
    assertEquals("over tls", client(withCertificate).echo(HELLO).getMessage());

    StatusException e = assertThrows(StatusException.class,
        () -> client(trusting(TestCertificates.caCertificate())).echo(HELLO));
    assertEquals(Status.Code.UNAVAILABLE, e.status().code());
  }

  @Test
  void curlOverTlsWithHttp1AndHttp2() throws Exception {
    startServer(TlsConfig.ClientAuth.NONE);
    for (String version : List.of("--http1.1", "--http2")) {
      List<String> command = List.of("curl", "-sS", "--max-time", "10", version,
          "--cacert", TestCertificates.caCertificate().toString(),
          "-w", "\n%{http_version}",
          "-H", "content-type: application/json", "-d", "{\"message\":\"curl over tls\"}",
          "https://127.0.0.1:" + server.port() + "/triple.test.EchoService/echo");
      Process process;
      try {
        process = new ProcessBuilder(command).redirectErrorStream(true).start();
      } catch (java.io.IOException e) {
        assumeTrue(false, "curl is not installed");
        return;
      }
      String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      assertTrue(process.waitFor(20, TimeUnit.SECONDS));
      assertEquals(0, process.exitValue(), output);
      assertTrue(output.startsWith("{\"message\":\"curl over tls\""), output);
      assertTrue(output.trim().endsWith(version.equals("--http2") ? "2" : "1.1"), output);
    }
  }
}
