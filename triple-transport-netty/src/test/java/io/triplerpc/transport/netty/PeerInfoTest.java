package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.triplerpc.PeerInfo;
import io.triplerpc.ServerContext;
import io.triplerpc.TlsConfig;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.testing.TestCertificates;
import io.triplerpc.transport.netty.testing.EchoRequest;
import io.triplerpc.transport.netty.testing.EchoResponse;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** A service learns who calls it from {@link ServerContext#peer()}, for gRPC and for curl, with and without TLS. */
class PeerInfoTest {

  private static final EchoRequest HELLO = EchoRequest.newBuilder().setMessage("who").build();

  /** The peer the last call saw. */
  private final AtomicReference<PeerInfo> seen = new AtomicReference<>();
  private final AtomicReference<java.net.SocketAddress> seenRemoteAddress = new AtomicReference<>();
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

  private void startServer(TlsConfig tls) {
    EchoServiceImpl recording = new EchoServiceImpl() {
      @Override
      public EchoResponse echo(EchoRequest request) {
        seen.set(ServerContext.current().peer());
        seenRemoteAddress.set(ServerContext.current().remoteAddress());
        return super.echo(request);
      }
    };
    TripleServer.Builder builder = TripleServer.builder().host("127.0.0.1").port(0)
        .addService(EchoService.class, recording);
    if (tls != null) {
      builder.tls(tls);
    }
    server = builder.build().start();
  }

  private EchoService client(TlsConfig tls) {
    TripleClient.Builder builder = TripleClient.builder().address("127.0.0.1", server.port());
    if (tls != null) {
      builder.tls(tls);
    }
    TripleClient client = builder.build();
    clients.add(client);
    return client.proxy(EchoService.class);
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

    PeerInfo peer = seen.get();
    assertTrue(peer.isTls());
    assertEquals(PeerInfo.HTTP_2, peer.applicationProtocol());
    assertTrue(peer.tlsProtocol().startsWith("TLSv1."), peer.tlsProtocol());
    assertTrue(peer.cipherSuite().startsWith("TLS_"), peer.cipherSuite());
    assertEquals(1, peer.peerCertificates().size(), "the chain the client sent: its own certificate");
    assertEquals("CN=triple-test-client", peer.peerSubject().getName());
    assertEquals("127.0.0.1", ((InetSocketAddress) peer.remoteAddress()).getAddress().getHostAddress());
    assertEquals(server.port(), ((InetSocketAddress) peer.localAddress()).getPort());
    assertEquals(peer.remoteAddress(), seenRemoteAddress.get());
  }

  @Test
  void aCleartextGrpcCallSeesH2cAndNoCertificate() {
    startServer(null);
    client(null).echo(HELLO);

    PeerInfo peer = seen.get();
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
          "https://127.0.0.1:" + server.port() + "/triple.test.EchoService/echo");
      PeerInfo peer = seen.get();
      assertEquals(version.equals("--http2") ? PeerInfo.HTTP_2 : PeerInfo.HTTP_1_1, peer.applicationProtocol());
      assertTrue(peer.isTls());
      assertEquals("CN=triple-test-client", peer.peerSubject().getName());
    }
  }

  @Test
  void cleartextCurlSeesHttp1() throws Exception {
    startServer(null);
    curl("--http1.1", "http://127.0.0.1:" + server.port() + "/triple.test.EchoService/echo");
    assertEquals(PeerInfo.HTTP_1_1, seen.get().applicationProtocol());
    assertFalse(seen.get().isTls());
  }

  private static void curl(String... arguments) throws Exception {
    List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "10",
        "-H", "content-type: application/json", "-d", "{\"message\":\"who\"}"));
    command.addAll(List.of(arguments));
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
    assertTrue(output.startsWith("{\"message\":\"who\""), output);
  }
}
