package io.triplerpc.transport.netty.internal;

import io.netty.handler.codec.http2.Http2SecurityUtil;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.IdentityCipherSuiteFilter;
import io.netty.handler.ssl.JdkSslContext;
import io.netty.handler.ssl.OpenSsl;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import io.netty.handler.ssl.SupportedCipherSuiteFilter;
import io.triplerpc.TlsConfig;
import javax.net.ssl.SSLException;

/**
 * Netty SSL contexts from a {@link TlsConfig}: OpenSSL (BoringSSL, from netty-tcnative) where it is on
 * the class path, else the JDK's provider (ALPN is built into Java 9+); {@link TlsConfig#provider()}
 * decides. Both offer the same HTTP/2 cipher suites and ALPN protocols.
 */
public final class Tls {

  private static final ApplicationProtocolConfig SERVER_ALPN = new ApplicationProtocolConfig(
      ApplicationProtocolConfig.Protocol.ALPN,
      ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
      ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
      ApplicationProtocolNames.HTTP_2, ApplicationProtocolNames.HTTP_1_1);

  private static final ApplicationProtocolConfig CLIENT_ALPN = new ApplicationProtocolConfig(
      ApplicationProtocolConfig.Protocol.ALPN,
      ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
      ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
      ApplicationProtocolNames.HTTP_2);

  private static final ApplicationProtocolConfig CLIENT_HTTP1_ALPN = new ApplicationProtocolConfig(
      ApplicationProtocolConfig.Protocol.ALPN,
      ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
      ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT,
      ApplicationProtocolNames.HTTP_1_1);

  private Tls() {}

  /**
   * The server context: offers h2 and http/1.1.
   *
   * @throws IllegalArgumentException if the files cannot be read as PEM certificates and key, or
   *     OpenSSL is asked for and cannot be loaded
   */
  public static SslContext serverContext(TlsConfig tls) {
    ClientAuth clientAuth = clientAuth(tls.clientAuth());
    if (tls.sslContext() != null) {
      return new JdkSslContext(tls.sslContext(), false, null, IdentityCipherSuiteFilter.INSTANCE, SERVER_ALPN,
          clientAuth, null, false);
    }
    SslProvider provider = provider(tls);
    try {
      SslContextBuilder builder = SslContextBuilder
          .forServer(tls.certificateChain().toFile(), tls.privateKey().toFile())
          .sslProvider(provider)
          .ciphers(Http2SecurityUtil.CIPHERS, SupportedCipherSuiteFilter.INSTANCE)
          .applicationProtocolConfig(SERVER_ALPN)
          .clientAuth(clientAuth);
      if (tls.trustCertificates() != null) {
        builder.trustManager(tls.trustCertificates().toFile());
      }
      return builder.build();
    } catch (SSLException | RuntimeException e) {
      throw new IllegalArgumentException("Cannot use the server's TLS certificate or key: " + e.getMessage(), e);
    }
  }

  /**
   * The client context: offers h2 only; verifies the server's certificate and host name.
   *
   * @throws IllegalArgumentException if the files cannot be read as PEM certificates and key, or
   *     OpenSSL is asked for and cannot be loaded
   */
  public static SslContext clientContext(TlsConfig tls) {
    return clientContext(tls, CLIENT_ALPN);
  }

  /** The client context of a client that calls over HTTP/1.1: offers http/1.1 only; otherwise as {@link #clientContext}. */
  public static SslContext http1ClientContext(TlsConfig tls) {
    return clientContext(tls, CLIENT_HTTP1_ALPN);
  }

  private static SslContext clientContext(TlsConfig tls, ApplicationProtocolConfig alpn) {
    if (tls.sslContext() != null) {
      return new JdkSslContext(tls.sslContext(), true, null, IdentityCipherSuiteFilter.INSTANCE, alpn,
          ClientAuth.NONE, null, false);
    }
    SslProvider provider = provider(tls);
    try {
      SslContextBuilder builder = SslContextBuilder.forClient()
          .sslProvider(provider)
          .ciphers(Http2SecurityUtil.CIPHERS, SupportedCipherSuiteFilter.INSTANCE)
          .applicationProtocolConfig(alpn)
          .endpointIdentificationAlgorithm("HTTPS");
      if (tls.trustCertificates() != null) {
        builder.trustManager(tls.trustCertificates().toFile());
      }
      if (tls.certificateChain() != null) {
        builder.keyManager(tls.certificateChain().toFile(), tls.privateKey().toFile());
      }
      return builder.build();
    } catch (SSLException | RuntimeException e) {
      throw new IllegalArgumentException("Cannot use the client's TLS configuration: " + e.getMessage(), e);
    }
  }

  /**
   * The implementation for {@code tls}'s PEM files. OpenSSL as {@link SslProvider#OPENSSL}, whose engines
   * free their native memory when collected, not {@code OPENSSL_REFCNT}, which would need every
   * engine released by hand.
   *
   * @throws IllegalArgumentException if OpenSSL is asked for and cannot be loaded
   */
  static SslProvider provider(TlsConfig tls) {
    switch (tls.provider()) {
      case JDK:
        return SslProvider.JDK;
      case OPENSSL:
        if (!OpenSsl.isAvailable()) {
          throw new IllegalArgumentException(openSslAdvice() + OpenSsl.unavailabilityCause());
        }
        return SslProvider.OPENSSL;
      default:
        return OpenSsl.isAvailable() ? SslProvider.OPENSSL : SslProvider.JDK;
    }
  }

  /**
   * What to do about a missing OpenSSL. In triple-netty-shaded, Netty's classes are relocated and the
   * application's netty-tcnative (which names the unrelocated ones) can never serve them.
   */
  private static String openSslAdvice() {
    // A literal the shade plugin leaves alone: it relocates names that start with Netty's package.
    if (OpenSsl.class.getName().startsWith("io.triplerpc.shaded.")) {
      return "TLS with OpenSSL is not available from triple-netty-shaded, which holds no netty-tcnative: use"
          + " TlsConfig.Provider.JDK (what DEFAULT chooses there), or triple-core and triple-transport-netty"
          + " with io.netty:netty-tcnative-boringssl-static. ";
    }
    return "TLS with OpenSSL needs io.netty:netty-tcnative-boringssl-static on the class path: ";
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
