package io.triplerpc.transport.http3.internal;

import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicSslContextBuilder;
import io.netty.handler.ssl.ClientAuth;
import io.triplerpc.TlsConfig;

/**
 * QUIC's TLS context from the server's {@link TlsConfig}: the same certificate chain, key, trusted CAs and
 * client authentication as on TCP, in BoringSSL inside the QUIC library (TLS 1.3 only, ALPN {@code h3}).
 */
final class QuicTls {

  private QuicTls() {}

  /**
   * @throws IllegalArgumentException if the configuration has no PEM files (an {@code SSLContext} cannot
   *     be handed to QUIC's TLS) or they cannot be read
   */
  static QuicSslContext serverContext(TlsConfig tls) {
    if (tls == null || tls.certificateChain() == null) {
      throw new IllegalArgumentException("HTTP/3 needs TLS with keyCertChain(...) PEM files");
    }
    QuicSslContextBuilder builder = QuicSslContextBuilder
        .forServer(tls.privateKey().toFile(), null, tls.certificateChain().toFile())
        .applicationProtocols(Http3.supportedApplicationProtocols())
        .clientAuth(clientAuth(tls.clientAuth()));
    if (tls.trustCertificates() != null) {
      builder.trustManager(tls.trustCertificates().toFile());
    }
    return builder.build();
  }

  private static ClientAuth clientAuth(TlsConfig.ClientAuth clientAuth) {
    switch (clientAuth) {
      case REQUIRE:
        return ClientAuth.REQUIRE;
      case OPTIONAL:
        return ClientAuth.OPTIONAL;
      default:
        return ClientAuth.NONE;
    }
  }
}
