package io.triplerpc.transport.http3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.StringValue;
import io.triplerpc.TlsConfig;
import io.triplerpc.TripleServer;
import io.triplerpc.testing.TestCertificates;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.util.Optional;
import java.util.function.UnaryOperator;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Responses on TCP, HTTP/2 and HTTP/1.1 alike (the JDK's HttpClient), advertise HTTP/3 with
 * {@code Alt-Svc: h3=":port"; ma=...} when the server serves it, gRPC's included, and only then.
 */
class AltSvcTest {

  private TripleServer server;

  private void start(UnaryOperator<TripleServer.Builder> configure) {
    server = configure.apply(TripleServer.builder()
            .host("127.0.0.1")
            .port(0)
            .tls(TlsConfig.builder()
                .keyCertChain(TestCertificates.serverCertificate(), TestCertificates.serverKey())
                .build())
            .addService(Echo.class, new EchoImpl()))
        .build()
        .start();
  }

  @AfterEach
  void stop() throws InterruptedException {
    server.shutdownNow();
    assertTrue(server.awaitTermination(Duration.ofSeconds(20)), "server terminated");
  }

  @Test
  void http2AndHttp1ResponsesAdvertiseHttp3OnTheSamePortNumber() throws Exception {
    start(builder -> builder.http3());
    String expected = "h3=\":" + server.port() + "\"; ma=86400";
    assertEquals(Optional.of(expected), altSvc(HttpClient.Version.HTTP_2, connectUnary()));
    assertEquals(Optional.of(expected), altSvc(HttpClient.Version.HTTP_1_1, connectUnary()));
    // gRPC over HTTP/2, whose response heads are shared constants: each response gets a copy that has it.
    assertEquals(Optional.of(expected), altSvc(HttpClient.Version.HTTP_2, grpc()));
    assertEquals(Optional.of(expected), altSvc(HttpClient.Version.HTTP_2, grpc()));
  }

  @Test
  void maxAgeIsConfigurableAndZeroSendsNone() throws Exception {
    start(builder -> builder.http3().altSvcMaxAge(Duration.ofMinutes(5)));
    assertEquals(Optional.of("h3=\":" + server.port() + "\"; ma=300"),
        altSvc(HttpClient.Version.HTTP_2, connectUnary()));
    server.shutdownNow();
    assertTrue(server.awaitTermination(Duration.ofSeconds(20)));
    start(builder -> builder.http3().altSvcMaxAge(Duration.ZERO));
    assertEquals(Optional.empty(), altSvc(HttpClient.Version.HTTP_2, connectUnary()));
  }

  @Test
  void withoutHttp3NothingIsAdvertised() throws Exception {
    start(builder -> builder);
    assertEquals(Optional.empty(), altSvc(HttpClient.Version.HTTP_2, connectUnary()));
    assertEquals(Optional.empty(), altSvc(HttpClient.Version.HTTP_1_1, connectUnary()));
    assertEquals(Optional.empty(), altSvc(HttpClient.Version.HTTP_2, grpc()));
  }

  private HttpRequest.Builder connectUnary() {
    return HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + "/triple.http3.Echo/Unary"))
        .header("content-type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString("\"tcp\""));
  }

  private HttpRequest.Builder grpc() {
    byte[] message = StringValue.of("tcp").toByteArray();
    ByteBuffer frame = ByteBuffer.allocate(5 + message.length).put((byte) 0).putInt(message.length).put(message);
    return HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + "/triple.http3.Echo/Unary"))
        .header("content-type", "application/grpc")
        .POST(HttpRequest.BodyPublishers.ofByteArray(frame.array()));
  }

  /** The {@code alt-svc} of the response to {@code request} over {@code version}, which it checks was used. */
  private static Optional<String> altSvc(HttpClient.Version version, HttpRequest.Builder request) throws Exception {
    HttpClient client = HttpClient.newBuilder().version(version).sslContext(trustingTestCa()).build();
    HttpResponse<byte[]> response = client.send(request.timeout(Duration.ofSeconds(20)).build(),
        HttpResponse.BodyHandlers.ofByteArray());
    assertEquals(200, response.statusCode());
    assertEquals(version, response.version());
    return response.headers().firstValue("alt-svc");
  }

  private static SSLContext trustingTestCa() throws Exception {
    KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
    trusted.load(null, null);
    try (InputStream ca = Files.newInputStream(TestCertificates.caCertificate())) {
      trusted.setCertificateEntry("ca", CertificateFactory.getInstance("X.509").generateCertificate(ca));
    }
    TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(trusted);
    SSLContext context = SSLContext.getInstance("TLS");
    context.init(null, trust.getTrustManagers(), null);
    return context;
  }
}
