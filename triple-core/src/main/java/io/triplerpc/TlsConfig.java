package io.triplerpc;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import javax.net.ssl.SSLContext;

/**
 * Transport security for a {@link TripleServer} or a {@link TripleClient}: TLS 1.2/1.3 with ALPN
 * ({@code h2}, and {@code http/1.1} on servers, for curl and browsers).
 *
 * <p>From PEM files:
 * <pre>{@code
 * TlsConfig server = TlsConfig.builder()
 *     .keyCertChain(Path.of("server.pem"), Path.of("server.key"))   // PKCS#8 key
 *     .trustCertificates(Path.of("clients-ca.pem"))                  // to verify client certificates
 *     .clientAuth(TlsConfig.ClientAuth.REQUIRE)                      // mutual TLS
 *     .build();
 * TlsConfig client = TlsConfig.builder()
 *     .trustCertificates(Path.of("ca.pem"))                          // else the JDK's trust store
 *     .keyCertChain(Path.of("client.pem"), Path.of("client.key"))   // for mutual TLS
 *     .build();
 * }</pre>
 * or from a configured {@link SSLContext}. A server with TLS serves only TLS, unless its builder opts
 * in to cleartext on the same port ({@code TripleServer.Builder#plaintextAlongsideTls}). Immutable.
 *
 * <p>PEM files are served by OpenSSL (BoringSSL) when {@code io.netty:netty-tcnative-boringssl-static}
 * is on the class path, by the JDK otherwise ({@link Provider}); an {@link SSLContext} always by the JDK.
 */
public final class TlsConfig {

  /** Whether a server asks clients for a certificate. */
  public enum ClientAuth {
    /** No client certificate is asked for. */
    NONE,
    /** One is asked for and verified if given. */
    OPTIONAL,
    /** One is required: mutual TLS. */
    REQUIRE
  }

  /** Which TLS implementation serves a configuration given as PEM files. */
  public enum Provider {
    /** OpenSSL if netty-tcnative (BoringSSL) is on the class path and loads, else the JDK. */
    DEFAULT,
    /** The JDK's own (SunJSSE). */
    JDK,
    /** OpenSSL through netty-tcnative; a server or client fails to build without it. */
    OPENSSL
  }

  private final Path certificateChain;
  private final Path privateKey;
  private final Path trustCertificates;
  private final ClientAuth clientAuth;
  private final SSLContext sslContext;
  private final Provider provider;

  private TlsConfig(Builder builder) {
    this.certificateChain = builder.certificateChain;
    this.privateKey = builder.privateKey;
    this.trustCertificates = builder.trustCertificates;
    this.clientAuth = builder.clientAuth;
    this.sslContext = builder.sslContext;
    this.provider = builder.provider;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The PEM certificate chain this side presents, or null. */
  public Path certificateChain() {
    return certificateChain;
  }

  /** The PEM (PKCS#8) private key of {@link #certificateChain()}, or null. */
  public Path privateKey() {
    return privateKey;
  }

  /** The PEM certificates trusted to sign the peer's certificate, or null for the JDK's defaults. */
  public Path trustCertificates() {
    return trustCertificates;
  }

  /** Servers only: whether clients must present a certificate. */
  public ClientAuth clientAuth() {
    return clientAuth;
  }

  /** A configured context that replaces the files, or null. */
  public SSLContext sslContext() {
    return sslContext;
  }

  /** Which TLS implementation serves the PEM files; {@link Provider#JDK} with an {@link #sslContext()}. */
  public Provider provider() {
    return provider;
  }

  /** Builds a {@link TlsConfig}. */
  public static final class Builder {
    private Path certificateChain;
    private Path privateKey;
    private Path trustCertificates;
    private ClientAuth clientAuth = ClientAuth.NONE;
    private SSLContext sslContext;
    private Provider provider = Provider.DEFAULT;

    private Builder() {}

    /** The certificate chain and private key (PEM, PKCS#8) this side presents. */
    public Builder keyCertChain(Path certificateChainPem, Path privateKeyPem) {
      this.certificateChain = readable(certificateChainPem, "certificateChainPem");
      this.privateKey = readable(privateKeyPem, "privateKeyPem");
      return this;
    }

    /** The certificates (PEM) trusted to sign the peer's; the JDK's trust store when not set. */
    public Builder trustCertificates(Path caCertificatesPem) {
      this.trustCertificates = readable(caCertificatesPem, "caCertificatesPem");
      return this;
    }

    /** Servers: whether clients must present a certificate; NONE by default. */
    public Builder clientAuth(ClientAuth clientAuth) {
      this.clientAuth = Objects.requireNonNull(clientAuth, "clientAuth");
      return this;
    }

    /** A configured context (key and trust managers) instead of PEM files. */
    public Builder sslContext(SSLContext sslContext) {
      this.sslContext = Objects.requireNonNull(sslContext, "sslContext");
      return this;
    }

    /** Which TLS implementation serves the PEM files; {@link Provider#DEFAULT} by default. */
    public Builder provider(Provider provider) {
      this.provider = Objects.requireNonNull(provider, "provider");
      return this;
    }

    /** @throws IllegalArgumentException for an {@link SSLContext} with a provider other than the JDK's */
    public TlsConfig build() {
      if (sslContext != null) {
        if (provider == Provider.OPENSSL) {
          throw new IllegalArgumentException("An SSLContext is the JDK's: it cannot be served by OpenSSL");
        }
        provider = Provider.JDK;
      }
      return new TlsConfig(this);
    }

    private static Path readable(Path path, String what) {
      Objects.requireNonNull(path, what);
      if (!Files.isReadable(path)) {
        throw new IllegalArgumentException(what + " is not a readable file: " + path);
      }
      return path;
    }
  }
}
