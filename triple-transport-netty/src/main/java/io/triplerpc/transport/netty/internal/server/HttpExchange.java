package io.triplerpc.transport.netty.internal.server;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http2.Http2Headers;
import io.triplerpc.PeerInfo;

/**
 * One HTTP request and its response, whatever the HTTP version: an HTTP/2 stream
 * ({@link Http2Exchange}) or an HTTP/1.1 request on its connection ({@link Http1ServerHandler}). The
 * web protocols (Connect, gRPC-Web) write their responses through it, so each is written once for
 * both versions. Headers are in HTTP/2 form ({@code :status} included). Event loop only.
 */
interface HttpExchange {

  EventLoop eventLoop();

  PeerInfo peer();

  ByteBufAllocator alloc();

  /** Writes the response head; {@code endOfResponse} when there is no body. */
  void writeHead(Http2Headers head, boolean endOfResponse);

  /** Writes part of the body, owning {@code data}; the future completes once it reached the socket. */
  ChannelFuture writeBody(ByteBuf data, boolean endOfResponse);

  /** Sends what was written. */
  void flush();

  /**
   * {@code bytes} of the request body were used: HTTP/2 acknowledges them to flow control, HTTP/1.1
   * reads on once little is left unused.
   */
  void consumed(int bytes);

  /**
   * Ends the exchange without a proper end, when the response cannot be finished (the service failed
   * mid-way on HTTP/1.1, say): RST_STREAM on HTTP/2, the connection closed on HTTP/1.1.
   */
  void abandon();

  /**
   * Whether the connection or the server holds so many unread responses that calls should write no more
   * ({@code isReady()} false) until told. Any thread.
   */
  default boolean holdsBack() {
    return false;
  }
}
