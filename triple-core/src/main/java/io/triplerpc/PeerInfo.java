package io.triplerpc;

import java.net.SocketAddress;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.SSLSession;
import javax.security.auth.x500.X500Principal;

/**
 * The connection a call arrived on, as the server sees it: addresses, the HTTP protocol, and for TLS
 * the session with the client's verified certificate chain. The same for every protocol a server
 * speaks (gRPC, HTTP unary, and the rest). Built once per connection; immutable.
 */
public final class PeerInfo {

  /** ALPN's name of HTTP/2 over TLS. */
  public static final String HTTP_2 = "h2";
  /** The name of HTTP/2 over cleartext (prior knowledge or an {@code Upgrade: h2c}). */
  public static final String HTTP_2_CLEARTEXT = "h2c";
  /** ALPN's name of HTTP/1.1. */
  public static final String HTTP_1_1 = "http/1.1";
  /** ALPN's name of HTTP/3, over QUIC (always TLS 1.3). */
  public static final String HTTP_3 = "h3";

  private final SocketAddress remoteAddress;
  private final SocketAddress localAddress;
  private final String applicationProtocol;
  private final SSLSession sslSession;
  /** The client's chain, its own certificate first; empty without TLS or without a client certificate. */
  private final List<X509Certificate> peerCertificates;

  /**
   * For transports.
   *
   * @param sslSession the TLS session after its handshake, or null for cleartext
   * @param peerCertificates the client's chain as verified by the handshake, own certificate first
   */
  public PeerInfo(
      SocketAddress remoteAddress,
      SocketAddress localAddress,
      String applicationProtocol,
      SSLSession sslSession,
      List<X509Certificate> peerCertificates) {
    this.remoteAddress = remoteAddress;
    this.localAddress = localAddress;
    this.applicationProtocol = Objects.requireNonNull(applicationProtocol, "applicationProtocol");
    this.sslSession = sslSession;
    this.peerCertificates = List.copyOf(peerCertificates);
  }

  /** The client's address, or null when unknown. */
  public SocketAddress remoteAddress() {
    return remoteAddress;
  }

  /** The server's address the client connected to, or null when unknown. */
  public SocketAddress localAddress() {
    return localAddress;
  }

  /** {@link #HTTP_2}, {@link #HTTP_2_CLEARTEXT}, {@link #HTTP_1_1} or {@link #HTTP_3}. */
  public String applicationProtocol() {
    return applicationProtocol;
  }

  /** Whether the connection is TLS. */
  public boolean isTls() {
    return sslSession != null;
  }

  /** The negotiated TLS version, such as {@code TLSv1.3}, or null for cleartext. */
  public String tlsProtocol() {
    return sslSession == null ? null : sslSession.getProtocol();
  }

  /** The negotiated cipher suite, such as {@code TLS_AES_128_GCM_SHA256}, or null for cleartext. */
  public String cipherSuite() {
    return sslSession == null ? null : sslSession.getCipherSuite();
  }

  /** The TLS session, or null for cleartext. */
  public SSLSession sslSession() {
    return sslSession;
  }

  /**
   * The client's certificate chain, verified against the server's trusted certificates during the
   * handshake, the client's own certificate first; empty when the client presented none (or without
   * TLS).
   */
  public List<X509Certificate> peerCertificates() {
    return peerCertificates;
  }

  /** The subject of the client's verified certificate, or null when it presented none. */
  public X500Principal peerSubject() {
    return peerCertificates.isEmpty() ? null : peerCertificates.get(0).getSubjectX500Principal();
  }

  @Override
  public String toString() {
    StringBuilder text = new StringBuilder("PeerInfo{").append(remoteAddress).append(", ").append(applicationProtocol);
    if (sslSession != null) {
      text.append(", ").append(tlsProtocol()).append(", ").append(cipherSuite());
      X500Principal subject = peerSubject();
      if (subject != null) {
        text.append(", ").append(subject.getName());
      }
    }
    return text.append('}').toString();
  }
}
