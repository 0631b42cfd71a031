package io.triplerpc.transport.http3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.google.protobuf.StringValue;
import io.triplerpc.PeerInfo;
import io.triplerpc.TlsConfig;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.testing.TestCertificates;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code http3(fallbackAfter)}: against a server without HTTP/3 (its UDP port closed) the client's calls
 * succeed over HTTP/2 on TCP, the protocol asserted on the server's side; against a server with HTTP/3
 * they stay on HTTP/3.
 */
class Http3FallbackTest {

  private static TripleClient client(int port) {
    return TripleClient.builder()
        .address("localhost", port)
        .tls(Http3ClientTest.clientTls())
        .http3(Duration.ofMillis(500))
        .build();
  }

  @Test
  void withTheUdpPortClosedTheCallsGoOverHttp2() throws InterruptedException {
    Http3ClientTest.CallsImpl calls = new Http3ClientTest.CallsImpl();
    TripleServer tcpOnly = TripleServer.builder()
        .host("127.0.0.1")
        .port(0)
        .tls(TlsConfig.builder()
            .keyCertChain(TestCertificates.serverCertificate(), TestCertificates.serverKey())
            .build())
        .addService(Http3ClientTest.Calls.class, calls)
        .build()
        .start();
    try (TripleClient client = client(tcpOnly.port())) {
      Http3ClientTest.Calls proxy = client.proxy(Http3ClientTest.Calls.class);
      assertEquals("echo first", proxy.unary(StringValue.of("first")).getValue());
      assertEquals("echo second", proxy.unary(StringValue.of("second")).getValue());
      assertEquals(List.of(PeerInfo.HTTP_2, PeerInfo.HTTP_2), calls.protocols);
    } finally {
      tcpOnly.shutdownNow();
      assertTrue(tcpOnly.awaitTermination(Duration.ofSeconds(20)), "server terminated");
    }
  }

  @Test
  void withHttp3OnTheServerTheCallsStayOnHttp3() throws InterruptedException {
    Http3ClientTest.CallsImpl calls = new Http3ClientTest.CallsImpl();
    TripleServer server = Http3ClientTest.http3Server().addService(Http3ClientTest.Calls.class, calls).build().start();
    try (TripleClient client = client(server.port())) {
      Http3ClientTest.Calls proxy = client.proxy(Http3ClientTest.Calls.class);
      assertEquals("echo quic", proxy.unary(StringValue.of("quic")).getValue());
      assertEquals(List.of(PeerInfo.HTTP_3), calls.protocols);
    } finally {
      server.shutdownNow();
      assertTrue(server.awaitTermination(Duration.ofSeconds(20)), "server terminated");
    }
  }
}
