package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.triplerpc.CallOptions;
import io.triplerpc.Metadata;
import io.triplerpc.ServerCall;
import io.triplerpc.ServerCallHandler;
import io.triplerpc.ServerInterceptor;
import io.triplerpc.Status;
import io.triplerpc.StatusException;
import io.triplerpc.TlsConfig;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.testing.TestCertificates;
import io.triplerpc.transport.netty.testing.EchoRequest;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * TLS and mutual TLS on the server's one port, with the Triple client, a raw socket and the real curl:
 * a TLS server serves only TLS unless it opts in to cleartext beside it.
 */
class TlsTest {

  private static final EchoRequest HELLO = EchoRequest.newBuilder().setMessage("over tls").build();

  @RegisterExtension final EchoFixture fixture = new EchoFixture();

  /** Calls that reached the server's handler chain (interceptors, then the service). */
  private final AtomicInteger callsServed = new AtomicInteger();

  private void startServer(TlsConfig.ClientAuth clientAuth) {
    startServer(clientAuth, false);
  }

  private void startServer(TlsConfig.ClientAuth clientAuth, boolean plaintextAlongsideTls) {
    fixture.startServer(builder -> builder
        .intercept(new ServerInterceptor() {
          @Override
          public <Q, R> ServerCall.Listener<Q> interceptCall(
              ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
            callsServed.incrementAndGet();
            return next.startCall(call, headers);
          }
        })
        .tls(serverTls(clientAuth))
        .plaintextAlongsideTls(plaintextAlongsideTls));
  }

  private static TlsConfig serverTls(TlsConfig.ClientAuth clientAuth) {
    TlsConfig.Builder tls = TlsConfig.builder()
        .keyCertChain(TestCertificates.serverCertificate(), TestCertificates.serverKey())
        .clientAuth(clientAuth);
    if (clientAuth != TlsConfig.ClientAuth.NONE) {
      tls.trustCertificates(TestCertificates.caCertificate());
    }
    return tls.build();
  }

  private EchoService client(TlsConfig tls) {
    TripleClient client = fixture.newClient(builder -> tls == null ? builder : builder.tls(tls));
    return client.proxy(EchoService.class, CallOptions.DEFAULT.withTimeout(Duration.ofSeconds(10)));
  }

  private static TlsConfig trusting(java.nio.file.Path ca) {
    return TlsConfig.builder().trustCertificates(ca).build();
  }

  @Test
  void tlsAndCleartextOnOnePortWhenTheServerOptsIn() {
    startServer(TlsConfig.ClientAuth.NONE, true);
    assertEquals("over tls", client(trusting(TestCertificates.caCertificate())).echo(HELLO).getMessage());
    assertEquals("over tls", client(null).echo(HELLO).getMessage());
  }

  @Test
  void aTlsServerClosesCleartextHttp2WithoutReachingAService() {
    startServer(TlsConfig.ClientAuth.NONE);
    StatusException e = assertThrows(StatusException.class, () -> client(null).echo(HELLO));
    // As grpc-java: the GOAWAY's INADEQUATE_SECURITY is PERMISSION_DENIED, its debug data the reason.
    assertEquals(Status.Code.PERMISSION_DENIED, e.status().code(), e.status().toString());
    assertTrue(e.status().description().contains("INADEQUATE_SECURITY: This port serves TLS only"), e.status().toString());
    assertEquals(0, callsServed.get());
    // TLS still works on the same port.
    assertEquals("over tls", client(trusting(TestCertificates.caCertificate())).echo(HELLO).getMessage());
    assertEquals(1, callsServed.get());
  }

  @Test
  void aCleartextHttp2PrefaceIsAnsweredWithGoawayInadequateSecurityAndClosed() throws Exception {
    startServer(TlsConfig.ClientAuth.REQUIRE);
    byte[] answer = exchange("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
    // An empty SETTINGS frame, then GOAWAY (type 7) with last stream 0 and error 0xc, then the end.
    assertEquals(4, answer[3], "first frame is SETTINGS");
    assertEquals(7, answer[9 + 3], "second frame is GOAWAY");
    assertEquals(0xc, answer[9 + 9 + 7], "INADEQUATE_SECURITY");
    assertTrue(new String(answer, StandardCharsets.US_ASCII).contains("TLS only"));
    assertEquals(0, callsServed.get());
  }

  @Test
  void cleartextHttp1AndH2cUpgradeAreRefusedWithA400AndClosed() throws Exception {
    startServer(TlsConfig.ClientAuth.NONE);
    String post = "POST /triple.test.EchoService/echo HTTP/1.1\r\nhost: localhost\r\n"
        + "content-type: application/json\r\ncontent-length: 2\r\n\r\n{}";
    String upgrade = "GET / HTTP/1.1\r\nhost: localhost\r\nconnection: Upgrade, HTTP2-Settings\r\n"
        + "upgrade: h2c\r\nhttp2-settings: AAMAAABkAAQAAP__\r\n\r\n";
    for (String request : List.of(post, upgrade)) {
      String answer = new String(exchange(request), StandardCharsets.US_ASCII);
      assertTrue(answer.startsWith("HTTP/1.1 400 Bad Request\r\n"), answer);
      assertTrue(answer.contains("TLS only"), answer);
    }
    assertEquals(0, callsServed.get());
  }

  /** Sends {@code request} on a new cleartext connection and reads until the server closes it. */
  private byte[] exchange(String request) throws Exception {
    try (Socket socket = new Socket("127.0.0.1", fixture.server().port())) {
      socket.setSoTimeout(10_000);
      socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
      socket.getOutputStream().flush();
      // readAllBytes returns at the end of the stream: the server closed the connection.
      return socket.getInputStream().readAllBytes();
    }
  }

  @Test
  void plaintextAlongsideTlsIsRefusedWithMutualTlsAndWithoutTls() {
    IllegalStateException required = assertThrows(IllegalStateException.class, () -> TripleServer.builder()
        .tls(serverTls(TlsConfig.ClientAuth.REQUIRE)).plaintextAlongsideTls(true).build());
    assertTrue(required.getMessage().contains("ClientAuth.REQUIRE"), required.getMessage());
    IllegalStateException noTls = assertThrows(IllegalStateException.class,
        () -> TripleServer.builder().plaintextAlongsideTls(true).build());
    assertTrue(noTls.getMessage().contains("needs tls"), noTls.getMessage());
  }

  @Test
  void curlWithoutTlsOrWithoutAClientCertificateIsRefused() throws Exception {
    startServer(TlsConfig.ClientAuth.REQUIRE);
    String url = "127.0.0.1:" + fixture.server().port() + "/triple.test.EchoService/echo";
    List<String> json = List.of("-H", "content-type: application/json", "-d", "{\"message\":\"hi\"}");

    Curl.Result h2c = curl(json, "--http2-prior-knowledge", "http://" + url);
    assertTrue(h2c.exitCode() != 0, h2c.output());
    Curl.Result http1 = curl(json, "--http1.1", "http://" + url);
    assertTrue(http1.output().contains("TLS only"), http1.output());
    Curl.Result noCertificate = curl(json, "--cacert", TestCertificates.caCertificate().toString(), "https://" + url);
    assertTrue(noCertificate.exitCode() != 0, noCertificate.output());
    assertEquals(0, callsServed.get());

    Curl.Result withCertificate = curl(json, "--cacert", TestCertificates.caCertificate().toString(),
        "--cert", TestCertificates.clientCertificate().toString(),
        "--key", TestCertificates.clientKey().toString(), "https://" + url);
    assertEquals(0, withCertificate.exitCode(), withCertificate.output());
    assertTrue(withCertificate.output().startsWith("{\"message\":\"hi\""), withCertificate.output());
  }

  private static Curl.Result curl(List<String> body, String... arguments) throws Exception {
    List<String> all = new ArrayList<>(body);
    all.addAll(List.of(arguments));
    return Curl.run(all);
  }

  @Test
  void aServerCertificateNobodyTrustsFailsTheCallClearly() {
    startServer(TlsConfig.ClientAuth.NONE);
    EchoService echo = client(trusting(TestCertificates.otherCaCertificate()));
    StatusException e = assertThrows(StatusException.class, () -> echo.echo(HELLO));
    assertEquals(Status.Code.UNAVAILABLE, e.status().code());
    // The call waited for the handshake (HTTP/2 starts once TLS is up), which failed.
    assertTrue(e.status().description().contains("TLS handshake"), e.status().toString());
    // A failed handshake is a failed connection attempt: the next one waits out the backoff.
    StatusException again = assertThrows(StatusException.class, () -> echo.echo(HELLO));
    assertTrue(again.status().description().contains("Next connection attempt in"), again.status().toString());
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
      Curl.Result curl = Curl.run(version,
          "--cacert", TestCertificates.caCertificate().toString(),
          "-w", "\n%{http_version}",
          "-H", "content-type: application/json", "-d", "{\"message\":\"curl over tls\"}",
          "https://127.0.0.1:" + fixture.server().port() + "/triple.test.EchoService/echo");
      String output = curl.output();
      assertEquals(0, curl.exitCode(), output);
      assertTrue(output.startsWith("{\"message\":\"curl over tls\""), output);
      assertTrue(output.trim().endsWith(version.equals("--http2") ? "2" : "1.1"), output);
    }
  }
}
