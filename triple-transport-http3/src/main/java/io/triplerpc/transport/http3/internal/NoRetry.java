package io.triplerpc.transport.http3.internal;

import io.netty.buffer.ByteBuf;
import io.netty.handler.codec.quic.QuicTokenHandler;
import java.net.InetSocketAddress;

/**
 * No QUIC Retry: a client's first packet starts its handshake without the extra round trip of an address
 * token. QUIC's own limit (a server sends at most three times what it received from an address not yet
 * validated) bounds amplification meanwhile, as it does for most QUIC servers. (Netty's own handler for
 * this is not public; its {@code InsecureQuicTokenHandler} issues tokens anyone can forge.)
 */
final class NoRetry implements QuicTokenHandler {

  static final NoRetry INSTANCE = new NoRetry();

  private NoRetry() {}

  @Override
  public boolean writeToken(ByteBuf out, ByteBuf dcid, InetSocketAddress address) {
    return false;
  }

  /** Any token is taken as none: the connection's ids start at offset 0 of the destination id. */
  @Override
  public int validateToken(ByteBuf token, InetSocketAddress address) {
    return 0;
  }

  @Override
  public int maxTokenLength() {
    return 0;
  }
}
