package io.triplerpc.transport.netty.internal.server;

import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.MockTicker;
import io.triplerpc.internal.stream.ServerTransportListener;
import io.triplerpc.internal.stream.ServerTransportOptions;
import io.triplerpc.transport.netty.internal.EmbeddedHttp2Peer;

/** A server connection on an embedded channel, driven by a test's HTTP/2 client. */
final class EmbeddedServerConnection {

  private EmbeddedServerConnection() {}

  /**
   * A connection of {@code transport} with {@code options}, its clock {@code ticker}: the client
   * preface and the SETTINGS ACK sent, and the server's first frames read and dropped.
   */
  static EmbeddedHttp2Peer open(NettyServerTransport transport, ServerTransportListener listener,
      ServerTransportOptions options, MockTicker ticker) {
    EmbeddedChannel channel = EmbeddedChannel.builder().ticker(ticker).build();
    transport.initConnection(channel, listener, options);
    EmbeddedHttp2Peer client = new EmbeddedHttp2Peer(channel, ticker, false);
    client.sendClientPreface();
    client.sendSettingsAck();
    client.frames();
    return client;
  }
}
