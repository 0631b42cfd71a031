package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.triplerpc.Status;

/**
 * One HTTP/2 stream of a server connection after its request headers chose a protocol
 * ({@link ServerProtocol}): the connection hands it every later frame of the stream, and tells it
 * when the stream ends. Event loop only.
 */
interface ServerExchange {

  /**
   * A DATA frame of the request. The exchange retains {@code data} if it keeps it.
   *
   * @return the bytes the connection acknowledges to flow control now; the exchange acknowledges the
   *     rest itself once it has used them
   */
  int onData(ChannelHandlerContext ctx, ByteBuf data, int padding, boolean endOfStream);

  /** A header block after the request's first: trailers, which must end the client's side. */
  void onTrailers(ChannelHandlerContext ctx, boolean endOfStream);

  /** The client reset the stream (RST_STREAM {@code errorCode}). */
  void onReset(long errorCode);

  /** The connection ends the stream at once with {@code status} (a forceful close, a dead client). */
  void abort(Status status);

  /** The HTTP/2 stream closed, for whatever reason: the exchange releases what it holds. */
  void onClosed();

  /** The call's protocol for the admin view: {@code grpc}, {@code grpc-web}, {@code connect}, ... */
  default String protocol() {
    return "grpc";
  }

  /**
   * The connection's or the server's backlog fell back after holding streams back: a call whose own
   * messages are not waiting may write again ({@code onReady}).
   */
  default void onDecongested() {}
}
