package io.triplerpc.transport.http3.internal;

import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicSslContextBuilder;
import io.netty.handler.ssl.ClientAuth;
import io.triplerpc.TlsConfig;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.TrustManagerFactory;

/**
 * QUIC's TLS context from a server's or client's {@link TlsConfig}: the same certificate chain, key, trusted CAs and
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

  /**
   * A client's QUIC TLS context: the server is verified with {@code tls}'s trusted certificates (the JDK's
   * trusted CAs when none are set) and its host name; a key and chain, if set, are the client's certificate.
   *
   * @throws IllegalArgumentException if the configuration is an {@code SSLContext} (QUIC's TLS cannot use one)
   */
  static QuicSslContext clientContext(TlsConfig tls) {
    if (tls.sslContext() != null) {
      throw new IllegalArgumentException("HTTP/3 needs TLS from PEM files: QUIC's TLS cannot take an SSLContext");
    }
    QuicSslContextBuilder builder = QuicSslContextBuilder.forClient()
        .applicationProtocols(Http3.supportedApplicationProtocols());
    try {
      if (tls.trustCertificates() != null) {
        builder.trustManager(tls.trustCertificates().toFile());
      } else {
        TrustManagerFactory jdk = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        jdk.init((KeyStore) null);
        builder.trustManager(jdk);
      }
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("Cannot load the JDK's trusted certificates: " + e, e);
    }
    if (tls.certificateChain() != null) {
      builder.keyManager(tls.privateKey().toFile(), null, tls.certificateChain().toFile());
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
