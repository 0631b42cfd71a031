package io.triplerpc.transport.netty;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.triplerpc.TlsConfig;
import io.triplerpc.TripleClient;
import io.triplerpc.TripleServer;
import io.triplerpc.testing.TestCertificates;
import org.junit.jupiter.api.Test;

/**
 * This module's tests run without {@code triple-transport-http3}, as a user's project that did not add
 * it: a server or client asked for HTTP/3 fails to build, naming the artifact (and TLS, which QUIC cannot
 * do without).
 */
class Http3WithoutItsArtifactTest {

  @Test
  void http3WithoutTheArtifactFailsToBuildNamingIt() {
    TripleServer.Builder builder = TripleServer.builder()
        .tls(TlsConfig.builder()
            .keyCertChain(TestCertificates.serverCertificate(), TestCertificates.serverKey())
            .build())
        .http3();
    IllegalStateException e = assertThrows(IllegalStateException.class, builder::build);
    assertTrue(e.getMessage().contains("io.triplerpc:triple-transport-http3"), e.getMessage());
  }

  @Test
  void http3WithoutTlsFailsToBuildNamingTls() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> TripleServer.builder().http3().build());
    assertTrue(e.getMessage().contains("tls("), e.getMessage());
  }

  @Test
  void aClientWithHttp3WithoutTheArtifactFailsToBuildNamingIt() {
    TripleClient.Builder builder = TripleClient.builder().address("localhost", 8443)
        .tls(TlsConfig.builder().trustCertificates(TestCertificates.caCertificate()).build())
        .http3();
    IllegalStateException e = assertThrows(IllegalStateException.class, builder::build);
    assertTrue(e.getMessage().contains("io.triplerpc:triple-transport-http3"), e.getMessage());
  }

  @Test
  void aClientWithHttp3WithoutTlsFailsToBuildNamingTls() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> TripleClient.builder().address("localhost", 8443).http3().build());
    assertTrue(e.getMessage().contains("tls("), e.getMessage());
  }

  @Test
  void aClientWithHttp3AndHttp1FailsToBuild() {
    IllegalStateException e = assertThrows(IllegalStateException.class,
        () -> TripleClient.builder().address("localhost", 8443)
            .tls(TlsConfig.builder().trustCertificates(TestCertificates.caCertificate()).build())
            .http1(true).protocol(io.triplerpc.ClientProtocol.CONNECT).http3().build());
    assertTrue(e.getMessage().contains("http1"), e.getMessage());
  }
}
