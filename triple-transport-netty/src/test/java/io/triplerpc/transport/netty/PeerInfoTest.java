package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.PeerInfo;
import io.triplerpc.ServerContext;
import io.triplerpc.TlsConfig;
import io.triplerpc.testing.TestCertificates;
import io.triplerpc.transport.netty.testing.EchoRequest;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A service learns who calls it from {@link ServerContext#peer()}, for gRPC and for curl, with and without TLS. */
class PeerInfoTest {

  private static final EchoRequest HELLO = EchoRequest.newBuilder().setMessage("who").build();

  private final CallerRecordingEchoService service = new CallerRecordingEchoService();
  @RegisterExtension final EchoFixture fixture = new EchoFixture(service);

  private void startServer(TlsConfig tls) {
    fixture.startServer(builder -> tls == null ? builder : builder.tls(tls));
  }

  private EchoService client(TlsConfig tls) {
    return fixture.newClient(builder -> tls == null ? builder : builder.tls(tls)).proxy(EchoService.class);
  }

  private static TlsConfig mutualTlsServer() {
    return TlsConfig.builder()
        .keyCertChain(TestCertificates.serverCertificate(), TestCertificates.serverKey())
        .trustCertificates(TestCertificates.caCertificate())
        .clientAuth(TlsConfig.ClientAuth.REQUIRE)
        .build();
  }

  @Test
  void aGrpcCallOverMutualTlsSeesTheVerifiedClientCertificate() {
    startServer(mutualTlsServer());
    client(TlsConfig.builder()
        .trustCertificates(TestCertificates.caCertificate())
        .keyCertChain(TestCertificates.clientCertificate(), TestCertificates.clientKey())
        .build()).echo(HELLO);

    PeerInfo peer = service.peer.get();
    assertTrue(peer.isTls());
    assertEquals(PeerInfo.HTTP_2, peer.applicationProtocol());
    assertTrue(peer.tlsProtocol().startsWith("TLSv1."), peer.tlsProtocol());
    assertTrue(peer.cipherSuite().startsWith("TLS_"), peer.cipherSuite());
    assertEquals(1, peer.peerCertificates().size(), "the chain the client sent: its own certificate");
    assertEquals("CN=triple-test-client", peer.peerSubject().getName());
    assertEquals("127.0.0.1", ((InetSocketAddress) peer.remoteAddress()).getAddress().getHostAddress());
    assertEquals(fixture.server().port(), ((InetSocketAddress) peer.localAddress()).getPort());
    assertEquals(peer.remoteAddress(), service.remoteAddress.get());
  }

  @Test
  void aCleartextGrpcCallSeesH2cAndNoCertificate() {
    startServer(null);
    client(null).echo(HELLO);

    PeerInfo peer = service.peer.get();
    assertFalse(peer.isTls());
    assertEquals(PeerInfo.HTTP_2_CLEARTEXT, peer.applicationProtocol());
    assertNull(peer.tlsProtocol());
    assertNull(peer.cipherSuite());
    assertTrue(peer.peerCertificates().isEmpty());
    assertNull(peer.peerSubject());
  }

  @Test
  void curlOverMutualTlsHttp1AndHttp2SeesTheClientCertificate() throws Exception {
    startServer(mutualTlsServer());
    for (String version : List.of("--http1.1", "--http2")) {
      curl(version, "--cacert", TestCertificates.caCertificate().toString(),
          "--cert", TestCertificates.clientCertificate().toString(),
          "--key", TestCertificates.clientKey().toString(),
          "https://127.0.0.1:" + fixture.server().port() + "/triple.test.EchoService/echo");
      PeerInfo peer = service.peer.get();
      assertEquals(version.equals("--http2") ? PeerInfo.HTTP_2 : PeerInfo.HTTP_1_1, peer.applicationProtocol());
      assertTrue(peer.isTls());
      assertEquals("CN=triple-test-client", peer.peerSubject().getName());
    }
  }

  @Test
  void cleartextCurlSeesHttp1() throws Exception {
    startServer(null);
    curl("--http1.1", "http://127.0.0.1:" + fixture.server().port() + "/triple.test.EchoService/echo");
    assertEquals(PeerInfo.HTTP_1_1, service.peer.get().applicationProtocol());
    assertFalse(service.peer.get().isTls());
  }

  private static void curl(String... arguments) throws Exception {
    List<String> all = new ArrayList<>(List.of("-H", "content-type: application/json", "-d", "{\"message\":\"who\"}"));
    all.addAll(List.of(arguments));
    Curl.Result curl = Curl.run(all);
    assertEquals(0, curl.exitCode(), curl.output());
    assertTrue(curl.output().startsWith("{\"message\":\"who\""), curl.output());
  }
}
