package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufHolder;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;

/**
 * First in a server connection's pipeline when the server has an admin endpoint: counts the bytes it reads
 * from and writes to the socket (TLS records as they are), for the admin endpoint's view of the connection, and
 * notes when it opened. One add of a plain field per socket read and per buffer written; no allocation. Event
 * loop only.
 */
final class ConnectionTraffic extends ChannelDuplexHandler {

  static final String NAME = "triple-traffic";

  /** When the connection was accepted, in milliseconds since the epoch. */
  final long openedAtMillis = System.currentTimeMillis();

  private long bytesIn;
  private long bytesOut;

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
    if (msg instanceof ByteBuf) {
      bytesIn += ((ByteBuf) msg).readableBytes();
    }
    ctx.fireChannelRead(msg);
  }

  @Override
  public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
    if (msg instanceof ByteBuf) {
      bytesOut += ((ByteBuf) msg).readableBytes();
    } else if (msg instanceof ByteBufHolder) {
      bytesOut += ((ByteBufHolder) msg).content().readableBytes();
    }
    ctx.write(msg, promise);
  }

  long bytesIn() {
    return bytesIn;
  }

  long bytesOut() {
    return bytesOut;
  }

  @Override
  public boolean isSharable() {
    return false;
  }

  /** The counter of a connection's pipeline, or null if it has none. */
  static ConnectionTraffic of(io.netty.channel.Channel channel) {
    ChannelHandler handler = channel.pipeline().get(NAME);
    return handler instanceof ConnectionTraffic ? (ConnectionTraffic) handler : null;
  }
}
