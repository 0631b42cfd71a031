package io.triplerpc.transport.netty.internal.server;

import io.netty.channel.Channel;
import io.netty.handler.ssl.SslHandler;
import io.triplerpc.PeerInfo;
import java.net.SocketAddress;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLPeerUnverifiedException;
import javax.net.ssl.SSLSession;

/** Describes a connection for {@link PeerInfo}; once per connection, after any TLS handshake. */
public final class Peers {

  private Peers() {}

  /** The connection of {@code channel}, which speaks HTTP/2 when {@code http2}, else HTTP/1.1. */
  static PeerInfo describe(Channel channel, boolean http2) {
    SslHandler ssl = channel.pipeline().get(SslHandler.class);
    SSLSession session = ssl == null ? null : ssl.engine().getSession();
    String protocol = !http2 ? PeerInfo.HTTP_1_1 : ssl != null ? PeerInfo.HTTP_2 : PeerInfo.HTTP_2_CLEARTEXT;
    return new PeerInfo(channel.remoteAddress(), channel.localAddress(), protocol, session, verifiedChain(session));
  }

  /**
   * A connection that is not a Netty socket channel with an {@code SslHandler} (an HTTP/3 one, over
   * QUIC): its addresses, protocol and TLS session (null for none).
   */
  public static PeerInfo describe(SocketAddress remote, SocketAddress local, String protocol, SSLSession session) {
    return new PeerInfo(remote, local, protocol, session, verifiedChain(session));
  }

  private static List<X509Certificate> verifiedChain(SSLSession session) {
    if (session == null) {
      return List.of();
    }
    Certificate[] chain;
    try {
      chain = session.getPeerCertificates();
    } catch (SSLPeerUnverifiedException none) {
      return List.of();
    }
    List<X509Certificate> certificates = new ArrayList<>(chain.length);
    for (Certificate certificate : chain) {
      if (certificate instanceof X509Certificate) {
        certificates.add((X509Certificate) certificate);
      }
    }
    return certificates;
  }
}
